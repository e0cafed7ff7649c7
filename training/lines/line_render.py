"""Training views for folio-ocr-lines, made the way the TypeScript engine makes them at inference.

A text line is set at scan resolution (em 14-52 px: 8-12 pt at 150-300 dpi) in a serif, sans, monospaced or
typewriter font, degraded at that resolution like a scan (skew, blur, ink spread, low contrast, bleed-through,
noise, binarisation, JPEG), then cut out by a detector-like box and turned into a 128x512 view exactly as
`inference/onnx/line-views.ts` does (`lineViews`): the box is fitted to the line's ink (ink 26 px tall in a
36 px slot), cut at blank columns into pieces of at most 496 px, up to three pieces stacked in one view on the
paper's grey, 8 px margin. The target is the line's text, one piece per line of output (`\n` between pieces).
"""
from __future__ import annotations

import io
import os
import random
import re

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from line_corpus import held_out

VIEW_H, VIEW_W = 128, 512
SLOT, INK, MARGIN, PER_VIEW = 36, 26, 8, 3
MAX_PIECE = VIEW_W - 2 * MARGIN


def font_kind(name: str) -> str:
    n = name.lower()
    if "pcr" in n or "lmmono" in n or "courier" in n:
        return "typewriter"
    if "mono" in n:
        return "mono"
    if "serif" in n or "lmroman" in n or "bch" in n or "put" in n:
        return "serif"
    return "sans"


class Fonts:
    def __init__(self, d):
        self.dir = d
        files = sorted(f for f in os.listdir(d) if f.endswith((".ttf", ".otf", ".pfb")))
        self.by_kind = {}
        for f in files:
            self.by_kind.setdefault(font_kind(f), []).append(f)
        self.cache = {}

    def get(self, name, size):
        k = (name, size)
        if k not in self.cache:
            self.cache[k] = ImageFont.truetype(os.path.join(self.dir, name), size)
        return self.cache[k]

    def pick(self, rng, code):
        if code:
            kind = rng.choice(["mono", "typewriter", "typewriter"])
        else:
            kind = rng.choices(["serif", "sans", "mono", "typewriter"], [0.45, 0.33, 0.08, 0.14])[0]
        return rng.choice(self.by_kind.get(kind) or self.by_kind["sans"])


