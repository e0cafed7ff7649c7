"""Read held-out synthetic pages with the block reader and score them (CER and the pages' own unit tests).

    .venv/bin/python training/synth/generate.py --out .cache/synth-eval --n 12 --seed 77 --held-out
    .venv/bin/python training/eval_pages.py --pages .cache/synth-eval --ckpt .cache/ocr-run3

folio-ocr-mini reads text blocks, not whole pages: the page's text blocks (title, headings, paragraphs,
lists) are cut into groups of up to 3 lines using the generator's layout boxes (standing in for a
layout detector). A group that fits a 128x512 view at its own scale is pasted on one view; a wider one is read
line by line, and a line wider than the view is cut at word gaps into pieces that fit, so text keeps the
size the model was trained on instead of being shrunk (shrinking 18 px text to ~10 px doubled the CER on
degraded pages). Views are read greedily; the page Markdown is assembled in reading order. Tables and formulas are not read by this
model (it was never trained on them), so their tests fail by construction. CER is over the text blocks.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np
import torch
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "synth"))
from block_reader import load_reader  # noqa: E402
from folio_ocr import preprocess as pp  # noqa: E402
from folio_ocr.train_ops import cer  # noqa: E402
from checks import pass_rate  # noqa: E402


def line_groups(lines, max_lines=3, max_h=118):
    groups, cur = [], []
    for l in lines:
        if cur and (len(cur) >= max_lines or l["bbox"][3] - cur[0]["bbox"][1] + 8 > max_h):
            groups.append(cur)
            cur = []
        cur.append(l)
    if cur:
        groups.append(cur)
    return groups


def group_box(page, group):
    x1 = max(0, min(l["bbox"][0] for l in group) - 6)
    y1 = max(0, min(l["bbox"][1] for l in group) - 6)
    x2 = min(page.shape[1], max(l["bbox"][2] for l in group) + 6)
    y2 = min(page.shape[0], max(l["bbox"][3] for l in group) + 6)
    return x1, y1, x2, y2


def word_cuts(crop, limit):
    """x positions that cut a line crop into pieces of at most `limit` px, each at the middle of a blank
    column run (a word gap); a piece without any gap is cut at the limit."""
    bg = int(np.median(crop))
    ink = (crop < bg - 60).sum(axis=0) <= 0
    gaps, x = [], 0
    while x < len(ink):
        if ink[x]:
            e = x
            while e < len(ink) and ink[e]:
                e += 1
            if e - x >= 3:
                gaps.append((x + e) // 2)
            x = e
        else:
            x += 1
    cuts, start = [], 0
    while crop.shape[1] - start > limit:
        inside = [g for g in gaps if start < g <= start + limit]
        cut = inside[-1] if inside else start + limit
        cuts.append(cut)
        start = cut
    return [0] + cuts + [crop.shape[1]]


def views_of_group(page, group, vh, vw):
    """The views that read one line group, in reading order, and whether pieces of one line follow."""
    x1, y1, x2, y2 = group_box(page, group)
    if x2 - x1 <= vw - 12 and y2 - y1 <= vh - 4:
        return [(crop_view(page, (x1, y1, x2, y2), vh, vw), False)]
    out = []
    for line in group:
        lx1, ly1, lx2, ly2 = group_box(page, [line])
        crop = page[ly1:ly2, lx1:lx2]
        xs = word_cuts(crop, vw - 12)
        for i in range(len(xs) - 1):
            out.append((crop_view(page, (lx1 + xs[i], ly1, lx1 + xs[i + 1], ly2), vh, vw), i > 0))
    return out


def crop_view(page, box, vh, vw):
    x1, y1, x2, y2 = box
    crop = page[y1:y2, x1:x2]
    h, w = crop.shape
    if h > vh - 4 or w > vw - 12:
        crop = pp.fit_view(crop, vh - 4, vw - 12)
        ys, xs = np.where(crop < 255)  # trim the white letterbox
        crop = crop[: (ys.max() + 1 if len(ys) else 1), : (xs.max() + 1 if len(xs) else 1)]
        h, w = crop.shape
    bg = int(np.median(page[y1:y2, x1:x2]))
    view = np.full((vh, vw), bg, np.uint8)
    oy = (vh - h) // 2
    view[oy:oy + h, 8:8 + w] = crop
    return view


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", default=".cache/synth-eval")
    ap.add_argument("--ckpt", default=".cache/ocr-run3")
    ap.add_argument("--tokenizer", default=".dev/ocr/tokenizer.json")
    ap.add_argument("--out", default=None)
    ap.add_argument("--max-new", type=int, default=120)
    a = ap.parse_args()
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    reader = load_reader(a.ckpt, a.tokenizer)
    c = reader.model.c
    tests = [json.loads(l) for l in open(os.path.join(a.pages, "dataset.jsonl"))]
    metas = sorted(f for f in os.listdir(os.path.join(a.pages, "pages")) if f.endswith(".json"))
    md_pred, md_ref = {}, {}
    cer_refs = {"clean": ([], []), "degraded": ([], [])}
    for mf in metas:
        meta = json.load(open(os.path.join(a.pages, "pages", mf)))
        page = pp.to_grey(np.asarray(Image.open(os.path.join(a.pages, "pages", meta["image"]))))
        views, owners, joins = [], [], []
        for bi, b in enumerate(meta["blocks"]):
            if b["kind"] in ("title", "heading", "paragraph", "list") and b["lines"]:
                for g in line_groups(b["lines"]):
                    for view, continues in views_of_group(page, g, c.view_h, c.view_w):
                        views.append(view)
                        owners.append(bi)
                        joins.append(continues)
        texts = reader.read(views, a.max_new)
        zh = meta["language"] == "zh"
        out_blocks = []
        for bi, b in enumerate(meta["blocks"]):
            parts = []
            for t, o, j in zip(texts, owners, joins):
                if o == bi:
                    if j and parts:  # the next piece of the same line
                        parts[-1] += ("" if zh else " ") + t
                    else:
                        parts.append(t)
            if b["kind"] in ("table", "equation"):
                continue
            if b["kind"] == "list":
                body = "\n".join(parts)
            else:
                joined = ("" if zh else " ").join(p.replace("\n", "" if zh else " ") for p in parts)
                body = joined.lstrip("# ").strip()
                if b["kind"] in ("title", "heading"):
                    body = ("# " if b["kind"] == "title" else "## ") + body
            out_blocks.append(body)
            ref = b["markdown"]
            key = "degraded" if meta["degraded"] else "clean"
            cer_refs[key][0].append(body)
            cer_refs[key][1].append(ref)
        md_pred[meta["image"]] = "\n\n".join(out_blocks) + "\n"
        md_ref[meta["image"]] = open(os.path.join(a.pages, "pages", mf.replace(".json", ".md"))).read()
        print(meta["image"], meta["language"], "degraded" if meta["degraded"] else "clean", len(views), "views",
              flush=True)
    total, by_type, _ = pass_rate(md_pred, tests)
    ref_total, ref_by_type, _ = pass_rate(md_ref, tests)
    res = {"pages": len(metas), "tests": len(tests),
           "unit_test_pass_rate": total, "by_type": by_type,
           "ground_truth_markdown_pass_rate": ref_total,
           "cer_text_blocks_clean": cer(*cer_refs["clean"]) if cer_refs["clean"][1] else None,
           "cer_text_blocks_degraded": cer(*cer_refs["degraded"]) if cer_refs["degraded"][1] else None,
           "n_blocks_clean": len(cer_refs["clean"][1]), "n_blocks_degraded": len(cer_refs["degraded"][1])}
    for lang in ("en", "zh"):
        pass
    print(json.dumps(res, indent=1))
    out = a.out or os.path.join(a.pages, "eval.json")
    json.dump({"summary": res, "predictions": md_pred}, open(out, "w"), indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
