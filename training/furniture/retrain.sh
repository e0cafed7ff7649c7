#!/usr/bin/env bash
# Retrain the furniture classifier in one command: build a training factory (every family the
# factory has today, so new families count as soon as they land), dump its margin rows with the
# truth's labels, dump real multi-page PDFs with labels from repetition, train, export
# core/furniture-model/model.json. Evaluate on a factory built with ANOTHER seed.
#
#   training/furniture/retrain.sh [DOCUMENTS=400] [SEED=7102] [REAL_DIR...]
#
# Real PDFs used so far: the PDFs of the Debian packages texlive-latex-recommended-doc,
# gnuplot-doc and octave-doc with 4 pages or more (`apt-get download`, `dpkg-deb -x`), first 24
# pages each, and ../shared/data/gnarly. docling-dev, olmocr-bench-dev and icdar2013-dev are kept
# out: they are the evaluation sets.
set -euo pipefail
cd "$(dirname "$0")/../.."
DOCS="${1:-400}"
SEED="${2:-7102}"
shift 2 || true
REAL=("${@:-../shared/data/gnarly}")
OUT=.cache/furniture
mkdir -p "$OUT"
if [ ! -x training/furniture/.venv/bin/python ]; then
  python3 -m venv training/furniture/.venv
  training/furniture/.venv/bin/pip install -q scikit-learn numpy
fi
npx folio bench factory --build --documents "$DOCS" --seed "$SEED" --no-scans --out "$OUT/factory-$SEED"
npx node training/furniture/dump.ts --factory "$OUT/factory-$SEED" --out "$OUT/factory-$SEED.jsonl"
REAL_ARGS=()
for d in "${REAL[@]}"; do REAL_ARGS+=(--real "$d"); done
npx node training/furniture/dump.ts "${REAL_ARGS[@]}" --max-pages 24 --out "$OUT/real.jsonl"
training/furniture/.venv/bin/python training/furniture/train.py "$OUT/factory-$SEED.jsonl" "$OUT/real.jsonl"
