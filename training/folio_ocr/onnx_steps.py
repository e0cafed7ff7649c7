"""The optional step graphs of the contract: `decoder_step.onnx` and `mtp_step.onnx`.

They compute what `decoder.onnx` and `mtp.onnx` compute, shaped for a decoding loop on the CPU, where
a 14 M-parameter model spends most of a pass outside its matrix products:

- The KV cache is a fixed-capacity buffer `[B, kv, C, d]` per layer. A pass writes the new keys and
  values at their positions with one ScatterND (output `present.*`) and also returns those rows alone
  (`written.*`, `[B, kv, S, d]`): the caller writes them into its buffer at `position_ids` and never
  fetches the whole cache. (Binding `present.*` to the past buffer would update it in place, as
  onnxruntime's ScatterND skips its copy when input and output are one buffer, but onnxruntime-node
  copies every fetched output back into a new ArrayBuffer: measured slower than the in-graph copy.)
  A rejected draft needs no rollback: its slots are overwritten by the next pass.
- Slot = position. A row attends to the slots at or before its own `position_ids` entry, so stale
  slots beyond it are invisible and no attention mask travels with the call.
- Query heads are grouped per KV head (`[B, kv, rep*S, d]`) instead of repeating the keys.
- `decoder_step` projects only the rows asked for (`logits_rows`) through the LM head.
- `mtp_step` runs the whole FastMTP draft in one call: it reads the pairs (only their keys and values:
  nothing else of those rows is ever used, which makes reading a 281-row prompt cheap), the last one
  proposes d1, then `draft_k - 1` recursive steps run in a Loop whose speculative keys never touch
  the cache; it returns the proposals' ids. Its weights may be int8 (export.DRAFT_QUANT).

Every softmax row spans the whole buffer (masked slots are exact zeros), so a token's logits do not
depend on how many rows its pass had (two or more: one row takes onnxruntime's GEMV path) nor on
the batch around it, as long as C is the same: that is what keeps speculative decoding bit-exact.
"""
from __future__ import annotations

import numpy as np

from .onnx_graph import Graph
from .onnx_layers import (BOOL, F32, I64, Net, apply_rope, as_array, attention, block, cache_slots, rope_tables,
                          row_mask, scatter_index, swiglu)


def decoder_step_graph(model, fp16_weights=True):
    """decoder_step.onnx: the decoder over fixed-capacity caches, logits of `logits_rows` only."""
    c = model.c
    g = Graph("folio_decoder_step", fp16_weights)
    net = Net(g, model)
    x = g.input("inputs_embeds", F32, ["B", "S", c.hidden])
    pos = g.input("position_ids", I64, ["B", "S"])
    rows = g.input("logits_rows", I64, ["R"])
    caches = [(g.input(f"past_key_values.{i}.{kind}", F32, ["B", c.kv_heads, "C", c.head_dim]), f"present.{i}.{kind}")
              for i in range(c.layers) for kind in ("key", "value")]
    rope = (pos, rope_tables(g, c))
    idx = scatter_index(g, c, pos)
    allowed = row_mask(g, c, pos, cache_slots(g, caches[0][0]))
    presents, written = [], []

    def attend_layer(i):
        def attend(q, k, v):
            pk = g.op("ScatterND", [caches[2 * i][0], idx, k])
            pv = g.op("ScatterND", [caches[2 * i + 1][0], idx, v])
            presents.extend([(pk, caches[2 * i][1]), (pv, caches[2 * i + 1][1])])
            written.extend([(k, caches[2 * i][1]), (v, caches[2 * i + 1][1])])
            return attention(g, c, q, [(pk, pv, allowed)])
        return attend

    xn = net.rms(x, "layers.0.input_layernorm.weight")
    h = x
    for i in range(c.layers):
        h, mlp = block(net, f"layers.{i}", h, xn, rope, attend_layer(i))
        nxt = f"layers.{i + 1}.input_layernorm.weight" if i + 1 < c.layers else "norm.weight"
        xn, h = net.skip_rms(h, mlp, nxt)
    logits = net.mm(g.op("Gather", [xn, rows], axis=1), "lm_head.weight")
    g.output(logits, "logits", F32, ["B", "R", c.vocab])
    g.output(xn, "hidden_states", F32, ["B", "S", c.hidden])
    for value, name in written:
        g.output(g.op("Identity", [value]), name.replace("present.", "written."), F32,
                 ["B", c.kv_heads, "S", c.head_dim])
    for value, name in presents:
        g.output(value, name, F32, ["B", c.kv_heads, "C", c.head_dim])
    return g.model("folio-ocr decoder over fixed-capacity KV buffers; see folio_ocr/onnx_steps.py")


