"""Fast text-block renderer for training the reader (one view = one block of 1-4 lines).

The page generator (generate.py) lays pages out from the same kind of blocks; the reader is trained on
block views (the MODEL-NOTES fallback), with a curriculum: 1 line -> 1-2 lines -> 1-4 lines with prose.
"""
from __future__ import annotations

import glob
import os
import random
import re

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

LATIN_FONTS = ["DejaVuSans.ttf", "DejaVuSerif.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf",
               "LiberationSans-Regular.ttf", "LiberationSerif-Regular.ttf", "LiberationSans-Bold.ttf",
               "LiberationSerif-Bold.ttf", "LiberationMono-Regular.ttf", "LiberationSans-Italic.ttf"]
CJK_FONT = "wqy-microhei.ttc"
WORD_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.,;:()'\"/&%-]{0,15}$")


class TextSource:
    def __init__(self, corpus_dir):
        self.en = [l.strip() for l in open(os.path.join(corpus_dir, "en.txt"), encoding="utf-8") if l.strip()]
        self.zh = [l.strip() for l in open(os.path.join(corpus_dir, "zh.txt"), encoding="utf-8") if l.strip()]
        words = []
        for p in self.en:
            words += [w for w in p.split() if WORD_RE.match(w)]
        self.words_freq = words
        self.words_types = sorted(set(words))

    def split(self, holdout_every=10, held_out=False):
        """Deterministic paragraph split so held-out pages use prose never seen in training."""
        keep = (lambda i: i % holdout_every == 0) if held_out else (lambda i: i % holdout_every != 0)
        s = TextSource.__new__(TextSource)
        s.en = [p for i, p in enumerate(self.en) if keep(i)]
        s.zh = [p for i, p in enumerate(self.zh) if keep(i)]
        s.words_freq, s.words_types = self.words_freq, self.words_types
        return s

    def random_word(self, rng):
        r = rng.random()
        if r < 0.1:
            k = rng.random()
            if k < 0.4:
                return str(rng.randint(0, 10 ** rng.randint(1, 6)))
            if k < 0.7:
                return f"{rng.uniform(0, 1000):.{rng.randint(1, 3)}f}"
            return f"{rng.randint(1990, 2030)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        w = rng.choice(self.words_types if r < 0.55 else self.words_freq)
        k = rng.random()
        if k < 0.1:
            w = w.upper()
        elif k < 0.3:
            w = w[:1].upper() + w[1:]
        return w

    def prose_words(self, rng):
        p = rng.choice(self.en).split()
        i = rng.randrange(max(1, len(p) - 5))
        return p[i:]

    def zh_text(self, rng, n):
        p = rng.choice(self.zh)
        i = rng.randrange(max(1, len(p) - n))
        return p[i:i + n]


class Fonts:
    def __init__(self, font_dir):
        self.dir = font_dir
        self.cache = {}
        self.latin = [f for f in LATIN_FONTS if os.path.exists(os.path.join(font_dir, f))]

    def get(self, name, size):
        k = (name, size)
        if k not in self.cache:
            self.cache[k] = ImageFont.truetype(os.path.join(self.dir, name), size)
        return self.cache[k]


STAGES = {  # (min lines, max lines, min size, max size, prose prob, zh prob, markup prob)
    0: (1, 1, 24, 32, 0.0, 0.0, 0.0),
    1: (1, 2, 20, 30, 0.2, 0.05, 0.1),
    2: (1, 4, 18, 28, 0.4, 0.1, 0.2),
}


def fill_line(rng, src, font, width, mode, words_iter):
    """Greedy fill of one line up to `width` px; returns text."""
    out = ""
    while True:
        w = next(words_iter)
        cand = (out + " " + w) if out else w
        if font.getlength(cand) > width:
            if not out:  # a single over-long word: cut it
                while w and font.getlength(w) > width:
                    w = w[:-1]
                return w
            return out
        out = cand


