"""The PyTorch reference for `folio bench decode` on a GPU: greedy decoding of the same views, batches and
budget as the TypeScript engine, on the same machine in the same run (../shared/guides/GPU.md).

    .venv/bin/python bench/decode/torch_ref.py --batch 1,32 --runs 5 --out bench/results/decode-torch.json
    .venv/bin/python bench/decode/torch_ref.py --model inference/models/folio-ocr-math --views bench/math/views/synthetic

The weights are the committed model folder's (`--model`, read back from its ONNX files by
training/folio_ocr/from_onnx.py), so a clone reproduces the comparison; `--ckpt DIR` takes a training
checkpoint instead.

Measured as the TS bench measures: the vision encoder is not timed (its features are computed once per
batch, before the clock starts); `ms` runs from the decoder's prefill to the last token, `decode_ms` from the
first token on. Numerics as exported: weights rounded to fp16, fp32 compute, TF32 off. A batch larger than
the views repeats them (view i of the batch is view i mod n), as the TS bench does. PyTorch's loop keeps a
batch until its last sequence ends; tokens count up to each sequence's EOS.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np
import torch
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "training"))
from block_reader import load_reader  # noqa: E402
from folio_ocr import decode as D  # noqa: E402
from folio_ocr import preprocess as pp  # noqa: E402


def load_views(folder, vh, vw):
    names = sorted(f for f in os.listdir(folder) if f.lower().endswith((".png", ".jpg", ".jpeg")))
    return names, np.concatenate([pp.preprocess(Image.open(os.path.join(folder, f)), vh, vw) for f in names])


class Precomputed(torch.nn.Module):
    """Stands in for the vision encoder: the features of this batch, computed before the clock starts."""

    def __init__(self, features):
        super().__init__()
        self.features = features

    def forward(self, _pixels):
        return self.features


def timed_greedy(reader, px, budget, dev):
    """One batch: (ids, ms from prefill to the end, ms of the decode phase)."""
    model = reader.model
    features = model.vision(px)
    encode = model.vision
    model.vision = Precomputed(features)  # not timed, as in the TS bench
    marks = []
    clock = lambda: (torch.cuda.synchronize(dev) if dev.type == "cuda" else None, marks.append(time.perf_counter()))  # noqa: E731
    try:
        clock()
        ids = D.greedy(model, px, reader.prompt, reader.image_id, reader.eos, max_new=budget, on_prefilled=clock)
        clock()
    finally:
        model.vision = encode
    return ids, (marks[2] - marks[0]) * 1e3, (marks[2] - marks[1]) * 1e3


def bench_batch(reader, pixels, batch, budget, runs, dev):
    n = len(pixels)
    order = [i % n for i in range(max(batch, n))]
    groups = [torch.from_numpy(pixels[order[i:i + batch]]).to(dev) for i in range(0, len(order), batch)]
    rows = []
    for run in range(runs + 1):  # the first is a warm-up
        ms = decode_ms = 0.0
        ids = []
        for px in groups:
            got, a, b = timed_greedy(reader, px, budget, dev)
            ids += got
            ms += a
            decode_ms += b
        if run > 0:
            rows.append((ms, decode_ms))
    tokens = sum(len(r) for r in ids)
    ms = statistics.median(r[0] for r in rows)
    decode_ms = statistics.median(r[1] for r in rows)
    return {"batch": batch, "sequences": len(order), "tokens": tokens, "runs": len(rows),
            "ms": ms, "decode_ms": decode_ms, "tokens_per_s": tokens / (ms / 1e3),
            "decode_tokens_per_s": (tokens - len(order)) / (decode_ms / 1e3),
            "times_ms": [round(r[0], 2) for r in rows], "lengths": [len(r) for r in ids[:n]]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default=None, help="a training checkpoint folder; default: the --model folder's weights")
    ap.add_argument("--model", default=os.path.join(ROOT, "inference", "models", "folio-ocr-mini"))
    ap.add_argument("--views", default=os.path.join(ROOT, "bench", "decode", "views"))
    ap.add_argument("--batch", default="1,32")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "decode-torch.json"))
    a = ap.parse_args()
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    config = json.load(open(os.path.join(a.model, "folio-model.json")))
    budget = config["generation"]["max_new_tokens"]
    reader = load_reader(a.ckpt or a.model, os.path.join(a.model, "tokenizer.json"))
    reader.model.to(dev)
    c = reader.model.c
    names, pixels = load_views(a.views, c.view_h, c.view_w)
    rows = []
    with torch.no_grad():
        for batch in (int(b) for b in a.batch.split(",")):
            rows.append(bench_batch(reader, pixels, batch, budget, a.runs, dev))
            print("TORCH", json.dumps(rows[-1]), flush=True)
    result = {"engine": f"PyTorch {torch.__version__}", "device": torch.cuda.get_device_name(0) if dev.type == "cuda" else "cpu",
              "precision": "fp32 compute, fp16-rounded weights, TF32 off", "views": names, "budget": budget,
              "measured": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "rows": rows}
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    json.dump(result, open(a.out, "w"), indent=1)


if __name__ == "__main__":
    main()