def _mtp_input(net: Net, e: str, hprev: str) -> str:
    g = net.g
    cat = g.op("Concat", [net.rms(e, "enorm.weight"), net.rms(hprev, "hnorm.weight")], axis=-1)
    return net.mm(cat, "eh_proj.weight")


def _mtp_head(net: Net, hprev: str, e: str, rope, attend):
    """The draft block on one row (next-token embedding, previous hidden state) → normed hidden state."""
    xin = _mtp_input(net, e, hprev)
    h, mlp = block(net, "mtp_block", xin, net.rms(xin, "mtp_block.input_layernorm.weight"), rope, attend, True)
    hn, _ = net.skip_rms(h, mlp, "norm.weight")
    return hn


def _read_pairs(net: Net, x: str, pos: str, past_k: str, past_v: str, tables) -> dict:
    """Keys and values of the draft block for every row x [B,S,H], written into the cache at `pos`."""
    g, c = net.g, net.c
    a = "mtp_block.self_attn"
    xn = net.rms(x, "mtp_block.input_layernorm.weight")
    k, v = g.op("Split", [net.mm(xn, [f"{a}.k_proj.weight", f"{a}.v_proj.weight"]),
                          g.const([c.kv_heads * c.head_dim] * 2)], outputs=2, axis=-1)
    heads = lambda t: g.op("Transpose", [g.op("Reshape", [t, g.const([0, 0, c.kv_heads, c.head_dim])])],
                           perm=[0, 2, 1, 3])
    idx = scatter_index(g, c, pos)
    k, v = heads(apply_rope(g, k, pos, tables)), heads(v)
    return {"x": x, "xn": xn, "k": k, "v": v, "pk": g.op("ScatterND", [past_k, idx, k]),
            "pv": g.op("ScatterND", [past_v, idx, v])}


def _propose_row(net: Net, x: str, xn: str, pos: str, tables, attend) -> str:
    """The rest of the draft block for one row whose keys are already in the cache → normed hidden state."""
    g, c = net.g, net.c
    a = "mtp_block.self_attn"
    q = apply_rope(g, net.mm(xn, f"{a}.q_proj.weight"), pos, tables)
    q = g.op("Reshape", [q, g.const([0, c.kv_heads, -1, c.head_dim])])  # one row: heads need no transpose
    o = net.mm(attend(q), f"{a}.o_proj.weight")
    xn2, h = net.skip_rms(x, o, "mtp_block.post_attention_layernorm.weight")
    hn, _ = net.skip_rms(h, swiglu(net, "mtp_block", xn2), "norm.weight")
    return hn