def render_block(rng: random.Random, src: TextSource, fonts: Fonts, view=(128, 512), stage=2, degrade=None):
    """Returns (uint8 [H,W] image, target text)."""
    H, W = view
    n0, n1, s0, s1, p_prose, p_zh, p_markup = STAGES[stage]
    nlines = rng.randint(n0, n1)
    size = rng.randint(s0, s1)
    zh = rng.random() < p_zh
    fname = CJK_FONT if zh else rng.choice(fonts.latin)
    font = fonts.get(fname, size)
    spacing = int(size * rng.uniform(1.15, 1.45))
    while nlines > 1 and nlines * spacing + 4 > H:
        nlines -= 1
    x0 = rng.randint(2, 24)
    avail = W - x0 - rng.randint(2, 30)
    bg = rng.randint(225, 255)
    fg = rng.randint(0, 70)
    img = Image.new("L", (W, H), bg)
    d = ImageDraw.Draw(img)
    lines_txt = []
    markup = rng.random() < p_markup
    kind = rng.choice(["heading", "list", "numbered"]) if markup else "plain"
    if zh:
        for li in range(nlines):
            n = max(1, int(avail / size))
            t = src.zh_text(rng, rng.randint(max(1, n // 3), n))
            while t and font.getlength(t) > avail:
                t = t[:-1]
            lines_txt.append(t)
    else:
        prose = rng.random() < p_prose

        def words():
            if prose:
                while True:
                    for w in src.prose_words(rng):
                        yield w
            while True:
                yield src.random_word(rng)

        it = words()
        for li in range(nlines):
            frac = 1.0 if (li < nlines - 1 and rng.random() < 0.8) else rng.uniform(0.3, 1.0)
            lines_txt.append(fill_line(rng, src, font, avail * frac - (size if kind != "plain" else 0), stage, it))
    y = rng.randint(1, max(1, H - nlines * spacing - 2))
    targets = []
    for li, t in enumerate(lines_txt):
        prefix_draw, prefix_md = "", ""
        f = font
        if kind == "heading" and li == 0 and not zh:
            f = fonts.get("DejaVuSans-Bold.ttf" if "Serif" not in fname else "DejaVuSerif-Bold.ttf", size)
            while t and f.getlength(t) > avail:
                t = t.rsplit(" ", 1)[0] if " " in t else t[:-1]
            prefix_md = "## "
        elif kind == "list":
            prefix_draw, prefix_md = "\u2022 ", "- "
        elif kind == "numbered":
            prefix_draw = prefix_md = f"{li + 1}. "
        d.text((x0, y), prefix_draw + t, fill=fg, font=f)
        targets.append(prefix_md + t)
        y += spacing
    arr = np.asarray(img)
    if degrade is None:
        degrade = rng.random() < 0.5
    if degrade:
        arr = degrade_image(arr, rng)
    sep = "\n" if kind in ("list", "numbered") or (kind == "heading") else "\n"
    return arr, sep.join(targets) if kind != "heading" else targets[0] + ("\n\n" + "\n".join(targets[1:]) if len(targets) > 1 else "")


def degrade_image(arr, rng, strength=1.0):
    img = Image.fromarray(arr)
    H, W = arr.shape
    if rng.random() < 0.6:
        img = img.rotate(rng.uniform(-1.5, 1.5) * strength, resample=Image.BILINEAR, fillcolor=int(arr[0, 0]))
    if rng.random() < 0.5:
        f = rng.uniform(0.55, 0.85)
        img = img.resize((int(W * f), int(H * f)), Image.BILINEAR).resize((W, H), Image.BILINEAR)
    if rng.random() < 0.6:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.1) * strength))
    a = np.asarray(img).astype(np.float32)
    if rng.random() < 0.5:  # contrast loss / uneven illumination
        lo = rng.uniform(0, 60)
        a = lo + a * (255 - lo) / 255
        gx = np.linspace(0, rng.uniform(-25, 25), W)[None, :]
        a = a + gx
    nr = np.random.default_rng(rng.randrange(1 << 30))
    a = a + nr.normal(0, rng.uniform(3, 14) * strength, a.shape)
    if rng.random() < 0.4:  # speckles
        m = nr.random(a.shape) < rng.uniform(0.001, 0.006)
        a[m] = nr.uniform(0, 120, m.sum())
    return np.clip(a, 0, 255).astype(np.uint8)


def find_assets(root):
    fonts = os.path.join(root, "fonts")
    corpus = os.path.join(root, "corpus")
    return fonts, corpus


if __name__ == "__main__":
    import sys
    src = TextSource(".dev/corpus")
    fonts = Fonts(".dev/fonts")
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    os.makedirs(".cache/blocks", exist_ok=True)
    for i in range(8):
        a, t = render_block(rng, src, fonts, stage=i % 3)
        Image.fromarray(a).save(f".cache/blocks/{i}.png")
        print(i, repr(t))
