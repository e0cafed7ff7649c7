"""Formula images for training: matplotlib's mathtext, plus a small compositor for the environments it lacks.

mathtext typesets the inline subset of TeX (fractions, scripts, roots, big operators, accents, fonts,
`\\left...\\right`, `\\binom`, `\\text`) but no `\\begin{...}`; matrices, `cases` and `aligned` are laid out
here from their cells, each cell typeset by mathtext, with stretched delimiter glyphs. One view is a grey
uint8 image of the model's size with the formula at a random place, size, font set and ink/paper tone, placed
as `preprocess.fit_view` would place a crop (it never needs resizing there).

    python3 training/formula/render.py --out /tmp/formula-samples --n 16
"""
from __future__ import annotations

import argparse
import os
import random
import re

import numpy as np
from PIL import Image

FONTSETS = ["cm", "stix", "stixsans", "dejavusans", "dejavuserif"]
ENV_RE = re.compile(r"\\begin\{(\w+)\}(.*?)\\end\{\1\}", re.S)
DELIMS = {"pmatrix": ("(", ")"), "bmatrix": ("[", "]"), "Bmatrix": (r"\{", r"\}"), "vmatrix": ("|", "|"),
          "Vmatrix": (r"\Vert", r"\Vert"), "cases": (r"\{", None), "matrix": (None, None), "aligned": (None, None)}

_parser = None


def _mathtext():
    global _parser
    if _parser is None:
        import matplotlib
        matplotlib.use("Agg")
        from matplotlib.mathtext import MathTextParser
        _parser = MathTextParser("agg")
    return _parser


class Box:
    """An ink mask (uint8, 255 = ink) with its baseline row."""

    def __init__(self, mask, baseline):
        self.mask, self.baseline = mask, baseline

    @property
    def w(self):
        return self.mask.shape[1]

    @property
    def h(self):
        return self.mask.shape[0]

    @property
    def descent(self):
        return self.h - self.baseline


def typeset(tex, size, fontset):
    """mathtext of one inline piece -> Box; raises ValueError when mathtext cannot parse it."""
    from matplotlib.font_manager import FontProperties
    if not tex.strip():
        return Box(np.zeros((1, 1), np.uint8), 1)
    rp = _mathtext().parse(f"${tex}$", dpi=72, prop=FontProperties(size=size, math_fontfamily=fontset))
    m = np.asarray(rp.image).copy()
    return Box(m, int(round(m.shape[0] - rp.depth)))


def hcat(boxes, gap):
    asc = max(b.baseline for b in boxes)
    desc = max(b.descent for b in boxes)
    w = sum(b.w for b in boxes) + gap * (len(boxes) - 1)
    out = np.zeros((asc + desc, w), np.uint8)
    x = 0
    for b in boxes:
        y = asc - b.baseline
        out[y:y + b.h, x:x + b.w] = np.maximum(out[y:y + b.h, x:x + b.w], b.mask)
        x += b.w + gap
    return Box(out, asc)


def stretched(glyph, size, fontset, height):
    """A delimiter glyph stretched to `height` rows (width grows a little, as TeX's larger sizes do)."""
    b = typeset(glyph, size, fontset)
    ys, xs = np.nonzero(b.mask > 20)
    m = b.mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1] if len(ys) else b.mask
    w = max(2, int(round(m.shape[1] * (1 + 0.25 * max(0.0, height / max(1, m.shape[0]) - 1)))))
    return np.asarray(Image.fromarray(m).resize((w, max(2, height)), Image.BILINEAR))