class LineSource:
    """Lines of real text from `corpus.tsv` (doc, kind, text), train or held-out side, plus numbers and cells."""

    def __init__(self, path, held=False, salad_share=0.0):
        self.salad_share = salad_share
        self.prose, self.deb, self.log, self.code, self.short = [], [], [], [], []
        for line in open(path, encoding="utf-8"):
            p = line.rstrip("\n").split("\t", 2)
            if len(p) < 3 or held_out(p[0]) != held:
                continue
            doc, kind, text = p
            if kind == "code":
                self.code.append(text.strip())
            elif kind in ("cell", "heading", "item"):
                self.short.append(text)
            elif "changelog" in doc:
                self.log.append(text)
            elif doc.startswith("deb:"):
                self.deb.append(text)
            else:
                self.prose.append(text)
        # A vocabulary for word salad: words drawn one by one carry no sentence to guess from.
        vocab = set()
        for pool in (self.prose, self.deb):
            for t in pool[:40000]:
                vocab.update(w.strip(".,;:()[]\"'") for w in t.split(" "))
        self.vocab = sorted(w for w in vocab if 1 <= len(w) <= 18 and w.isprintable())

    def words(self, rng, pool, n_chars):
        t = rng.choice(pool).split(" ")
        i = rng.randrange(max(1, len(t) - 3))
        out = ""
        for w in t[i:]:
            if out and len(out) + 1 + len(w) > n_chars:
                break
            out = f"{out} {w}" if out else w
        return out

    def number(self, rng):
        k = rng.random()
        if k < 0.25:
            return f"{rng.randint(0, 10 ** rng.randint(1, 7)):,}"
        if k < 0.45:
            return f"{rng.uniform(-100, 1000):.{rng.randint(1, 3)}f}"
        if k < 0.55:
            return f"{rng.uniform(0, 100):.1f}%"
        if k < 0.65:
            return f"{rng.choice(['$', '€', '£'])}{rng.randint(1, 99999):,}.{rng.randint(0, 99):02d}"
        if k < 0.75:
            return f"{rng.randint(1990, 2030)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        if k < 0.85:
            return f"({rng.choice('abcdefivx')})" if rng.random() < 0.5 else f"{rng.randint(1, 40)}."
        return f"{rng.choice(['Table', 'Figure', 'Section', 'p.', 'Fig.', 'Eq.'])} {rng.randint(1, 30)}"

    def salad(self, rng, n_chars):
        """Independent words with random case, punctuation, acronyms and numbers: reading, not guessing."""
        out = ""
        while len(out) < n_chars:
            k = rng.random()
            if k < 0.08:
                w = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(rng.randint(2, 6)))
            elif k < 0.16:
                w = self.number(rng)
            elif k < 0.2:
                w = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 9)))
            else:
                w = rng.choice(self.vocab) if self.vocab else "word"
                c = rng.random()
                w = w.upper() if c < 0.06 else w[:1].upper() + w[1:] if c < 0.3 else w
            p = rng.random()
            if p < 0.1:
                w += rng.choice([",", ".", ";", ":", "?", "!"])
            elif p < 0.14:
                w = rng.choice(["(", "\"", "'", "["]) + w + rng.choice([")", "\"", "'", "]"])
            elif p < 0.16:
                w = w + rng.choice(["-", "/", "'s"])
            out = f"{out} {w}" if out else w
        return out

    def text(self, rng):
        """(text, is_code)."""
        if self.salad_share and rng.random() < self.salad_share:
            return self.salad(rng, rng.choice([rng.randint(4, 40), rng.randint(30, 110)])).strip(), False
        r = rng.random()
        n = rng.choice([rng.randint(5, 40), rng.randint(40, 110), rng.randint(40, 110)])
        if r < 0.34 and self.prose:
            t = self.words(rng, self.prose, n)
        elif r < 0.52 and self.deb:
            t = self.words(rng, self.deb, n)
        elif r < 0.58 and self.log:
            t = self.words(rng, self.log, n)
        elif r < 0.74 and self.code:
            t = rng.choice(self.code)[:110]
            return t.rstrip(), True
        elif r < 0.84 and self.short:
            t = rng.choice(self.short)[:110]
        elif r < 0.93:
            t = " ".join(self.number(rng) if rng.random() < 0.6 else self.words(rng, self.prose or self.deb, rng.randint(3, 14))
                         for _ in range(rng.randint(1, 6)))
        else:
            t = self.number(rng)
        t = t.strip()
        if rng.random() < 0.3:  # typographer's quotes and dashes, as TeX and word processors set them
            t = re.sub(r'"(\S)', "\u201c\\1", t).replace('"', "\u201d")
            t = re.sub(r"(\s|^)'", "\\1\u2018", t).replace("'", "\u2019").replace(" - ", " \u2013 ").replace("--", "\u2014")
        return t, False


def ink_level(a):
    lo, hi = int(a.min()), int(a.max())
    return -1 if hi - lo < 32 else (lo + hi) / 2


def paper_level(a):
    return int(np.percentile(a, 95, method="lower"))


def cut(img, box, h):
    """The box (x0, y0, x1, y1; float page px) at `h` px high, grey, bilinear, white outside (line-views.ts cutLine)."""
    x0, y0, x1, y1 = box
    w = max(1, int(np.ceil(h * (x1 - x0) / max(1.0, y1 - y0))))
    pad = 4
    big = Image.new("L", (img.width + 2 * pad, img.height + 2 * pad), 255)
    big.paste(img, (pad, pad))
    return np.asarray(big.transform((w, h), Image.EXTENT, (x0 + pad, y0 + pad, x1 + pad, y1 + pad), Image.BILINEAR))


