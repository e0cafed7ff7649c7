"""Synthetic document pages with target Markdown and olmOCR-Bench-style unit tests (JinaOCRSynth-like).

    python3 training/synth/generate.py --out DIR --n N --seed S [--assets .dev/ocr] [--held-out]

Per page it writes DIR/pages/page-XXXXX.png, DIR/pages/page-XXXXX.md (target Markdown: tables as HTML,
formulas as LaTeX $$...$$, no page header/footer), DIR/pages/page-XXXXX.grounded.md (DeepSeek-OCR-style
grounding: <|ref|>label<|/ref|><|det|>[[x1, y1, x2, y2]]<|/det|> with 0-999 boxes before each block,
page header/footer included) and DIR/pages/page-XXXXX.json (layout: blocks, lines and pixel boxes);
DIR/dataset.jsonl holds the unit tests in ../shared/data/olmocr-bench-dev/dataset.jsonl's format
(present, absent, order, table, math), with "pdf" naming the page PNG.

Content: headings, paragraphs, bullet/numbered lists, one or two columns, HTML tables with
colspan/rowspan, formulas rendered from LaTeX with matplotlib mathtext (skipped when matplotlib is
missing), page headers/footers, in English or Chinese; then optional scan-like degradation (skew, blur,
resolution loss, noise, speckles, uneven illumination). Prose comes from Debian packages (see corpus.py).
"""
from __future__ import annotations

import argparse
import io
import json
import os
import random
import sys

import numpy as np
from PIL import Image, ImageDraw

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blocks import TextSource, Fonts, CJK_FONT, degrade_image  # noqa: E402

PAGE_W, PAGE_H = 1024, 1324
MARGIN = 56

FORMULAS = [
    r"E = m c^{2}", r"a^{2} + b^{2} = c^{2}", r"\frac{a}{b} + \frac{c}{d} = \frac{ad + bc}{bd}",
    r"\sum_{i=1}^{n} i = \frac{n(n+1)}{2}", r"\int_{0}^{1} x^{2} dx = \frac{1}{3}",
    r"\sqrt{x^{2} + y^{2}}", r"e^{i \pi} + 1 = 0", r"f(x) = \alpha x + \beta",
    r"\lim_{n \to \infty} \left(1 + \frac{1}{n}\right)^{n} = e", r"\sigma^{2} = \frac{1}{N} \sum_{i=1}^{N} (x_{i} - \mu)^{2}",
    r"P(A | B) = \frac{P(B | A) P(A)}{P(B)}", r"\nabla \cdot E = \frac{\rho}{\epsilon_{0}}",
    r"x = \frac{-b \pm \sqrt{b^{2} - 4ac}}{2a}", r"\int_{a}^{b} f(x) dx = F(b) - F(a)",
]
VARS = ["x", "y", "z", "t", "u", "v", "k", "n"]


def random_formula(rng):
    f = rng.choice(FORMULAS)
    if rng.random() < 0.5:
        a, b = rng.sample(VARS, 2)
        f = f"{a}_{{{rng.randint(1, 9)}}} = {rng.randint(2, 9)} {b}^{{{rng.randint(2, 4)}}} + {rng.randint(1, 99)}" \
            if rng.random() < 0.4 else f
    return f


_MPL = None


def render_formula(latex, size_px):
    """LaTeX (mathtext subset) -> greyscale PIL image, or None without matplotlib."""
    global _MPL
    if _MPL is None:
        try:
            import matplotlib
            matplotlib.use("Agg")
            from matplotlib import mathtext  # noqa: F401
            from matplotlib.figure import Figure
            from matplotlib.font_manager import FontProperties
            _MPL = (Figure, FontProperties)
        except Exception:
            _MPL = False
    if not _MPL:
        return None
    Figure, FontProperties = _MPL
    fig = Figure(figsize=(0.01, 0.01), dpi=100)
    fig.text(0, 0, f"${latex}$", fontproperties=FontProperties(size=size_px * 0.72))
    buf = io.BytesIO()
    try:
        fig.savefig(buf, dpi=100, format="png", bbox_inches="tight", pad_inches=0.02, transparent=False,
                    facecolor="white")
    except Exception:
        return None
    buf.seek(0)
    return Image.open(buf).convert("L")


