"""Exact match (canonical spelling) of an exported folio-ocr-math folder on a held-out list, by kind: the
committed weights' figure on the real TeX Live formulas before any training on them, and the same views as
`train_math.py`'s `tex_clean` eval (same shuffle and seed).

    python3 training/formula/eval_list.py --model inference/models/folio-ocr-math --list tex-heldout.tsv --n 256
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import sys

import numpy as np
import torch
from tokenizers import Tokenizer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from folio_ocr import decode as D  # noqa: E402
from folio_ocr.from_onnx import load_folio_onnx  # noqa: E402
from latex import canonical  # noqa: E402
from render import render_view  # noqa: E402
from folio_ocr.train_ops import to_pixels  # noqa: E402

DATA = os.path.join(HERE, "data")


@torch.no_grad()
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="inference/models/folio-ocr-math")
    ap.add_argument("--list", default="tex-heldout.tsv")
    ap.add_argument("--n", type=int, default=256)
    ap.add_argument("--seed", type=int, default=4244)
    ap.add_argument("--batch", type=int, default=32)
    a = ap.parse_args()
    torch.set_num_threads(max(1, torch.get_num_threads()))
    model, meta = load_folio_onnx(a.model)
    tok = Tokenizer.from_file(os.path.join(a.model, "tokenizer.json"))
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(DATA, a.list), encoding="utf-8")][1:]
    kind = {r[0]: (r[1] if len(r) > 1 else "real") for r in rows}
    forms = [r[0] for r in rows]
    random.Random(a.seed).shuffle(forms)  # as train_math.py's tex eval set
    rng = random.Random(a.seed)
    views = []
    for s in forms[:a.n]:
        v = render_view(s, rng, model.c.view_h, model.c.view_w)
        if v is not None:
            views.append((s, v))
    prompt, image_id, eos = meta["prompt"]["input_ids"], meta["special_tokens"]["image"], meta["special_tokens"]["eos"]
    by = collections.defaultdict(lambda: [0, 0])
    examples = []
    for i in range(0, len(views), a.batch):
        chunk = views[i:i + a.batch]
        px = to_pixels(torch.from_numpy(np.stack([v for _, v in chunk])).float().unsqueeze(1))
        for (s, _), ids in zip(chunk, D.greedy(model, px, prompt, image_id, eos, max_new=96)):
            out = canonical(tok.decode([t for t in ids if t != eos]))
            ok = out == s
            by[kind[s]][0] += ok
            by[kind[s]][1] += 1
            if not ok and len(examples) < 12:
                examples.append({"truth": s, "read": out})
    n = sum(v[1] for v in by.values())
    rep = {"model": a.model, "list": a.list, "n": n, "exact": round(sum(v[0] for v in by.values()) / max(1, n), 4),
           "by_kind": {k: f"{v[0]}/{v[1]}" for k, v in sorted(by.items(), key=lambda kv: -kv[1][1])}, "misses": examples}
    print(json.dumps(rep, indent=1))


if __name__ == "__main__":
    main()
