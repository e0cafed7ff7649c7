#!/usr/bin/env bash
# One GPU window for folio-ocr-lines in two <= 10-minute phases; the machine keeps /tmp/lines between them
# while it stays warm (phase 2 falls back to the parts phase 1 left under $OUT, carried back as
# .dev/lines/resume/). Run from a folder holding this training/ tree, with the assets in $ASSETS
# (corpus.tsv from lines/line_corpus.py, fonts/) and folio-ocr-mini in $MINI.
#
#   bash training/lines_session.sh 1   # smoke (3 steps), warm start from folio-ocr-mini, main model MAIN1 s -> $OUT/run1.tar.part-*
#   bash training/lines_session.sh 2   # main MAIN2 s more, draft head MTP s, bench, export, re-read  -> $OUT/export.tar.part-*
#   INIT=DIR bash training/lines_session.sh c   # a later window in one call: warm start from an exported folder (the
#                                               # committed model), MAINC s with SALAD word salad, draft head, bench, export
set -euo pipefail
cd "$(dirname "$0")/.."
PHASE=${1:?phase 1 or 2}
OUT=${OUT:-/tmp/lines/out}
W=/tmp/lines
ASSETS=${ASSETS:-.dev/lines}
MINI=${MINI:-inference/models/folio-ocr-mini}
mkdir -p "$W" "$OUT"
export PYTHONUNBUFFERED=1
PY=${PY:-python3}
MAIN1=${MAIN1:-430} MAIN2=${MAIN2:-120} MTP=${MTP:-150}
PLAN=$((MAIN1 + MAIN2))
WORKERS=${WORKERS:-14}
TOK="$MINI/tokenizer.json"
COMMON=(--assets "$ASSETS" --tokenizer "$TOK" --lr "${LR:-5e-4}" --reuse "${REUSE:-4}" --workers "$WORKERS")

pack() {  # FOLDER NAME: FOLDER as NAME.tar in <= 15 MiB parts under $OUT
  tar -cf "$W/$2.tar" -C "$1" .
  split -b 15M -d "$W/$2.tar" "$OUT/$2.tar.part-"
  rm "$W/$2.tar"
}

run1() {
  $PY training/formula/from_mini.py --mini "$MINI" --tokenizer "$TOK" --out "$W/init" 2>&1 | tee "$OUT/init.txt"
  $PY training/train_lines.py --assets "$ASSETS" --tokenizer "$TOK" --out "$W/smoke" --resume "$W/init" --batch 8 --reuse 2 \
    --mask-pool 32 --workers 2 --eval-n 4 --main-seconds 60 --max-steps 3 --mtp-seconds 20 --mtp-max-steps 2 --pool-max 8 \
    --plan-seconds 100 2>&1 | tail -5
  $PY training/train_lines.py "${COMMON[@]}" --out "$W/run1" --resume "$W/init" \
    --main-seconds "$MAIN1" --plan-seconds "$PLAN" 2>&1 | tee "$W/train-run1.txt"
  cp "$W/train-run1.txt" "$W/run1/"
  pack "$W/run1" run1
}

run2() {
  if [ ! -d "$W/run1" ]; then
    mkdir -p "$W/run1" && cat "$ASSETS"/resume/run1.tar.part-* | tar -x -C "$W/run1"
  fi
  $PY training/train_lines.py "${COMMON[@]}" --out "$W/run2" --resume "$W/run1" \
    --main-seconds "$MAIN2" --plan-seconds "$PLAN" --mtp-seconds "$MTP" --bench 2>&1 | tee "$W/train-run2.txt"
  cp "$W/train-run2.txt" "$W/run2/"
  rm -rf "$W/export"
  $PY training/export_trained.py --model folio-ocr-lines --ckpt "$W/run2" --tokenizer "$TOK" \
    --results "$W/run2/results.json" --out "$W/export" 2>&1 | tee "$W/export.txt"
  $PY training/lines/reread_check.py --model "$W/export" --ckpt "$W/run2" --assets "$ASSETS" --n "${REREAD_N:-8}" 2>&1 | tee "$W/reread.txt"
  mkdir -p "$W/export/run"
  cp "$W"/train-run*.txt "$W/export.txt" "$W/reread.txt" "$W/run2/results.json" "$W/run2/log.json" "$W/export/run/"
  cp "$W/run2/loss.png" "$W/export/run/" 2>/dev/null || true
  pack "$W/export" export
}

runc() {
  $PY training/formula/from_mini.py --mini "${INIT:?INIT=an exported folio-ocr-lines folder}" --tokenizer "$INIT/tokenizer.json" --out "$W/initc" 2>&1 | tee "$OUT/init.txt"
  $PY training/train_lines.py "${COMMON[@]}" --salad "${SALAD:-0.3}" --out "$W/runc" --resume "$W/initc" \
    --main-seconds "${MAINC:-280}" --plan-seconds "${MAINC:-280}" --mtp-seconds "$MTP" --bench 2>&1 | tee "$W/train-runc.txt"
  rm -rf "$W/export"
  $PY training/export_trained.py --model folio-ocr-lines --ckpt "$W/runc" --tokenizer "$INIT/tokenizer.json" \
    --results "$W/runc/results.json" --out "$W/export" 2>&1 | tee "$W/export.txt"
  $PY training/lines/reread_check.py --model "$W/export" --ckpt "$W/runc" --assets "$ASSETS" --n "${REREAD_N:-8}" 2>&1 | tee "$W/reread.txt"
  mkdir -p "$W/export/run"
  cp "$W/train-runc.txt" "$W/export.txt" "$W/reread.txt" "$W/runc/results.json" "$W/runc/log.json" "$W/export/run/"
  pack "$W/export" export
}

case "$PHASE" in
  1) run1 ;;
  2) run2 ;;
  c) runc ;;
  *) echo "phase must be 1, 2 or c" >&2; exit 2 ;;
esac
ls -la "$OUT"
