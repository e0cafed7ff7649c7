"""Export a trained checkpoint to the Folio model contract and check it with onnxruntime.

Writes the contract graphs (vision, embed_tokens, decoder, mtp), the optional step graphs
(decoder_step, mtp_step: the CPU fast path, see folio_ocr/onnx_steps.py) and weights.bin, which holds
the text networks' weights once for all of them. Reproducible: the same checkpoint gives the same files.

    .venv/bin/python training/export_trained.py --ckpt .cache/ocr-run3 \
        --tokenizer .dev/ocr/tokenizer.json --out inference/models/folio-ocr-mini
    .venv/bin/python training/check_onnx.py --model inference/models/folio-ocr-mini \
        --ckpt .cache/ocr-run3 --assets .dev/ocr
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import torch
from tokenizers import Tokenizer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from folio_ocr.model import FolioConfig, FolioOCR, param_groups  # noqa: E402
from folio_ocr.export import export_model, round_weights_fp16  # noqa: E402
from folio_ocr.train_ops import load_ckpt  # noqa: E402


# What each model's folio-model.json says about itself (inference/onnx/README.md: what a view holds).
MODELS = {
    "folio-ocr-mini": {
        "input": "text-block",
        "scope": "text-block reader: one view = one block of 1-4 text lines (128x512 px); pages are read "
                 "block by block (block boxes from a layout step), see training/README.md",
        "summary": "synthetic text blocks rendered with PIL from Debian prose (licence and copyright texts; Chinese "
                   "manpages-zh), fonts DejaVu, Liberation, WenQuanYi Micro Hei; curriculum 1 line -> 1-2 lines -> "
                   "1-4 lines with headings/lists; 50% scan-like degradation (skew, blur, resolution loss, noise, "
                   "speckles, contrast)",
    },
    "folio-ocr-lines": {
        "input": "text-block",
        "scope": "line reader: one view = one detected text line made by the engine's lineViews (ink 26 px in a 36 px "
                 "slot, pieces of a long line stacked, up to 3 per view, 128x512 px) -> its text, one output line per "
                 "piece; see inference/models/folio-ocr-lines/MODEL-CARD.md",
        "summary": "lines of real text (npm READMEs, their JavaScript sources, Debian documentation; held-out lines "
                   "split by document) set at 14-52 px em in serif, sans, monospaced and typewriter fonts (DejaVu, "
                   "Liberation, Latin Modern, URW Courier/Charter/Utopia), scan-degraded at that resolution (skew, "
                   "blur, ink spread, low contrast, bleed-through, noise, binarisation, JPEG), cut and stacked as "
                   "lineViews does; 2% views without text (target empty); warm start from folio-ocr-mini",
        "max_new_tokens": 96,
    },
    "folio-ocr-math": {
        "input": "page",
        "scope": "formula reader: one view = one cropped formula (128x512 px, squeezed in top-left like a page) -> "
                 "canonical LaTeX without delimiters; see inference/models/folio-ocr-math/MODEL-CARD.md",
        "summary": "synthetic formulas from a seeded LaTeX grammar (fractions, scripts, roots, big operators with "
                   "limits, functions, Greek, relations, accents, fonts, \\left-\\right, binomials, matrices, "
                   "cases, aligned) plus KaTeX's own test expressions, each KaTeX-checked, typeset by matplotlib "
                   "mathtext (5 font sets, 14-32 px) with a compositor for environments; 50% scan-like degradation; "
                   "warm start from folio-ocr-mini",
        "max_new_tokens": 128,
    },
}


def load_model(ckpt):
    state, meta = load_ckpt(ckpt)
    c = FolioConfig.from_dict(meta["config"])
    m = FolioOCR(c)
    m.load_state_dict({k: v.float() for k, v in state.items()})
    return m.eval(), meta


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--tokenizer", default=".dev/ocr/tokenizer.json")
    ap.add_argument("--out", default="inference/models/folio-ocr-mini")
    ap.add_argument("--results", default=None, help="results.json of the run to embed in folio-model.json")
    ap.add_argument("--model", choices=sorted(MODELS), default="folio-ocr-mini", help="which model card's fields to write")
    ap.add_argument("--no-steps", action="store_true",
                    help="contract graphs only (no decoder_step/mtp_step, weights inside each file)")
    a = ap.parse_args()
    model, meta = load_model(a.ckpt)
    round_weights_fp16(model)
    tok = Tokenizer.from_file(a.tokenizer)
    card = MODELS[a.model]
    extra = {"input": card["input"],
             "params": param_groups(model),
             "training": {"main_steps": meta["step"], "main_seconds": round(meta["elapsed"], 1),
                          "mtp_steps": meta.get("mtp_steps", 0), "hardware": "1x NVIDIA H200",
                          "last_eval": meta["evals"][-1] if meta.get("evals") else None},
             "scope": card["scope"]}
    if "init" in meta:
        extra["training"]["init"] = meta["init"]
    if card.get("max_new_tokens"):
        extra["generation"] = {"max_new_tokens": card["max_new_tokens"], "stop": ["eos"], "greedy": True}
    if a.results and os.path.exists(a.results):
        extra["measured"] = json.load(open(a.results)).get("bench")
    export_model(model, tok, a.out, fp16_weights=True, name=a.model, version="0.1.0", step_graphs=not a.no_steps,
                 training_summary=card["summary"], extra_meta=extra)
    tot = 0
    for f in sorted(os.listdir(a.out)):
        sz = os.path.getsize(os.path.join(a.out, f))
        tot += sz
        print(f"{f:24s} {sz / 1e6:7.2f} MB")
    print(f"total {tot / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