def fit_to_ink(img, box):
    probe = cut(img, box, SLOT)
    ink = ink_level(probe)
    rows = np.where((probe < ink).any(1))[0] if ink >= 0 else []
    if len(rows) == 0 or rows[-1] - rows[0] < 2:
        return box
    top, bottom = rows[0], rows[-1]
    per = (box[3] - box[1]) / SLOT
    cy = (box[1] + box[3]) / 2 + ((top + bottom + 1) / 2 - SLOT / 2) * per
    h = (bottom - top + 1) * per * SLOT / INK
    return (box[0], cy - h / 2, box[2], cy + h / 2)


def cut_points(strip, max_w):
    """line-views.ts cutPoints: pieces [x0, x1) <= max_w, cut in the middle of the widest blank run in the
    last third of each piece; returns (pieces, hard) where hard says a cut fell where no column was blank."""
    h, w = strip.shape
    ink = ink_level(strip)
    blank = ~(strip < ink).any(0) if ink >= 0 else np.ones(w, bool)
    pieces, start, hard = [], 0, False
    while w - start > max_w:
        end = start + max_w
        best, best_run, run = -1, 0, 0
        for x in range(start + (max_w * 2) // 3, end):
            run = run + 1 if blank[x] else 0
            if run > 0 and run >= best_run:
                best_run, best = run, x - run // 2
        c = best if best > start else end
        hard |= best <= start
        pieces.append((start, c))
        start = c
    pieces.append((start, w))
    return pieces, hard


def degrade(img, rng, ink_colour, paper):
    a = img
    if rng.random() < 0.15:  # ink spread or starved type (typewriters, photocopies)
        a = a.filter(ImageFilter.MinFilter(3) if rng.random() < 0.6 else ImageFilter.MaxFilter(3))
    if rng.random() < 0.5:
        a = a.rotate(rng.uniform(-1.2, 1.2), resample=Image.BILINEAR, fillcolor=paper)
    if rng.random() < 0.75:
        a = a.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.5)))
    x = np.asarray(a).astype(np.float32)
    if rng.random() < 0.25:  # low contrast: grey ink on grey paper
        lo, hi = rng.uniform(60, 150), rng.uniform(175, 235)
        x = lo + (x - x.min()) * (hi - lo) / max(1.0, x.max() - x.min())
    if rng.random() < 0.3:  # uneven light
        x = x + np.linspace(0, rng.uniform(-30, 30), x.shape[1])[None, :]
    nr = np.random.default_rng(rng.randrange(1 << 30))
    if rng.random() < 0.85:
        x = x + nr.normal(0, rng.uniform(2, 20), x.shape)
    if rng.random() < 0.15:  # binarised scan (fax, bilevel PDF)
        t = (x.min() + x.max()) / 2 + rng.uniform(-20, 20)
        x = np.where(x < t, rng.uniform(0, 40), rng.uniform(225, 255))
    x = np.clip(x, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        b = io.BytesIO()
        Image.fromarray(x).save(b, "JPEG", quality=rng.randint(30, 92))
        x = np.asarray(Image.open(b).convert("L"))
    return x


def compose(pieces_img, paper):
    v = np.full((VIEW_H, VIEW_W), paper, np.uint8)
    top = max(0, (VIEW_H - len(pieces_img) * SLOT) // 2)
    for k, p in enumerate(pieces_img):
        v[top + k * SLOT: top + (k + 1) * SLOT, MARGIN: MARGIN + p.shape[1]] = p
    return v


def render_line(rng, src, fonts, degraded=None, blank_share=0.02):
    """One training view and its target, or None when the line cannot be cut cleanly (a hard cut)."""
    if rng.random() < blank_share:
        return nothing_view(rng), ""
    text, code = src.text(rng)
    if not text:
        return None
    fname = fonts.pick(rng, code)
    em = rng.randint(14, 52)
    font = fonts.get(fname, em)
    paper, ink = rng.randint(200, 255), rng.randint(0, 80)
    l, t, r, b = font.getbbox(text)
    padx, pady = rng.randint(em // 2, 2 * em), rng.randint(em // 2, em)
    W, H = int(r + 2 * padx), int(b + 2 * pady)
    if W > 12000:
        return None
    img = Image.new("L", (W, H), paper)
    d = ImageDraw.Draw(img)
    if rng.random() < 0.08:  # bleed-through: the other side's line, mirrored and faint
        o, _ = src.text(rng)
        d.text((padx, pady + rng.randint(-em // 2, em // 2)), o, fill=paper - rng.randint(8, 30), font=font)
        img = img.transpose(Image.FLIP_LEFT_RIGHT)
        d = ImageDraw.Draw(img)
    d.text((padx, pady), text, fill=ink, font=font)
    if degraded is None:
        degraded = rng.random() < 0.75
    arr = degrade(img, rng, ink, paper) if degraded else np.asarray(img)
    page = Image.fromarray(arr)
    # A detector's box: the ink box with a margin that varies (DB's unclip), never tight.
    ih = b - t
    box = (padx + l - rng.uniform(0, 0.6) * ih, pady + t - rng.uniform(0.05, 0.5) * ih,
           padx + r + rng.uniform(0, 0.6) * ih, pady + b + rng.uniform(0.05, 0.5) * ih)
    box = fit_to_ink(page, box)
    strip = cut(page, box, SLOT)
    pieces, hard = cut_points(strip, MAX_PIECE)
    if hard:
        return None
    pieces = pieces[:PER_VIEW]
    # Character boundaries on the strip: where each character's middle lands.
    sx = strip.shape[1] / (box[2] - box[0])
    mids = [(padx + (font.getlength(text[:i]) + font.getlength(text[:i + 1])) / 2 - box[0]) * sx for i in range(len(text))]
    outs = []
    for x0, x1 in pieces:
        outs.append("".join(ch for ch, m in zip(text, mids) if x0 <= m < x1).strip())
    if len(pieces) < len(cut_points(strip, MAX_PIECE)[0]) or pieces[-1][1] < strip.shape[1]:
        pass
    target = "\n".join(o for o in outs if o)
    return compose([strip[:, x0:x1] for x0, x1 in pieces], paper_level(strip)), target


def nothing_view(rng):
    """A view with no text: paper, noise, a smear or a photo-like texture (the reader must say nothing)."""
    k = rng.random()
    nr = np.random.default_rng(rng.randrange(1 << 30))
    if k < 0.3:
        x = np.full((SLOT, rng.randint(20, MAX_PIECE)), rng.randint(150, 255), np.float32)
    elif k < 0.6:
        x = nr.uniform(0, 255, (SLOT, rng.randint(20, MAX_PIECE)))
    else:
        small = nr.uniform(0, 255, (rng.randint(2, 6), rng.randint(4, 40)))
        x = np.asarray(Image.fromarray(small.astype(np.uint8)).resize((rng.randint(40, MAX_PIECE), SLOT), Image.BICUBIC), np.float32)
        x = x + nr.normal(0, rng.uniform(0, 25), x.shape)
    x = np.clip(x, 0, 255).astype(np.uint8)
    return compose([x], paper_level(x))


if __name__ == "__main__":
    import sys
    src = LineSource(sys.argv[1])
    fonts = Fonts(sys.argv[2])
    out = sys.argv[3]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(1)
    n = 0
    import time
    t0 = time.time()
    tries = 0
    while n < 200:
        tries += 1
        r = render_line(rng, src, fonts)
        if r is None:
            continue
        if n < 24:
            Image.fromarray(r[0]).save(f"{out}/{n}.png")
            print(n, repr(r[1]))
        n += 1
    print(f"{n} views in {time.time() - t0:.2f}s, {tries} tries")