def environment(env, body, size, fontset):
    rows = [r for r in re.split(r"\\\\", body)]
    cells = [[typeset(c.strip(), size, fontset) for c in r.split("&")] for r in rows]
    ncol = max(len(r) for r in cells)
    for r in cells:
        r += [Box(np.zeros((1, 1), np.uint8), 1)] * (ncol - len(r))
    colw = [max(r[j].w for r in cells) for j in range(ncol)]
    asc = [max(c.baseline for c in r) for r in cells]
    desc = [max(c.descent for c in r) for r in cells]
    gap = 0 if env == "aligned" else int(size * (1.0 if env == "cases" else 0.8))
    rgap = int(size * 0.35)
    H = sum(a + d for a, d in zip(asc, desc)) + rgap * (len(rows) - 1)
    W = sum(colw) + gap * (ncol - 1)
    grid = np.zeros((H, W), np.uint8)
    y = 0
    for i, r in enumerate(cells):
        x = 0
        for j, c in enumerate(r):
            if env == "aligned":
                cx = x + (colw[j] - c.w if j % 2 == 0 else 0)
            elif env == "cases":
                cx = x
            else:
                cx = x + (colw[j] - c.w) // 2
            cy = y + asc[i] - c.baseline
            grid[cy:cy + c.h, cx:cx + c.w] = np.maximum(grid[cy:cy + c.h, cx:cx + c.w], c.mask)
            x += colw[j] + gap
        y += asc[i] + desc[i] + rgap
    lo, hi = DELIMS.get(env, (None, None))
    pad = int(size * 0.15)
    parts = []
    if lo:
        parts.append(stretched(lo, size, fontset, H + 2 * pad))
    parts.append(np.pad(grid, ((pad, pad), (0, 0))))
    if hi:
        parts.append(stretched(hi, size, fontset, H + 2 * pad))
    sp = max(1, int(size * 0.12))
    out = np.zeros((H + 2 * pad, sum(p.shape[1] for p in parts) + sp * (len(parts) - 1)), np.uint8)
    x = 0
    for p in parts:
        out[:p.shape[0], x:x + p.shape[1]] = p
        x += p.shape[1] + sp
    axis = int(size * 0.25)  # TeX centres an environment on the math axis, about a quarter em up
    return Box(out, out.shape[0] // 2 + axis)


def formula_box(tex, size, fontset):
    """The whole formula: inline pieces by mathtext, top-level environments by `environment`."""
    boxes, pos = [], 0
    for m in ENV_RE.finditer(tex):
        if tex[pos:m.start()].strip():
            boxes.append(typeset(tex[pos:m.start()], size, fontset))
        boxes.append(environment(m.group(1), m.group(2), size, fontset))
        pos = m.end()
    if tex[pos:].strip():
        boxes.append(typeset(tex[pos:], size, fontset))
    return hcat(boxes, max(1, int(size * 0.15))) if len(boxes) > 1 else boxes[0]


def trim(mask):
    ys, xs = np.nonzero(mask > 0)
    if not len(ys):
        return None
    return mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


SIZES = [14, 16, 18, 20, 22, 24, 26, 28, 32]


def mask_of(tex, fontset, size):
    """The formula's trimmed ink mask (uint8, 255 = ink), or None when it cannot be typeset."""
    try:
        return trim(formula_box(tex, size, fontset).mask)
    except Exception:  # mathtext's parse errors are of several types
        return None


def render_mask(tex, rng: random.Random, view_h=128, view_w=512, reach=1.0):
    """The ink mask of the formula at a random font set and size, shrunk if it would not fit the view at
    `reach` times its size (so a GPU-side rescale up to `reach` still fits), or None (cannot be typeset, or
    unreadably small once fitted). The training stream's CPU half: `gpu_views.compose` places it."""
    m = mask_of(tex, rng.choice(FONTSETS), rng.choice(SIZES))
    if m is None:
        return None
    h, w = m.shape
    scale = min(1.0, (view_w - 4) / (w * reach), (view_h - 4) / (h * reach))
    if scale < 1.0:
        if scale * reach < 0.3:
            return None
        m = np.asarray(Image.fromarray(m).resize((max(1, int(w * scale)), max(1, int(h * scale))), Image.LANCZOS))
    return m


def render_view(tex, rng: random.Random, view_h=128, view_w=512, fontset=None, size=None):
    """A grey view (uint8 [view_h, view_w]) of the formula, or None when it cannot be typeset (all on the
    CPU: the held-out and benchmark views)."""
    fontset = fontset or rng.choice(FONTSETS)
    size = size or rng.choice(SIZES)
    m = mask_of(tex, fontset, size)
    if m is None:
        return None
    margin = rng.randint(1, 10)
    h, w = m.shape
    scale = min(1.0, (view_w - 2 * margin) / w, (view_h - 2 * margin) / h)
    if scale < 1.0:
        if scale < 0.3:  # a glyph height under ~5 px: unreadable, leave it out
            return None
        m = np.asarray(Image.fromarray(m).resize((max(1, int(w * scale)), max(1, int(h * scale))), Image.LANCZOS))
        h, w = m.shape
    paper = rng.randint(215, 255)
    ink = rng.randint(0, 70)
    out = np.full((view_h, view_w), 255, np.uint8)
    # the crop around the formula: paper tone, the rest of the view white as fit_view pads it
    ch = min(view_h, h + 2 * margin + rng.randint(0, max(0, min(30, view_h - h - 2 * margin))))
    cw = min(view_w, w + 2 * margin + rng.randint(0, max(0, min(60, view_w - w - 2 * margin))))
    out[:ch, :cw] = paper
    y = rng.randint(margin, max(margin, ch - h - margin))
    x = rng.randint(margin, max(margin, cw - w - margin))
    a = m.astype(np.float32) / 255.0
    region = out[y:y + h, x:x + w].astype(np.float32)
    out[y:y + h, x:x + w] = np.round(region * (1 - a) + ink * a).astype(np.uint8)
    return out


def main():
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from grammar import Gen
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(a.seed)
    g = Gen(random.Random(a.seed))
    i = fails = 0
    while i < a.n:
        tex, _ = g.formula()
        v = render_view(tex, rng)
        if v is None:
            fails += 1
            print("FAIL", tex)
            continue
        Image.fromarray(v).save(os.path.join(a.out, f"f{i:03d}.png"))
        print(i, tex)
        i += 1
    print("failed", fails)


if __name__ == "__main__":
    main()
