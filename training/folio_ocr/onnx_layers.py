"""Building blocks of the step graphs (onnx_steps.py): the FolioOCR weights as graph values, RoPE,
grouped-query attention over fixed-capacity caches, the SwiGLU MLP, a pre-norm block.

They follow folio_ocr/model.py op for op where the numerics matter (fp32 RMSNorm, RoPE tables from
the same fp32 products, attention scaled after the product, -1e9 for masked scores), so the graphs'
logits stay within rounding of PyTorch's and of decoder.onnx's.
"""
from __future__ import annotations

import numpy as np
import torch
from onnx import TensorProto

from .onnx_graph import MS, Graph

F32, I64, BOOL = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL
NEG = -1e9  # what model.attention fills masked scores with


def as_array(t: torch.Tensor) -> np.ndarray:
    return t.detach().float().cpu().numpy()


class Net:
    """Weights of a FolioOCR as graph values (transposed once, [in, out], like torch.onnx's MatMuls).

    `quant` is for the draft head only, whose proposals the fp32 decoder checks, so its rounding can
    cost acceptance but never changes an output token: `"int8"` (DynamicQuantizeMatMul: int8 weights
    per output column, activations quantized per call) or `(bits, block_size, accuracy_level)`
    (MatMulNBits, block-wise 4 or 8 bits).
    """

    def __init__(self, g: Graph, model, quant=None):
        self.g, self.m, self.c, self.quant = g, model, model.c, quant

    def lin(self, name: str) -> str:
        return self.g.weight(name, as_array(self.m.get_parameter(name)).T)

    def vec(self, name: str) -> str:
        return self.g.weight(name, as_array(self.m.get_parameter(name)))

    def mm(self, x: str, names) -> str:
        """x @ [W1ᵀ W2ᵀ …]: projections side by side (the weight Concat is folded when the session loads)."""
        names = [names] if isinstance(names, str) else list(names)
        if self.quant == "int8":
            return self.g.op("DynamicQuantizeMatMul", [x, *self._int8(names)], domain=MS)
        if self.quant is not None:
            return self.g.op("MatMulNBits", [x, *self._quantized(names)], domain=MS, **self._qattrs(names))
        w = self.lin(names[0]) if len(names) == 1 else self.g.op("Concat", [self.lin(n) for n in names], axis=1)
        return self.g.op("MatMul", [x, w])

    def _int8(self, names):
        """Symmetric int8 weights with a scale per output column (activations are quantized per call)."""
        w = np.concatenate([as_array(self.m.get_parameter(n)).T for n in names], axis=1)
        scale = np.maximum(np.abs(w).max(axis=0), 1e-12) / 127.0
        q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
        key = "+".join(names) + ".int8"
        return (self.g.const(q, np.int8, key), self.g.const(scale, np.float32, key + ".scale"),
                self.g.const(np.zeros(q.shape[1], np.int8), np.int8, key + ".zero_point"))

    def _qattrs(self, names):
        bits, block, level = self.quant
        K = as_array(self.m.get_parameter(names[0])).shape[1]
        N = sum(as_array(self.m.get_parameter(n)).shape[0] for n in names)
        return dict(K=K, N=N, bits=bits, block_size=block, **({"accuracy_level": level} if level else {}))

    def _quantized(self, names):
        from onnxruntime.capi._pybind_state import quantize_matmul_4bits, quantize_matmul_8bits
        bits, block, _ = self.quant
        w = np.ascontiguousarray(np.concatenate([as_array(self.m.get_parameter(n)).T for n in names], axis=1))
        K, N = w.shape
        kb = (K + block - 1) // block
        packed = np.zeros((N, kb, block * bits // 8), np.uint8)
        zp = np.zeros((N, (kb * bits + 7) // 8), np.uint8)
        scales = np.zeros((N, kb), np.float32)
        (quantize_matmul_4bits if bits == 4 else quantize_matmul_8bits)(packed, w, scales, zp, block, N, K, False)
        key = "+".join(names) + f".q{bits}b{block}"
        return (self.g.const(packed, np.uint8, key + ".packed"), self.g.const(scales, np.float32, key + ".scales"),
                self.g.const(zp, np.uint8, key + ".zero_points"))

    def rms(self, x: str, weight: str) -> str:
        return self.g.op("SimplifiedLayerNormalization", [x, self.vec(weight)], axis=-1, epsilon=self.c.norm_eps)

    def skip_rms(self, x: str, skip: str, weight: str):
        """(norm(x + skip), x + skip)."""
        out = self.g.op("SkipSimplifiedLayerNormalization", [x, skip, self.vec(weight)], outputs=4, domain=MS,
                        epsilon=self.c.norm_eps)
        return out[0], out[3]


def rope_tables(g: Graph, c):
    """cos, sin [max_pos, d/2] of positions × inverse frequencies, as model.rope_cos_sin computes them.

    Built from constants only, so onnxruntime folds them when the session loads: nothing to store.
    """
    d = c.head_dim
    inv = (1.0 / (c.rope_theta ** (torch.arange(0, d, 2, dtype=torch.float32) / d))).numpy()
    positions = g.op("Cast", [g.op("Range", [g.const(0), g.const(c.max_pos), g.const(1)])], to=F32)
    f = g.op("Mul", [g.op("Unsqueeze", [positions, g.const([1])]), g.const(inv, np.float32)])
    return g.op("Cos", [f]), g.op("Sin", [f])


def apply_rope(g: Graph, x: str, positions: str, tables) -> str:
    """RoPE (rotate-half layout) on x [B,S,n*d] at `positions` [B,S]: one contrib node for q and k together."""
    return g.op("RotaryEmbedding", [x, positions, *tables], domain=MS, interleaved=0)


def project_qkv(net: Net, prefix: str, xn: str, rope, one_row=False):
    """q [B,kv,rep*S,d] (grouped per KV head), k and v [B,kv,S,d], RoPE applied; rope = (positions, tables).

    `one_row` (S = 1, the draft's recursive steps): the head transposes are plain reshapes.
    """
    g, c = net.g, net.c
    a = f"{prefix}.self_attn"
    d, h, kv = c.head_dim, c.heads, c.kv_heads
    if net.quant is None:
        qkv = net.mm(xn, [f"{a}.q_proj.weight", f"{a}.k_proj.weight", f"{a}.v_proj.weight"])
        qk, v = g.op("Split", [qkv, g.const([(h + kv) * d, kv * d])], outputs=2, axis=-1)
        qk = g.op("Reshape", [apply_rope(g, qk, *rope), g.const([0, 0, h + kv, d])])
        q, k = g.op("Split", [qk, g.const([h, kv])], outputs=2, axis=2)
    else:
        # Quantized weights are stored per product: q and (k, v), as the draft's read and proposal use them.
        q = g.op("Reshape", [apply_rope(g, net.mm(xn, f"{a}.q_proj.weight"), *rope), g.const([0, 0, h, d])])
        k, v = g.op("Split", [net.mm(xn, [f"{a}.k_proj.weight", f"{a}.v_proj.weight"]), g.const([kv * d, kv * d])],
                    outputs=2, axis=-1)
        k = g.op("Reshape", [apply_rope(g, k, *rope), g.const([0, 0, kv, d])])
    if one_row:
        heads = lambda t, n: g.op("Reshape", [t, g.const([0, n, 1, d])])
        return g.op("Reshape", [q, g.const([0, kv, -1, d])]), heads(k, kv), heads(v, kv)
    q = g.op("Reshape", [g.op("Transpose", [q], perm=[0, 2, 1, 3]), g.const([0, kv, -1, d])])
    v = g.op("Transpose", [g.op("Reshape", [v, g.const([0, 0, kv, d])])], perm=[0, 2, 1, 3])
    return q, g.op("Transpose", [k], perm=[0, 2, 1, 3]), v


def attention(g: Graph, c, q: str, parts, sizes=None, one_row=False) -> str:
    """softmax(q·kᵀ·scale masked) · v over key/value parts [(k, v, allowed or None)] → [B,S,heads*d].

    Several parts share one softmax (`sizes`: their lengths, [n1, n2, …] int64); `one_row` as in project_qkv.
    """
    scale = g.const(1.0 / np.sqrt(c.head_dim), np.float32)
    scores = []
    for k, _, allowed in parts:
        s = g.op("Mul", [g.op("MatMul", [q, g.op("Transpose", [k], perm=[0, 1, 3, 2])]), scale])
        scores.append(s if allowed is None else g.op("Where", [allowed, s, g.const(NEG, np.float32)]))
    if len(parts) == 1:
        o = g.op("MatMul", [g.op("Softmax", [scores[0]], axis=-1), parts[0][1]])
    else:
        p = g.op("Softmax", [g.op("Concat", scores, axis=-1)], axis=-1)
        probs = g.op("Split", [p, sizes], outputs=len(parts), axis=-1)
        terms = [g.op("MatMul", [pr, v]) for pr, (_, v, _) in zip(probs, parts)]
        o = terms[0]
        for t in terms[1:]:
            o = g.op("Add", [o, t])
    if one_row:
        return g.op("Reshape", [o, g.const([0, 1, c.heads * c.head_dim])])
    o = g.op("Reshape", [o, g.const([0, c.heads, -1, c.head_dim])])
    return g.op("Reshape", [g.op("Transpose", [o], perm=[0, 2, 1, 3]), g.const([0, 0, c.heads * c.head_dim])])


def swiglu(net: Net, prefix: str, xn: str) -> str:
    g, c = net.g, net.c
    m = f"{prefix}.mlp"
    gate, up = g.op("Split", [net.mm(xn, [f"{m}.gate_proj.weight", f"{m}.up_proj.weight"]), g.const([c.mlp, c.mlp])],
                    outputs=2, axis=-1)
    act = g.op("Mul", [g.op("Mul", [gate, g.op("Sigmoid", [gate])]), up])
    return net.mm(act, f"{m}.down_proj.weight")


def block(net: Net, prefix: str, x: str, xn: str, rope, attend, one_row=False):
    """One pre-norm block from its normed input; returns (residual after attention, MLP output)."""
    q, k, v = project_qkv(net, prefix, xn, rope, one_row)
    o = net.mm(attend(q, k, v), f"{prefix}.self_attn.o_proj.weight")
    xn2, h = net.skip_rms(x, o, f"{prefix}.post_attention_layernorm.weight")
    return h, swiglu(net, prefix, xn2)


def scatter_index(g: Graph, c, positions: str) -> str:
    """ScatterND indices [B,kv,S,3] = (b, h, position): where the new rows' keys and values go."""
    shape = g.op("Shape", [positions])
    B = g.op("Slice", [shape, g.const([0]), g.const([1])])
    S = g.op("Slice", [shape, g.const([1]), g.const([2])])
    tgt = g.op("Concat", [B, g.const([c.kv_heads]), S, g.const([1])], axis=0)
    b = g.op("Reshape", [g.op("Range", [g.const(0), g.op("Squeeze", [B]), g.const(1)]), g.const([-1, 1, 1, 1])])
    h = g.const(np.arange(c.kv_heads).reshape(1, -1, 1, 1))
    p = g.op("Unsqueeze", [positions, g.const([1, 3])])
    return g.op("Concat", [g.op("Expand", [t, tgt]) for t in (b, h, p)], axis=3)


def cache_slots(g: Graph, past_k: str) -> str:
    """0..C−1, the slot index of every cache entry."""
    C = g.op("Squeeze", [g.op("Slice", [g.op("Shape", [past_k]), g.const([2]), g.const([3])])])
    return g.op("Range", [g.const(0), C, g.const(1)])


def row_mask(g: Graph, c, positions: str, slots: str) -> str:
    """[B,1,rep*S,C]: query row (group r, row s) may read slot j iff j ≤ positions[b,s]."""
    rep = c.heads // c.kv_heads
    rows = g.op("Unsqueeze", [g.op("Tile", [positions, g.const([1, rep])]), g.const([1, 3])])
    return g.op("LessOrEqual", [slots, rows])
