"""Render the decode benchmark's held-out views: text blocks as folio-ocr-mini was trained to read them.

    .venv/bin/python bench/decode/make_views.py --out bench/decode/views --n 16

Held-out prose (every 10th paragraph, never trained on), the training renderer's last curriculum stage
(1-4 lines, headings and lists), every other view degraded like a scan; a fixed seed, so the set is
reproducible. `views.json` keeps the rendered text beside each file.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys

from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "training", "synth"))
from blocks import Fonts, TextSource, render_block  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--assets", default=os.path.join(ROOT, ".dev", "ocr"))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "decode", "views"))
    ap.add_argument("--n", type=int, default=16)
    ap.add_argument("--seed", type=int, default=5)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    src = TextSource(os.path.join(a.assets, "corpus")).split(held_out=True)
    fonts = Fonts(os.path.join(a.assets, "fonts"))
    os.makedirs(a.out, exist_ok=True)
    refs = []
    for i in range(a.n):
        arr, text = render_block(rng, src, fonts, view=(128, 512), stage=2, degrade=(i % 2 == 1))
        # Degraded views are noise-heavy: as JPEG (what a scan usually is) they take a fifth of the bytes.
        name = f"view-{i:02d}.{'jpg' if i % 2 else 'png'}"
        Image.fromarray(arr).save(os.path.join(a.out, name), **({"quality": 75} if i % 2 else {"optimize": True}))
        refs.append({"image": name, "degraded": i % 2 == 1, "text": text})
    with open(os.path.join(a.out, "views.json"), "w") as f:
        json.dump({"seed": a.seed, "stage": 2, "held_out": True, "views": refs}, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
