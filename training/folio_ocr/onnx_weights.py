"""Store the weights of several ONNX files once, in one external-data file they all point into.

The step graphs (onnx_steps.py) compute with the very tensors `decoder.onnx`, `mtp.onnx` and
`embed_tokens.onnx` hold (same fp16 bytes, same [in, out] layout), and `mtp.onnx` repeats the LM
head of `decoder.onnx`. Each distinct tensor is written once to `weights.bin`; the graphs keep
references (ONNX external data: location, offset, length), which onnxruntime resolves against the
model's folder. Without this the optional graphs would double the folder's size.
"""
from __future__ import annotations

import hashlib
import os

import onnx
from onnx import numpy_helper
from onnx.external_data_helper import set_external_data

ALIGN = 64


def _graphs(g):
    yield g
    for node in g.node:
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                yield from _graphs(attr.g)
            for sub in attr.graphs:
                yield from _graphs(sub)


def share_weights(out_dir: str, files, data_file: str = "weights.bin", min_bytes: int = 4096) -> dict:
    """Move every initializer of `files` of at least `min_bytes` into `data_file`, each distinct one once."""
    seen: dict = {}
    stats = {"tensors": 0, "shared": 0, "bytes": 0}
    with open(os.path.join(out_dir, data_file), "wb") as data:
        for name in files:
            path = os.path.join(out_dir, name)
            model = onnx.load(path)
            for graph in _graphs(model.graph):
                for t in graph.initializer:
                    raw = numpy_helper.to_array(t).tobytes()
                    if len(raw) < min_bytes:
                        continue
                    key = hashlib.sha1(bytes([t.data_type]) + str(list(t.dims)).encode() + raw).hexdigest()
                    stats["tensors"] += 1
                    if key in seen:
                        stats["shared"] += 1
                    else:
                        data.write(b"\0" * (-data.tell() % ALIGN))
                        seen[key] = (data.tell(), len(raw))
                        data.write(raw)
                    offset, length = seen[key]
                    for field in ("float_data", "int32_data", "int64_data", "double_data", "uint64_data"):
                        t.ClearField(field)
                    t.raw_data = raw  # set_external_data wants it; cleared once the reference is in place
                    set_external_data(t, location=data_file, offset=offset, length=length)
                    t.ClearField("raw_data")
                    t.data_location = onnx.TensorProto.EXTERNAL
            onnx.save(model, path)
        stats["bytes"] = data.tell()
    return stats
