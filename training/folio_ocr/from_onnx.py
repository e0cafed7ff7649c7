"""A FolioOCR model rebuilt from an exported model folder (folio-model.json + ONNX files), weights as shipped.

The committed folders are the weights that survive between GPU sessions (the checkpoints do not), so
references (`bench/decode/torch_ref.py`), evaluations and warm starts read them back from here. Named
tensors are taken by name; the exporter's anonymous ones by the node that reads them (GroupNorm's folded
affine, the summed row/column position table, transposed MatMul weights). The text networks come from
`decoder_step.onnx` / `embed_tokens.onnx` (named, [in, out]); the draft head is not read back (it is
re-trained on the frozen model, see train_math.py), so a rebuilt model decodes greedily.

    model, config = load_folio_onnx("inference/models/folio-ocr-math")
"""
from __future__ import annotations

import json
import os

import numpy as np
import onnx
import torch
from onnx import numpy_helper

from .model import FolioConfig, FolioOCR


def initializers(path):
    m = onnx.load(path)  # external data (weights.bin) resolves beside the file
    return {i.name.replace("__fp16", ""): numpy_helper.to_array(i).astype(np.float32) for i in m.graph.initializer}, m


def vision_state(path, c: FolioConfig):
    """The vision encoder's state dict from vision.onnx."""
    w, m = initializers(path)
    st = {k[len("m.vision."):]: v for k, v in w.items() if k.startswith("m.vision.")}
    consumer = {}  # the Cast of each fp16 tensor outputs its original name, read by the real node
    for n in m.graph.node:
        for x in n.input:
            if x.startswith("onnx::") and n.op_type != "Cast":
                consumer[x] = n.name
    for name, arr in w.items():
        if not name.startswith("onnx::"):
            continue
        where = consumer.get(name, "")
        if "/local/local." in where and "/norm/" in where:
            i = where.split("/local/local.")[1].split("/")[0]
            st[f"local.{i}.norm.{'weight' if where.endswith('Mul') else 'bias'}"] = arr.reshape(-1)
        elif where == "/vision/Add":
            st["pos"] = arr
        elif where.endswith("/MatMul"):
            st[f"{where[len('/vision/'):-len('/MatMul')].replace('/', '.')}.weight"] = arr.T
        elif "Expand" in name:
            st["image_newline"] = arr.reshape(-1)
    gh, gw = c.grid
    P = st.pop("pos").reshape(gh, gw, c.hidden)
    st["col_embed"] = P[0]
    st["row_embed"] = P[:, 0] - P[0, 0]  # the sum row + col is what the graph holds; this split reproduces it
    return {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in st.items()}


def load_folio_onnx(model_dir):
    """(FolioOCR with the folder's vision, embeddings, decoder, final norm and LM head, config dict)."""
    meta = json.load(open(os.path.join(model_dir, "folio-model.json")))
    c = FolioConfig.from_dict(meta["config"])
    model = FolioOCR(c)
    model.vision.load_state_dict(vision_state(os.path.join(model_dir, "vision.onnx"), c), strict=True)
    dec, _ = initializers(os.path.join(model_dir, "decoder_step.onnx"))
    st = {k: torch.from_numpy(np.ascontiguousarray(v.T if v.ndim == 2 else v)) for k, v in dec.items()
          if k.startswith(("layers.", "norm.", "lm_head."))}
    emb, _ = initializers(os.path.join(model_dir, "embed_tokens.onnx"))
    st["embed_tokens.weight"] = torch.from_numpy(next(v for v in emb.values() if v.ndim == 2))
    missing, unexpected = model.load_state_dict(st, strict=False)
    assert not unexpected, unexpected
    assert all(k.startswith(("vision.", "enorm", "hnorm", "eh_proj", "mtp_block")) for k in missing), missing
    return model.eval(), meta
