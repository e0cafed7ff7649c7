"""olmOCR-Bench dev score of the block reader, for honesty (measurement only; never used for tuning).

    mkdir -p .cache/olm && for f in PDFS; do pdftoppm -r 150 -f 1 -l 1 -gray -png $f .cache/olm/NAME; done
    .venv/bin/python training/eval_olmocr.py --pngs .cache/olm --bench ../shared/data/olmocr-bench-dev

The model reads text views, not pages, and has no layout detector; this script uses a crude one
(binarise, horizontal smearing, connected components = text lines; lines wider than the view are cut
at blank gaps; reading order: full-width lines and the left half, then the right half). Tests use the
simplified semantics of synth/checks.py.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "synth"))
from block_reader import load_reader  # noqa: E402
from folio_ocr import preprocess as pp  # noqa: E402
from checks import pass_rate  # noqa: E402


def lines_of(grey):
    H, W = grey.shape
    ink = (grey < 150).astype(np.uint8)
    sm = cv2.dilate(ink, np.ones((3, 21), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(sm)
    boxes = []
    for i in range(1, n):
        x, y, w, h, a = stats[i]
        if 8 <= h <= 70 and w >= 10:
            boxes.append([x, y, x + w, y + h])
    return boxes


def chunks(grey, b, maxw=490):
    x1, y1, x2, y2 = b
    out = []
    while x2 - x1 > maxw:
        col = (grey[y1:y2, x1 + 250:x1 + maxw] < 150).sum(0)
        gaps = np.where(col == 0)[0]
        cut = x1 + 250 + (int(gaps[-1]) if len(gaps) else maxw - 250)
        out.append([x1, y1, cut, y2])
        x1 = cut
    out.append([x1, y1, x2, y2])
    return out


def order(boxes, W):
    def key(b):
        w = b[2] - b[0]
        cx = (b[0] + b[2]) / 2
        col = 0 if (w > 0.55 * W or cx < W / 2) else 1
        return (col, b[1], b[0])
    return sorted(boxes, key=key)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pngs", default=".cache/olm")
    ap.add_argument("--bench", default="../shared/data/olmocr-bench-dev")
    ap.add_argument("--ckpt", default=".cache/ocr-run3")
    ap.add_argument("--tokenizer", default=".dev/ocr/tokenizer.json")
    ap.add_argument("--max-views", type=int, default=90)
    ap.add_argument("--out", default="training/runs/folio-ocr-mini/olmocr_dev.json")
    a = ap.parse_args()
    reader = load_reader(a.ckpt, a.tokenizer)
    c = reader.model.c
    tests = [json.loads(l) for l in open(os.path.join(a.bench, "dataset.jsonl"))]
    preds = {}
    for pdf in sorted({t["pdf"] for t in tests}):
        png = os.path.join(a.pngs, pdf.replace("/", "_")[:-4] + "-1.png")
        grey = pp.to_grey(cv2.imread(png, cv2.IMREAD_GRAYSCALE))
        H, W = grey.shape
        segs = []
        for li, b in enumerate(order(lines_of(grey), W)):
            for ch in chunks(grey, b):
                segs.append((li, ch))
        segs = segs[: a.max_views]
        views = []
        for _, (x1, y1, x2, y2) in segs:
            crop = grey[max(0, y1 - 4):y2 + 4, max(0, x1 - 4):x2 + 4]
            if crop.shape[0] > 120 or crop.shape[1] > 500:
                crop = pp.fit_view(crop, 120, 500)
            v = np.full((c.view_h, c.view_w), 255, np.uint8)
            oy = (c.view_h - crop.shape[0]) // 2
            v[oy:oy + crop.shape[0], 8:8 + crop.shape[1]] = crop
            views.append(v)
        texts = [t.replace("\n", " ") for t in reader.read(views, max_new=80)]
        lines, last = [], None
        for (li, _), t in zip(segs, texts):
            if li == last:
                lines[-1] += " " + t
            else:
                lines.append(t)
            last = li
        preds[pdf] = "\n".join(lines)
        print(pdf, len(views), "views", flush=True)
    total, by_type, res = pass_rate(preds, tests)
    out = {"score": total, "by_type": by_type, "tests": len(tests), "passed": res, "predictions": preds,
           "note": "crude line detector + block reader; 150 dpi; simplified olmOCR test semantics"}
    json.dump(out, open(a.out, "w"), indent=1)
    print(json.dumps({"score": total, "by_type": by_type}))


if __name__ == "__main__":
    main()