def mtp_step_graph(model, fp16_weights=True, quant=None):
    """mtp_step.onnx: catch-up rows, then `draft_k − 1` recursive steps; returns `draft_ids` [B, draft_k]."""
    c = model.c
    H = c.hidden
    g = Graph("folio_mtp_step", fp16_weights)
    net = Net(g, model, quant)
    # Embeddings, not ids: in the prompt the pairs carry the visual embeddings.
    e = g.input("inputs_embeds", F32, ["B", "S", H])
    prev = g.input("previous_hidden", F32, ["B", "S", H])
    pos = g.input("position_ids", I64, ["B", "S"])
    last = g.input("last_row", I64, ["B"])
    draft_k = g.input("draft_k", I64, [])
    past_k = g.input("past_key_values.mtp.key", F32, ["B", c.kv_heads, "C", c.head_dim])
    past_v = g.input("past_key_values.mtp.value", F32, ["B", c.kv_heads, "C", c.head_dim])
    E = g.weight("embed_tokens.weight", as_array(model.embed_tokens.weight))

    # ---- step 1: the pairs go into the cache (only their keys and values: no other output of those
    # rows is ever read), then the last real row runs the whole block and proposes d1
    tables = rope_tables(g, c)
    state = _read_pairs(net, _mtp_input(net, e, prev), pos, past_k, past_v, tables)
    sel = g.op("Unsqueeze", [last, g.const([1])])  # [B,1]
    row = g.op("Expand", [g.op("Unsqueeze", [sel, g.const([2])]), g.op("Concat", [g.op("Shape", [sel]), g.const([H])], axis=0)])
    x1, xn1 = (g.op("GatherElements", [t, row], axis=1) for t in (state["x"], state["xn"]))
    p1 = g.op("GatherElements", [pos, sel], axis=1)  # [B,1]
    seen = g.op("Unsqueeze", [g.op("LessOrEqual", [cache_slots(g, past_k), p1]), g.const([1, 2])])  # [B,1,1,C]
    g1 = _propose_row(net, x1, xn1, p1, tables, lambda q: attention(g, c, q, [(state["pk"], state["pv"], seen)],
                                                                  one_row=True))
    d1 = g.op("ArgMax", [net.mm(g1, "lm_head.weight")], axis=-1, keepdims=0)  # [B,1]
    # Named now: the Loop body below reads them from the outer scope by name.
    for key, kind in (("pk", "key"), ("pv", "value")):
        state[key] = g.output(state[key], f"present.mtp.{kind}", F32, ["B", c.kv_heads, "C", c.head_dim])
    for key, kind in (("k", "key"), ("v", "value")):
        g.output(g.op("Identity", [state[key]]), f"written.mtp.{kind}", F32, ["B", c.kv_heads, "S", c.head_dim])

    # ---- steps 2..K in a Loop: speculative keys are carried along, the cache is only read (slots ≤ p1)
    empty = g.op("Slice", [state["pk"], g.const([0]), g.const([0]), g.const([2])])  # [B,kv,0,d]
    capacity = g.op("Slice", [g.op("Shape", [past_k]), g.const([2]), g.const([3])])  # [C]
    body = Graph("mtp_recursive_step", parent=g)
    bnet = Net(body, model, quant)
    it = body.input("iter", I64, [])
    body.input("cond_in", BOOL, [])
    tok = body.input("tok", I64, ["B", 1])
    gh = body.input("g", F32, ["B", 1, H])
    bp = body.input("pos", I64, ["B", 1])
    sk = body.input("spec_k", F32, ["B", c.kv_heads, "n", c.head_dim])
    sv = body.input("spec_v", F32, ["B", c.kv_heads, "n", c.head_dim])
    all_ids = body.input("ids", I64, ["B", "k"])
    p = body.op("Add", [bp, body.const([1])])
    out = {}

    def attend_spec(q, k, v):
        out["sk"] = body.op("Concat", [sk, k], axis=2)
        out["sv"] = body.op("Concat", [sv, v], axis=2)
        # One softmax over the cache's C slots and this step's iter + 1 speculative keys.
        sizes = body.op("Concat", [capacity, body.op("Unsqueeze", [body.op("Add", [it, body.const(1)]), body.const([0])])],
                        axis=0)
        return attention(body, c, q, [(state["pk"], state["pv"], seen), (out["sk"], out["sv"], None)], sizes, True)

    be = body.op("Gather", [E, tok], axis=0)
    bh = _mtp_head(bnet, gh, be, (p, tables), attend_spec)
    btok = body.op("ArgMax", [bnet.mm(bh, "lm_head.weight")], axis=-1, keepdims=0)
    ids_out = body.op("Concat", [all_ids, btok], axis=1)
    body.output(body.op("Identity", ["cond_in"]), "cond_out", BOOL, [])
    body.output(btok, "tok_out", I64, ["B", 1])
    body.output(bh, "g_out", F32, ["B", 1, H])
    body.output(p, "pos_out", I64, ["B", 1])
    body.output(out["sk"], "spec_k_out", F32, ["B", c.kv_heads, "n", c.head_dim])
    body.output(out["sv"], "spec_v_out", F32, ["B", c.kv_heads, "n", c.head_dim])
    body.output(ids_out, "ids_out", I64, ["B", "k"])
    trips = g.op("Sub", [draft_k, g.const(1)])
    loop = g.op("Loop", [trips, g.const(True, np.bool_), d1, g1, p1, empty, empty, d1], outputs=6, body=body.body())
    g.output(loop[5], "draft_ids", I64, ["B", "K"])
    g.outputs.insert(0, g.outputs.pop())  # draft_ids first
    return g.model("folio-ocr FastMTP draft, K steps in one call; see folio_ocr/onnx_steps.py")


