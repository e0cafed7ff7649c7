"""Warm start of folio-ocr-math from an exported folio-ocr folder (folio-ocr-mini, or folio-ocr-math itself to
resume: the committed folder is what survives between GPU sessions).

The vision encoder (it already reads glyphs) and the decoder blocks (they already attend to the visual
tokens) are taken as they are; the token embeddings and LM head of the LaTeX vocabulary start from the
source's rows for the same byte-level strings (a string the source lacks: the mean of the rows of its pieces
under the source's tokenizer; with the source's own tokenizer every row is copied). The draft head is not
taken: it is trained last, on the frozen model (train_math.py --mtp-seconds).

    python3 training/formula/from_mini.py --mini inference/models/folio-ocr-mini \
        --tokenizer .dev/math/tokenizer.json --out /tmp/math/init
    python3 training/formula/from_mini.py --mini inference/models/folio-ocr-math \
        --tokenizer inference/models/folio-ocr-math/tokenizer.json --out /tmp/math/init   # resume
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np
import torch
from tokenizers import Tokenizer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from folio_ocr.model import FolioConfig, FolioOCR  # noqa: E402
from folio_ocr.from_onnx import load_folio_onnx  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mini", default="inference/models/folio-ocr-mini")
    ap.add_argument("--tokenizer", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    from folio_ocr.train_ops import save_ckpt
    import onnxruntime as ort
    tok = Tokenizer.from_file(a.tokenizer)
    old_tok = Tokenizer.from_file(os.path.join(a.mini, "tokenizer.json"))
    src, meta_json = load_folio_onnx(a.mini)
    cm = src.c
    x = torch.randn(2, 3, cm.view_h, cm.view_w)
    ref = ort.InferenceSession(os.path.join(a.mini, "vision.onnx")).run(None, {"pixel_values": x.numpy()})[0]
    with torch.no_grad():
        got = src.vision(x).numpy()
    print("vision max |torch - onnxruntime|", float(np.abs(got - ref).max()))
    assert np.abs(got - ref).max() < 1e-2
    c = FolioConfig.from_dict({**meta_json["config"], "vocab": tok.get_vocab_size()})
    model = FolioOCR(c)
    model.load_state_dict({k: v for k, v in src.state_dict().items() if not k.startswith(("embed_tokens", "lm_head"))}, strict=False)
    E, LM = src.embed_tokens.weight.data, src.lm_head.weight.data
    E2, L2 = model.embed_tokens.weight.data, model.lm_head.weight.data
    same = mean = 0
    inv = {v: k for k, v in tok.get_vocab().items()}
    for i in range(c.vocab):
        j = old_tok.token_to_id(inv[i])
        if j is not None:
            E2[i], L2[i] = E[j], LM[j]
            same += 1
            continue
        text = tok.decode([i], skip_special_tokens=False)
        ids = old_tok.encode(text).ids if text else []
        if ids:
            E2[i], L2[i] = E[ids].mean(0), LM[ids].mean(0)
            mean += 1
    print(f"vocab {c.vocab}: {same} rows copied, {mean} as means of the source's pieces")
    training = meta_json.get("training", {})
    meta = {"step": training.get("main_steps", 0) if same == c.vocab else 0, "elapsed": 0.0, "stage": 0, "log": [], "evals": [],
            "mtp_log": [], "seed_runs": 0, "config": c.to_dict(),
            "init": f"{meta_json.get('name')} (vision, decoder blocks, final norm; embeddings {'copied' if same == c.vocab else 'mapped'})"}
    os.makedirs(a.out, exist_ok=True)
    print("parts", save_ckpt(model, meta, a.out))


if __name__ == "__main__":
    main()
