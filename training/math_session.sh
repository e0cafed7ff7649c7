#!/usr/bin/env bash
# One GPU window for folio-ocr-math (~25 min of device time): resume from the committed weights
# (inference/models/folio-ocr-math, read back by folio_ocr/from_onnx.py) with the real TeX Live formulas
# and the GPU-side view reuse, in phases that each fit the device tool's 10-minute command limit; the
# machine keeps /tmp/math between phases while it stays warm. Everything the next step needs lands in $OUT.
#
#   bash training/math_session.sh 1   # warm start + main model (MAIN1 s)           -> $OUT/run1.tar.part-*
#   bash training/math_session.sh 2   # main model resumed (MAIN2 s)                -> $OUT/run2.tar.part-*
#   bash training/math_session.sh 3   # main (MAIN3 s), draft head, bench, export, re-read -> $OUT/export.tar.part-*
#   bash training/math_session.sh smoke   # on a CPU: every phase in a few steps, tiny batch
#
# If the machine was lost between phases, a phase starts from the parts of the previous one: put them
# under .cache/math-resume/ (ignored by git; name it in carry) and the phase unpacks them. Reassemble here with
#   cat $FILES_AT/export.tar.part-* | tar -x -C .cache/math-export
# Leave the models a call does not need behind (the working tree may hold 64 MiB):
#   rm -r inference/models/folio-ocr-mini inference/embed/models   # and afterwards: git checkout -- inference
set -euo pipefail
cd "$(dirname "$0")/.."
PHASE=${1:?phase 1, 2, 3 or smoke}
OUT=${OUT:-/tmp/math/out}
W=/tmp/math
mkdir -p "$W" "$OUT"
export PYTHONUNBUFFERED=1
PY=${PY:-python3}
MODEL=inference/models/folio-ocr-math
MAIN1=${MAIN1:-420} MAIN2=${MAIN2:-450} MAIN3=${MAIN3:-150} MTP=${MTP:-150}
PLAN=$((MAIN1 + MAIN2 + MAIN3))
WORKERS=${WORKERS:-14}
COMMON=(--assets "$W/assets" --lr "${LR:-4e-4}" --reuse "${REUSE:-4}" --real-share "${REAL_SHARE:-0.3}" --workers "$WORKERS")
EXTRA=()
if [ "$PHASE" = smoke ]; then
  # a few steps of each phase on the CPU: proves the data path, checkpoints, export and the re-read
  COMMON=(--assets "$W/assets" --batch 4 --reuse 2 --mask-pool 16 --workers 0 --eval-n 4 --max-new 24 --pool-max 8)
  EXTRA=(--max-steps 3 --mtp-max-steps 2)
  MAIN1=600 MAIN2=600 MAIN3=600 MTP=600 PLAN=1800
fi

pack() {  # pack FOLDER NAME: FOLDER as NAME.tar in <= 15 MiB parts under $OUT (the tool returns 16 MiB files, 8 at most)
  tar -cf "$W/$2.tar" -C "$1" .
  split -b 15M -d "$W/$2.tar" "$OUT/$2.tar.part-"
  rm "$W/$2.tar"
}

unpack_resume() {  # unpack_resume NAME DEST: the previous phase's parts from .cache/math-resume when /tmp lost them
  if [ ! -d "$2" ] && ls .cache/math-resume/"$1".tar.part-* >/dev/null 2>&1; then
    mkdir -p "$2" && cat .cache/math-resume/"$1".tar.part-* | tar -x -C "$2"
  fi
}

assets() {
  mkdir -p "$W/assets" && cp "$MODEL/tokenizer.json" "$W/assets/tokenizer.json"
}

run1() {
  assets
  $PY training/formula/from_mini.py --mini "$MODEL" --tokenizer "$MODEL/tokenizer.json" --out "$W/init" 2>&1 | tee "$OUT/init.txt"
  $PY training/train_math.py "${COMMON[@]}" "${EXTRA[@]}" --out "$W/run1" --resume "$W/init" \
    --main-seconds "$MAIN1" --plan-seconds "$PLAN" 2>&1 | tee "$W/train-run1.txt"
  cp "$W/train-run1.txt" "$W/run1/"
  pack "$W/run1" run1
}

run2() {
  assets
  unpack_resume run1 "$W/run1"
  $PY training/train_math.py "${COMMON[@]}" "${EXTRA[@]}" --out "$W/run2" --resume "$W/run1" \
    --main-seconds "$MAIN2" --plan-seconds "$PLAN" 2>&1 | tee "$W/train-run2.txt"
  cp "$W/train-run2.txt" "$W/run2/"
  pack "$W/run2" run2
}

run3() {
  assets
  unpack_resume run2 "$W/run2"
  bench=(--bench)
  [ "$PHASE" = smoke ] && bench=()
  $PY training/train_math.py "${COMMON[@]}" "${EXTRA[@]}" --out "$W/run3" --resume "$W/run2" \
    --main-seconds "$MAIN3" --plan-seconds "$PLAN" --mtp-seconds "$MTP" "${bench[@]}" 2>&1 | tee "$W/train-run3.txt"
  cp "$W/train-run3.txt" "$W/run3/"
  rm -rf "$W/export"
  $PY training/export_trained.py --model folio-ocr-math --ckpt "$W/run3" --tokenizer "$MODEL/tokenizer.json" \
    --results "$W/run3/results.json" --out "$W/export" 2>&1 | tee "$W/export.txt"
  $PY training/formula/reread_check.py --model "$W/export" --ckpt "$W/run3" --n "${REREAD_N:-8}" 2>&1 | tee "$W/reread.txt"
  mkdir -p "$W/export/run"
  cp "$W"/train-run*.txt "$W/export.txt" "$W/reread.txt" "$W/run3/results.json" "$W/run3/log.json" "$W/export/run/"
  cp "$W/run3/loss.png" "$W/export/run/" 2>/dev/null || true
  pack "$W/export" export
}

case "$PHASE" in
  1) run1 ;;
  2) run2 ;;
  3) run3 ;;
  smoke) run1 && run2 && run3 ;;
  *) echo "phase must be 1, 2, 3 or smoke" >&2; exit 2 ;;
esac
ls -la "$OUT"
