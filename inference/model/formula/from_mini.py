"""Warm start for folio-ocr-math: folio-ocr-mini's trained weights, read back from its committed ONNX files.

The vision encoder (it already reads glyphs) and the decoder blocks (they already attend to the visual
tokens) are taken as they are; the token embeddings and LM head of the new LaTeX vocabulary start from
the mini's rows for the same byte-level strings (a new merge: the mean of the rows of its pieces under the
mini's tokenizer). The draft head is not taken: it is trained last, on the frozen math model.

    python3 inference/model/formula/from_mini.py --mini inference/model/weights/folio-ocr-mini \
        --tokenizer .dev/math/tokenizer.json --out .dev/math/init   # then train_math.py --resume .dev/math/init
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from tokenizers import Tokenizer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from folio_ocr.model import FolioConfig, FolioOCR  # noqa: E402


def initializers(path):
    m = onnx.load(path)  # external data (weights.bin) resolves beside the file
    return {i.name.replace("__fp16", ""): numpy_helper.to_array(i).astype(np.float32) for i in m.graph.initializer}, m


def vision_state(path):
    """The vision encoder's state dict from vision.onnx: named tensors as they are, the anonymous ones by the
    node that reads them (the exporter folded GroupNorm's affine, the position sum and transposed MatMuls)."""
    w, m = initializers(path)
    st = {k[len("m.vision."):]: v for k, v in w.items() if k.startswith("m.vision.")}
    reader = {}
    for n in m.graph.node:
        for x in n.input:
            if x.endswith("__cast") and x.startswith("onnx::"):
                reader[x[:-len("__cast")]] = n
    by_node = {}
    for n in m.graph.node:
        for x in n.input:
            if x.startswith("onnx::") and not x.endswith("__cast"):
                by_node[x] = n.name
    # the Cast's output feeds the real consumer: follow names of the form onnx::X
    for name, arr in w.items():
        if not name.startswith("onnx::"):
            continue
        node = by_node.get(name, "")
        if "/local/local." in node and "/norm/" in node:
            i = node.split("/local/local.")[1].split("/")[0]
            st[f"local.{i}.norm.{'weight' if node.endswith('Mul') else 'bias'}"] = arr.reshape(-1)
        elif node == "/vision/Add":
            st["pos"] = arr
        elif node.endswith("/MatMul"):
            mod = node[len("/vision/"):-len("/MatMul")].replace("/", ".")
            st[f"{mod}.weight"] = arr.T
        elif "Expand" in name:
            st["image_newline"] = arr.reshape(-1)
    pos = st.pop("pos")
    return st, pos


def load_mini(mini_dir, c: FolioConfig):
    model = FolioOCR(c)
    vis, pos = vision_state(os.path.join(mini_dir, "vision.onnx"))
    gh, gw = c.grid
    P = torch.from_numpy(pos).view(gh, gw, c.hidden)
    vis["col_embed"] = P[0].numpy()
    vis["row_embed"] = (P[:, 0] - P[0, 0]).numpy()
    missing = model.vision.load_state_dict({k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in vis.items()}, strict=True)
    dec, _ = initializers(os.path.join(mini_dir, "decoder_step.onnx"))
    st = {}
    for k, v in dec.items():
        if k.startswith("layers.") or k == "norm.weight":
            st[k] = torch.from_numpy(np.ascontiguousarray(v.T if v.ndim == 2 else v))
    model.load_state_dict(st, strict=False)
    emb, _ = initializers(os.path.join(mini_dir, "embed_tokens.onnx"))
    E = next(v for v in emb.values() if v.ndim == 2)
    return model, torch.from_numpy(E), torch.from_numpy(np.ascontiguousarray(dec["lm_head.weight"].T)), missing


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mini", default="inference/model/weights/folio-ocr-mini")
    ap.add_argument("--tokenizer", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    sys.path.insert(0, os.path.dirname(HERE))
    from train import save_ckpt
    cfg = json.load(open(os.path.join(a.mini, "folio-model.json")))["config"]
    tok = Tokenizer.from_file(a.tokenizer)
    old_tok = Tokenizer.from_file(os.path.join(a.mini, "tokenizer.json"))
    cm = FolioConfig.from_dict(cfg)
    mini, E, LM, _ = load_mini(a.mini, cm)
    # check the vision encoder against onnxruntime
    import onnxruntime as ort
    x = torch.randn(2, 3, cm.view_h, cm.view_w)
    ref = ort.InferenceSession(os.path.join(a.mini, "vision.onnx")).run(None, {"pixel_values": x.numpy()})[0]
    with torch.no_grad():
        got = mini.vision(x).numpy()
    print("vision max |torch - onnxruntime|", float(np.abs(got - ref).max()))
    assert np.abs(got - ref).max() < 1e-2
    c = FolioConfig.from_dict({**cfg, "vocab": tok.get_vocab_size()})
    model = FolioOCR(c)
    sd = {k: v for k, v in mini.state_dict().items() if not k.startswith(("embed_tokens", "lm_head"))}
    model.load_state_dict(sd, strict=False)
    E2 = model.embed_tokens.weight.data
    L2 = model.lm_head.weight.data
    same = mean = 0
    inv = {v: k for k, v in tok.get_vocab().items()}
    for i in range(c.vocab):
        s = inv[i]
        j = old_tok.token_to_id(s)
        if j is not None:
            E2[i], L2[i] = E[j], LM[j]
            same += 1
            continue
        text = tok.decode([i], skip_special_tokens=False)
        ids = old_tok.encode(text).ids if text else []
        if ids:
            E2[i], L2[i] = E[ids].mean(0), LM[ids].mean(0)
            mean += 1
    print(f"vocab {c.vocab}: {same} rows copied, {mean} as means of the mini's pieces")
    meta = {"step": 0, "elapsed": 0.0, "stage": 0, "log": [], "evals": [], "mtp_log": [], "seed_runs": 0,
            "config": c.to_dict(), "init": "folio-ocr-mini (vision, decoder blocks, final norm; embeddings mapped)"}
    os.makedirs(a.out, exist_ok=True)
    print("parts", save_ckpt(model, meta, a.out))


if __name__ == "__main__":
    main()