def wrap_words(words, font, width):
    lines, cur = [], ""
    split = []
    for w in words:  # hard-split words wider than the column
        while font.getlength(w) > width and len(w) > 1:
            k = len(w)
            while k > 1 and font.getlength(w[:k]) > width:
                k -= 1
            split.append(w[:k])
            w = w[k:]
        split.append(w)
    for w in split:
        cand = (cur + " " + w) if cur else w
        if font.getlength(cand) <= width or not cur:
            cur = cand
        else:
            lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    return lines


def wrap_chars(text, font, width):
    lines, cur = [], ""
    for ch in text:
        if font.getlength(cur + ch) <= width or not cur:
            cur += ch
        else:
            lines.append(cur)
            cur = ch
    if cur:
        lines.append(cur)
    return lines


def box999(b):
    x1, y1, x2, y2 = b
    f = lambda v, m: int(max(0, min(999, round(v / m * 999))))  # noqa: E731
    return [f(x1, PAGE_W), f(y1, PAGE_H), f(x2, PAGE_W), f(y2, PAGE_H)]


class Page:
    def __init__(self, rng, src, fonts, zh):
        self.rng, self.src, self.fonts, self.zh = rng, src, fonts, zh
        self.bg = rng.randint(240, 255)
        self.img = Image.new("L", (PAGE_W, PAGE_H), self.bg)
        self.d = ImageDraw.Draw(self.img)
        self.blocks = []  # dicts: kind, text/markdown, bbox, lines[{text,bbox}], col
        self.fg = rng.randint(0, 50)
        self.body_font = CJK_FONT if zh else rng.choice(["DejaVuSerif.ttf", "LiberationSerif-Regular.ttf",
                                                         "DejaVuSans.ttf", "LiberationSans-Regular.ttf"])
        self.size = rng.randint(19, 25)

    def font(self, name=None, size=None):
        return self.fonts.get(name or self.body_font, size or self.size)

    def text_lines(self, x, y, width, lines, font, spacing):
        out = []
        for t in lines:
            self.d.text((x, y), t, fill=self.fg, font=font)
            l, tp, r, b = self.d.textbbox((x, y), t, font=font)
            out.append({"text": t, "bbox": [l, tp, r, b]})
            y += spacing
        return out, y

    def paragraph_text(self, n_words):
        if self.zh:
            return " ".join(self.src.zh_text(self.rng, n_words * 2).split())
        words = []
        while len(words) < n_words:
            words += self.src.prose_words(self.rng)
        return " ".join(words[:n_words])

    def add_paragraph(self, x, y, width, y_max, col, kind="paragraph"):
        f = self.font()
        sp = int(self.size * 1.35)
        text = self.paragraph_text(self.rng.randint(20, 60))
        lines = wrap_chars(text, f, width) if self.zh else wrap_words(text.split(), f, width)
        room = max(0, (y_max - y) // sp)
        if room < 2:
            return None
        lines = lines[:room]
        body = ("" if self.zh else " ").join(lines)
        ls, y2 = self.text_lines(x, y, width, lines, f, sp)
        self.blocks.append({"kind": kind, "markdown": body, "text": body, "lines": ls, "col": col,
                            "bbox": union([l["bbox"] for l in ls])})
        return y2 + int(self.size * 0.6)

    def add_heading(self, x, y, width, col, level=2):
        size = self.size + (10 if level == 1 else 5)
        name = CJK_FONT if self.zh else ("DejaVuSans-Bold.ttf" if self.rng.random() < 0.5 else "LiberationSans-Bold.ttf")
        f = self.fonts.get(name, size)
        text = self.paragraph_text(self.rng.randint(2, 7)).rstrip(".,;:")
        lines = (wrap_chars(text, f, width) if self.zh else wrap_words(text.split(), f, width))[:1]
        ls, y2 = self.text_lines(x, y, width, lines, f, int(size * 1.3))
        t = lines[0]
        self.blocks.append({"kind": "title" if level == 1 else "heading", "markdown": "#" * level + " " + t, "text": t,
                            "lines": ls, "col": col, "bbox": union([l["bbox"] for l in ls])})
        return y2 + int(self.size * 0.5)

    def add_list(self, x, y, width, y_max, col):
        f = self.font()
        sp = int(self.size * 1.35)
        numbered = self.rng.random() < 0.5
        items, ls_all, md = [], [], []
        for i in range(self.rng.randint(2, 5)):
            if y + sp > y_max:
                break
            mark = f"{i + 1}." if numbered else "\u2022"
            t = self.paragraph_text(self.rng.randint(3, 9))
            lines = (wrap_chars(t, f, width - 30) if self.zh else wrap_words(t.split(), f, width - 30))[:1]
            self.d.text((x, y), mark, fill=self.fg, font=f)
            ls, y = self.text_lines(x + 30, y, width - 30, lines, f, sp)
            ls[0]["text"] = mark + " " + ls[0]["text"]
            ls[0]["bbox"][0] = x
            ls_all += ls
            md.append((f"{i + 1}. " if numbered else "- ") + lines[0])
            items.append(lines[0])
        if not items:
            return None
        self.blocks.append({"kind": "list", "markdown": "\n".join(md), "text": "\n".join(items), "items": items,
                            "lines": ls_all, "col": col, "bbox": union([l["bbox"] for l in ls_all])})
        return y + int(self.size * 0.6)

    def add_table(self, x, y, width, y_max, col):
        rng = self.rng
        nr, nc = rng.randint(3, 5), rng.randint(2, 4)
        f = self.fonts.get(CJK_FONT if self.zh else "DejaVuSans.ttf", max(14, self.size - 4))
        fb = self.fonts.get(CJK_FONT if self.zh else "DejaVuSans-Bold.ttf", max(14, self.size - 4))
        rh = int(self.size * 1.6)
        if y + rh * nr + 10 > y_max:
            return None
        cw = width // nc
        # header words + cell values (unique, so tests can find them)
        used = set()

        def uniq(gen):
            for _ in range(20):
                v = gen()
                if v not in used:
                    used.add(v)
                    return v
            return gen() + str(rng.randint(100, 999))

        header = [uniq(lambda: (self.src.zh_text(rng, 3) if self.zh else self.src.random_word(rng).capitalize()[:10]))
                  for _ in range(nc)]
        cells = [[uniq(lambda: (f"{rng.uniform(0, 100):.{rng.randint(0, 2)}f}" if rng.random() < 0.6
                                else (self.src.zh_text(rng, 2) if self.zh else self.src.random_word(rng)[:9])))
                  for _ in range(nc)] for _ in range(nr - 1)]
        # one colspan in the header (if >= 3 columns) or one rowspan in the first column
        span = None
        if nc >= 3 and rng.random() < 0.5:
            span = ("col", 0, rng.randint(0, nc - 2))
        elif nr >= 4 and rng.random() < 0.6:
            span = ("row", rng.randint(1, nr - 3), 0)
        grid = [header] + cells
        html = ["<table>"]
        covered = set()
        for r in range(nr):
            html.append("<tr>")
            c = 0
            while c < nc:
                if (r, c) in covered:
                    c += 1
                    continue
                tag = "th" if r == 0 else "td"
                attrs, w, h = "", 1, 1
                if span and span[0] == "col" and r == span[1] and c == span[2]:
                    attrs, w = ' colspan="2"', 2
                    covered.add((r, c + 1))
                if span and span[0] == "row" and r == span[1] and c == span[2]:
                    attrs, h = ' rowspan="2"', 2
                    covered.add((r + 1, c))
                v = grid[r][c]
                while len(v) > 1 and (fb if r == 0 else f).getlength(v) > w * cw - 12:
                    v = v[:-1]
                v = v.strip() or "-"
                grid[r][c] = v
                html.append(f"<{tag}{attrs}>{v}</{tag}>")
                x0, y0 = x + c * cw, y + r * rh
                self.d.rectangle([x0, y0, x0 + w * cw, y0 + h * rh], outline=self.fg, width=1)
                self.d.text((x0 + 6, y0 + (h * rh - self.size) // 2), v, fill=self.fg, font=fb if r == 0 else f)
                c += w
            html.append("</tr>")
        html.append("</table>")
        # erase text of covered cells from the logical grid
        for (r, c) in covered:
            grid[r][c] = None
        bbox = [x, y, x + nc * cw, y + nr * rh]
        self.blocks.append({"kind": "table", "markdown": "".join(html), "grid": grid, "span": span, "col": col,
                            "bbox": bbox, "lines": []})
        return y + nr * rh + int(self.size * 0.8)

    def add_formula(self, x, y, width, y_max, col):
        latex = random_formula(self.rng)
        im = render_formula(latex, self.size + 4)
        if im is None:
            return None
        if im.width > width:
            im = im.resize((width, max(1, int(im.height * width / im.width))), Image.BILINEAR)
        if y + im.height > y_max:
            return None
        arr = np.asarray(im).astype(np.float32) / 255.0
        bgv = self.bg - (self.bg - self.fg) * (1 - arr)
        x0 = x + (width - im.width) // 2
        self.img.paste(Image.fromarray(bgv.astype(np.uint8)), (x0, y))
        self.d = ImageDraw.Draw(self.img)
        self.blocks.append({"kind": "equation", "markdown": f"$${latex}$$", "latex": latex, "col": col,
                            "bbox": [x0, y, x0 + im.width, y + im.height], "lines": []})
        return y + im.height + int(self.size * 0.8)

    def header_footer(self):
        f = self.fonts.get(CJK_FONT if self.zh else "DejaVuSans.ttf", 14)
        rng = self.rng
        head = (self.src.zh_text(rng, 10).strip() if self.zh else " ".join(self.src.random_word(rng) for _ in range(4)))
        foot = f"{rng.randint(1, 400)}"
        if rng.random() < 0.5:
            foot = (f"Page {foot}" if not self.zh else f"第 {foot} 页")
        self.d.text((MARGIN, 20), head, fill=self.fg + 40, font=f)
        self.d.text((PAGE_W // 2 - 20, PAGE_H - 34), foot, fill=self.fg + 40, font=f)
        self.header = {"kind": "header", "text": head, "bbox": list(self.d.textbbox((MARGIN, 20), head, font=f))}
        self.footer = {"kind": "footer", "text": foot,
                       "bbox": list(self.d.textbbox((PAGE_W // 2 - 20, PAGE_H - 34), foot, font=f))}


def union(bs):
    return [min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs)]


def make_page(rng, src, fonts, zh=False):
    p = Page(rng, src, fonts, zh)
    p.header_footer()
    y = MARGIN + 10
    y_max = PAGE_H - MARGIN - 20
    y = p.add_heading(MARGIN, y, PAGE_W - 2 * MARGIN, 0, level=1)
    two = rng.random() < 0.6
    cols = [(MARGIN, (PAGE_W - 2 * MARGIN - 40) // 2), (PAGE_W // 2 + 20, (PAGE_W - 2 * MARGIN - 40) // 2)] if two \
        else [(MARGIN, min(PAGE_W - 2 * MARGIN, rng.choice([500, 700, 912])))]
    kinds = ["paragraph", "paragraph", "paragraph", "heading", "list", "table", "equation"]
    for ci, (x, w) in enumerate(cols):
        yc = y
        n = 0
        while yc < y_max - 60 and n < 12:
            k = rng.choice(kinds)
            if k == "paragraph":
                r = p.add_paragraph(x, yc, w, y_max, ci)
            elif k == "heading":
                r = p.add_heading(x, yc, w, ci)
            elif k == "list":
                r = p.add_list(x, yc, w, y_max, ci)
            elif k == "table":
                r = p.add_table(x, yc, w, y_max, ci)
            else:
                r = p.add_formula(x, yc, w, y_max, ci)
            n += 1
            if r is None:
                if k == "paragraph":
                    break
                continue
            yc = r
    return p


def to_markdown(p, grounded=False):
    out = []
    blocks = p.blocks
    if grounded:
        out.append(f"<|ref|>header<|/ref|><|det|>[{box999(p.header['bbox'])}]<|/det|>\n{p.header['text']}")
    for b in blocks:
        md = b["markdown"]
        if grounded:
            out.append(f"<|ref|>{b['kind']}<|/ref|><|det|>[{box999(b['bbox'])}]<|/det|>\n{md}")
        else:
            out.append(md)
    if grounded:
        out.append(f"<|ref|>footer<|/ref|><|det|>[{box999(p.footer['bbox'])}]<|/det|>\n{p.footer['text']}")
    return "\n\n".join(out) + "\n"


def sentence_from(text, rng, zh, min_len=25, max_len=80):
    if zh:
        n = min(len(text), rng.randint(8, 20))
        i = rng.randrange(max(1, len(text) - n + 1))
        return text[i:i + n].strip()
    w = text.split()
    if len(w) < 4:
        return text
    n = min(len(w), rng.randint(5, 12))
    i = rng.randrange(max(1, len(w) - n + 1))
    s = " ".join(w[i:i + n])
    return s[:max_len]


def make_tests(p, name, rng):
    tests = []
    base = os.path.splitext(name)[0]

    def add(t):
        t.update({"pdf": name, "page": 1, "id": f"{base}_{len(tests):02d}"})
        tests.append(t)

    paras = [b for b in p.blocks if b["kind"] in ("paragraph", "title", "heading")]
    for b in rng.sample(paras, min(3, len(paras))):
        add({"type": "present", "text": sentence_from(b["text"], rng, p.zh), "max_diffs": 0})
    add({"type": "absent", "text": p.header["text"], "max_diffs": 0})
    add({"type": "absent", "text": p.footer["text"], "max_diffs": 0})
    text_blocks = [b for b in p.blocks if b["kind"] in ("paragraph", "heading", "title", "list")]
    if len(text_blocks) >= 2:
        i, j = sorted(rng.sample(range(len(text_blocks)), 2))
        add({"type": "order", "before": sentence_from(text_blocks[i]["text"].split("\n")[0], rng, p.zh),
             "after": sentence_from(text_blocks[j]["text"].split("\n")[0], rng, p.zh), "max_diffs": 0})
    for b in p.blocks:
        if b["kind"] == "table":
            g = b["grid"]
            cands = [(r, c) for r in range(1, len(g)) for c in range(1, len(g[0])) if g[r][c] is not None
                     and g[r][c - 1] is not None]
            if cands:
                r, c = rng.choice(cands)
                t = {"type": "table", "cell": g[r][c], "left": g[r][c - 1]}
                if g[0][c] is not None:
                    t["top_heading"] = g[0][c]
                add(t)
        elif b["kind"] == "equation":
            add({"type": "math", "math": b["latex"]})
    return tests


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--assets", default=".dev/ocr")
    ap.add_argument("--held-out", action="store_true", help="use the held-out prose split (evaluation pages)")
    ap.add_argument("--zh", type=float, default=0.2, help="fraction of Chinese pages")
    ap.add_argument("--degraded", type=float, default=0.5, help="fraction of degraded pages")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    src = TextSource(os.path.join(a.assets, "corpus")).split(held_out=a.held_out)
    fonts = Fonts(os.path.join(a.assets, "fonts"))
    os.makedirs(os.path.join(a.out, "pages"), exist_ok=True)
    all_tests = []
    for i in range(a.n):
        zh = rng.random() < a.zh
        p = make_page(rng, src, fonts, zh)
        degraded = rng.random() < a.degraded
        arr = np.asarray(p.img)
        if degraded:
            arr = degrade_image(arr, rng, strength=0.8)
        name = f"page-{a.seed:03d}-{i:05d}.png"
        Image.fromarray(arr).save(os.path.join(a.out, "pages", name))
        base = os.path.join(a.out, "pages", os.path.splitext(name)[0])
        open(base + ".md", "w").write(to_markdown(p))
        open(base + ".grounded.md", "w").write(to_markdown(p, grounded=True))
        json.dump({"image": name, "width": PAGE_W, "height": PAGE_H, "language": "zh" if zh else "en",
                   "degraded": degraded, "header": p.header, "footer": p.footer, "blocks": p.blocks},
                  open(base + ".json", "w"), ensure_ascii=False)
        all_tests += make_tests(p, name, rng)
    with open(os.path.join(a.out, "dataset.jsonl"), "w") as f:
        for t in all_tests:
            f.write(json.dumps(t, ensure_ascii=False) + "\n")
    print(f"{a.n} pages, {len(all_tests)} tests -> {a.out}")


if __name__ == "__main__":
    main()
