"""The benchmark's formula views (`npx folio bench math`): held-out formulas rendered once, with their truth.

    .venv/bin/python training/formula/make_views.py --out bench/math/views --n 200

Writes OUT/synthetic/NNN.png (the first N held-out synthetic formulas) and OUT/real/NNN.png (the held-out
real formulas), each folder with truth.tsv (file, kind, canonical LaTeX). Views are rendered exactly as the
training eval renders them (seed 4242 / 4243), 128x512 grey, so the engine reads them without resizing.
"""
from __future__ import annotations

import argparse
import os
import random
import sys

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from render import render_view  # noqa: E402

DATA = os.path.join(HERE, "data")


def rows(name):
    lines = [l.rstrip("\n").split("\t") for l in open(os.path.join(DATA, name), encoding="utf-8")][1:]
    return [(r[0], r[1] if len(r) > 1 else "real") for r in lines if r and r[0]]


def write(folder, items, seed):
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(seed)
    with open(os.path.join(folder, "truth.tsv"), "w", encoding="utf-8") as f:
        f.write("file\tkind\tlatex\n")
        i = 0
        for tex, kind in items:
            v = render_view(tex, rng)
            if v is None:
                continue
            name = f"{i:03d}.png"
            Image.fromarray(v).save(os.path.join(folder, name), optimize=True)
            f.write(f"{name}\t{kind}\t{tex}\n")
            i += 1
    return i


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="bench/math/views")
    ap.add_argument("--n", type=int, default=200)
    a = ap.parse_args()
    n1 = write(os.path.join(a.out, "synthetic"), rows("heldout-synthetic.tsv")[:a.n], 4242)
    n2 = write(os.path.join(a.out, "real"), rows("heldout-real.tsv"), 4243)
    print(f"{n1} synthetic, {n2} real views")


if __name__ == "__main__":
    main()