def step_json(model, draft_quant, weights_file):
    """folio-model.json entries of the optional step graphs (a runtime without them uses decoder/mtp)."""
    c = model.c
    cache = f"[B,{c.kv_heads},C,{c.head_dim}] float32"
    if draft_quant == "int8":
        weights = "int8 per output column, activations quantized per call (DynamicQuantizeMatMul)"
    elif draft_quant:
        weights = "{}-bit blocks of {}, accuracy level {} (MatMulNBits)".format(*draft_quant)
    else:
        weights = "as mtp.onnx"
    return {
        "external_data": {"file": weights_file, "note": "embed_tokens, decoder, mtp, decoder_step and mtp_step "
                          "store their weights here, each distinct tensor once (ONNX external data); keep it "
                          "beside them"},
        "decoder_step": {
            "file": "decoder_step.onnx", "optional": True,
            "inputs": {"inputs_embeds": f"[B,S,{c.hidden}] float32", "position_ids": "[B,S] int64",
                       "logits_rows": "[R] int64 (rows of S whose logits are computed)"} |
                      {f"past_key_values.{i}.{k}": cache for i in range(c.layers) for k in ("key", "value")},
            "outputs": {"logits": f"[B,R,{c.vocab}] float32", "hidden_states": f"[B,S,{c.hidden}] float32"} |
                       {f"written.{i}.{k}": f"[B,{c.kv_heads},S,{c.head_dim}] float32 (the new rows' {k}s)"
                        for i in range(c.layers) for k in ("key", "value")} |
                       {f"present.{i}.{k}": cache + " (the past buffer with the new rows written)"
                        for i in range(c.layers) for k in ("key", "value")},
            "cache": "fixed capacity C; slot = position: the new rows are written at position_ids and row (b,s) "
                     "attends to slots <= position_ids[b,s]; nothing to roll back (stale slots are invisible and "
                     "get overwritten). Keep the buffer current by writing written.* at position_ids (or fetch "
                     f"present.*, bound in place to the past buffer where the runtime allows); C <= {c.max_pos} "
                     "(RoPE table)"},
        "mtp_step": {
            "file": "mtp_step.onnx", "optional": True,
            "inputs": {"inputs_embeds": f"[B,S,{c.hidden}] float32 (embeddings of tokens i+1 of the pairs to read)",
                       "previous_hidden": f"[B,S,{c.hidden}] float32 (decoder hidden_states at i)",
                       "position_ids": "[B,S] int64 (i)", "last_row": "[B] int64 (last real row per sequence)",
                       "draft_k": "[] int64 (proposals, >= 1)",
                       "past_key_values.mtp.key": cache, "past_key_values.mtp.value": cache},
            "outputs": {"draft_ids": "[B,draft_k] int64",
                        "written.mtp.key": f"[B,{c.kv_heads},S,{c.head_dim}] float32 (the pairs' keys)",
                        "written.mtp.value": f"[B,{c.kv_heads},S,{c.head_dim}] float32",
                        "present.mtp.key": cache, "present.mtp.value": cache},
            "cache": "as decoder_step; the draft_k-1 recursive steps attend to the cache up to the last real row "
                     "and to their own keys, which are not written",
            "weights": weights + "; the draft head only proposes, so its rounding can cost acceptance, never a token"},
    }
