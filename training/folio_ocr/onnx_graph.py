"""A small ONNX graph builder for the hand-written step graphs (see onnx_steps.py).

Writing these graphs by hand rather than through torch.onnx.export keeps them to the ops the CPU needs
(no shape arithmetic per call, no expanded key/value heads) and lets the cache update be one ScatterND
at the rows' positions.
"""
from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
MS = "com.microsoft"


class Graph:
    """Nodes, initializers and value infos of one graph; `op` returns the output name(s)."""

    def __init__(self, name: str, fp16_weights: bool = True, parent: "Graph | None" = None):
        self.name = name
        self.fp16 = fp16_weights
        # A Loop body: weights and constants live in the outer graph and are read from its scope.
        self.parent = parent
        self.nodes, self.inits, self.inputs, self.outputs = [], [], [], []
        self._n = 0
        self._consts: dict = {}
        self._weights: dict = {}

    def _fresh(self, base: str) -> str:
        if self.parent is not None:
            return self.parent._fresh(base)
        self._n += 1
        return f"{base}_{self._n}"

    def op(self, op_type, inputs, outputs=1, domain=None, **attrs):
        outs = [self._fresh(op_type.lower()) for _ in range(outputs)] if isinstance(outputs, int) else list(outputs)
        self.nodes.append(helper.make_node(op_type, list(inputs), outs, name=self._fresh(op_type), domain=domain,
                                           **attrs))
        return outs[0] if len(outs) == 1 else outs

    def input(self, name, elem, shape):
        self.inputs.append(helper.make_tensor_value_info(name, elem, shape))
        return name

    def output(self, value, name, elem, shape):
        """Expose `value` as graph output `name` (renames the producing node's output, no Identity)."""
        for node in self.nodes:
            for i, o in enumerate(node.output):
                if o == value:
                    node.output[i] = name
            for i, x in enumerate(node.input):
                if x == value:
                    node.input[i] = name
        self.outputs.append(helper.make_tensor_value_info(name, elem, shape))
        return name

    def weight(self, key: str, array: np.ndarray) -> str:
        """A float weight: stored fp16 with a Cast to fp32 (folded at load), as export.halve_initializers does."""
        if self.parent is not None:
            return self.parent.weight(key, array)
        if key in self._weights:
            return self._weights[key]
        arr = np.ascontiguousarray(array, dtype=np.float32)
        if self.fp16 and arr.size >= 64:
            stored = numpy_helper.from_array(arr.astype(np.float16), key + "__fp16")
            self.inits.append(stored)
            out = self.op("Cast", [stored.name], [key], to=TensorProto.FLOAT)
        else:
            self.inits.append(numpy_helper.from_array(arr, key))
            out = key
        self._weights[key] = out
        return out

    def const(self, value, dtype=np.int64, name: str | None = None) -> str:
        if self.parent is not None:
            return self.parent.const(value, dtype, name)
        arr = np.asarray(value, dtype=dtype)
        key = (arr.dtype.str, arr.shape, arr.tobytes())
        if key not in self._consts:
            t = numpy_helper.from_array(arr, name or self._fresh("c"))
            self.inits.append(t)
            self._consts[key] = t.name
        return self._consts[key]

    def model(self, doc: str = ""):
        g = helper.make_graph(self.nodes, self.name, self.inputs, self.outputs, self.inits, doc_string=doc)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid(MS, 1)],
                              producer_name="folio-ocr export")
        m.ir_version = 8
        return m

    def body(self):
        """This graph as a Loop body (no initializers: those are in the outer graph)."""
        return helper.make_graph(self.nodes, self.name, self.inputs, self.outputs)
