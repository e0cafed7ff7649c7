"""ONNX export of a FolioOCR model following the Folio model contract (see folio-model.json)."""
from __future__ import annotations

import json
import os

import numpy as np
import onnx
import torch
import torch.nn as nn
from onnx import helper, numpy_helper, TensorProto

from .model import FolioOCR, export_mask, concat_kv, rope_cos_sin
from .onnx_steps import decoder_step_graph, mtp_step_graph, step_json
from .onnx_weights import share_weights
from .tokenizer import SPECIAL_TOKENS, prompt_ids, prompt_text, PROMPT_TEXT
from . import preprocess as pp

OPSET = 17
# The draft head of mtp_step.onnx: int8 weights per output column, activations quantized per call
# (DynamicQuantizeMatMul). On 16 held-out views tau at K=3 is 2.18 against 2.15 with fp32 weights
# (noise), and on this AVX2 CPU a 384x2048 product takes 47 us against 216 us in fp32 and 60-66 us
# as MatMulNBits (4 or 8 bits), which the `(bits, block, accuracy_level)` form selects.
DRAFT_QUANT = "int8"
WEIGHTS_FILE = "weights.bin"


class VisionWrap(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, pixel_values):
        return self.m.vision(pixel_values)


class EmbedWrap(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_ids):
        return self.m.embed_tokens(input_ids)


class DecoderWrap(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, inputs_embeds, attention_mask, position_ids, *past):
        S = inputs_embeds.shape[1]
        mask = export_mask(attention_mask, S)
        upd = [concat_kv(past[2 * i], past[2 * i + 1]) for i in range(self.m.c.layers)]
        h, presents = self.m.decoder(inputs_embeds, position_ids, mask, upd, manual=True)
        out = [self.m.logits(h), h]
        for k, v in presents:
            out += [k, v]
        return tuple(out)


class MtpWrap(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, inputs_embeds, previous_hidden, attention_mask, position_ids, past_key, past_value):
        S = inputs_embeds.shape[1]
        mask = export_mask(attention_mask, S)
        h, (k, v) = self.m.mtp(inputs_embeds, previous_hidden, position_ids, mask, concat_kv(past_key, past_value),
                               manual=True)
        return self.m.logits(h), h, k, v


def _export(mod, args, path, in_names, out_names, dyn):
    kw = dict(input_names=in_names, output_names=out_names, dynamic_axes=dyn, opset_version=OPSET,
              do_constant_folding=True)
    try:
        torch.onnx.export(mod, args, path, dynamo=False, **kw)
    except TypeError:
        torch.onnx.export(mod, args, path, **kw)


def halve_initializers(path, min_elems=64):
    """Store float initializers as fp16 with a Cast back to fp32 (fp32 compute, half the bytes)."""
    m = onnx.load(path)
    g = m.graph
    new_inits, casts = [], []
    for init in g.initializer:
        if init.data_type == TensorProto.FLOAT and int(np.prod(init.dims)) >= min_elems:
            arr = numpy_helper.to_array(init).astype(np.float16)
            h = numpy_helper.from_array(arr, init.name + "__fp16")
            new_inits.append(h)
            casts.append(helper.make_node("Cast", [h.name], [init.name], to=TensorProto.FLOAT,
                                          name=init.name + "__cast"))
        else:
            new_inits.append(init)
    del g.initializer[:]
    g.initializer.extend(new_inits)
    nodes = list(g.node)
    del g.node[:]
    g.node.extend(casts + nodes)
    onnx.checker.check_model(m)
    onnx.save(m, path)


def round_weights_fp16(model: FolioOCR):
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(p.half().float())


def export_steps(model: FolioOCR, out_dir, *, fp16_weights=True, draft_quant=DRAFT_QUANT):
    """The optional step graphs (onnx_steps.py), then one shared weights file for the text networks."""
    onnx.save(decoder_step_graph(model, fp16_weights), f"{out_dir}/decoder_step.onnx")
    onnx.save(mtp_step_graph(model, fp16_weights, draft_quant), f"{out_dir}/mtp_step.onnx")
    return share_weights(out_dir, ["embed_tokens.onnx", "decoder.onnx", "mtp.onnx", "decoder_step.onnx", "mtp_step.onnx"],
                         WEIGHTS_FILE)


def export_model(model: FolioOCR, tok, out_dir, *, fp16_weights=False, name="folio-ocr", version="0.1.0",
                 licence="Apache-2.0", training_summary="", extra_meta=None, step_graphs=True,
                 draft_quant=DRAFT_QUANT):
    os.makedirs(out_dir, exist_ok=True)
    c = model.c
    model = model.float().eval()
    B, S, P, N = 2, 3, 4, 2
    H, d, kv = c.hidden, c.head_dim, c.kv_heads
    with torch.no_grad():
        _export(VisionWrap(model), (torch.randn(N, 3, c.view_h, c.view_w),), f"{out_dir}/vision.onnx",
                ["pixel_values"], ["visual_embeds"], {"pixel_values": {0: "N"}, "visual_embeds": {0: "N"}})
        _export(EmbedWrap(model), (torch.randint(0, c.vocab, (B, S)),), f"{out_dir}/embed_tokens.onnx",
                ["input_ids"], ["inputs_embeds"], {"input_ids": {0: "B", 1: "S"}, "inputs_embeds": {0: "B", 1: "S"}})
        past = []
        in_names = ["inputs_embeds", "attention_mask", "position_ids"]
        out_names = ["logits", "hidden_states"]
        dyn = {"inputs_embeds": {0: "B", 1: "S"}, "attention_mask": {0: "B", 1: "P+S"},
               "position_ids": {0: "B", 1: "S"}, "logits": {0: "B", 1: "S"}, "hidden_states": {0: "B", 1: "S"}}
        for i in range(c.layers):
            for kind in ("key", "value"):
                past.append(torch.randn(B, kv, P, d))
                n_in, n_out = f"past_key_values.{i}.{kind}", f"present.{i}.{kind}"
                in_names.append(n_in)
                out_names.append(n_out)
                dyn[n_in] = {0: "B", 2: "P"}
                dyn[n_out] = {0: "B", 2: "P+S"}
        args = (torch.randn(B, S, H), torch.ones(B, P + S, dtype=torch.long),
                torch.arange(P, P + S).repeat(B, 1), *past)
        _export(DecoderWrap(model), args, f"{out_dir}/decoder.onnx", in_names, out_names, dyn)
        m_in = ["inputs_embeds", "previous_hidden", "attention_mask", "position_ids",
                "past_key_values.mtp.key", "past_key_values.mtp.value"]
        m_out = ["logits", "hidden_states", "present.mtp.key", "present.mtp.value"]
        m_dyn = {"inputs_embeds": {0: "B", 1: "S"}, "previous_hidden": {0: "B", 1: "S"},
                 "attention_mask": {0: "B", 1: "P+S"}, "position_ids": {0: "B", 1: "S"},
                 "past_key_values.mtp.key": {0: "B", 2: "P"}, "past_key_values.mtp.value": {0: "B", 2: "P"},
                 "logits": {0: "B", 1: "S"}, "hidden_states": {0: "B", 1: "S"},
                 "present.mtp.key": {0: "B", 2: "P+S"}, "present.mtp.value": {0: "B", 2: "P+S"}}
        margs = (torch.randn(B, S, H), torch.randn(B, S, H), torch.ones(B, P + S, dtype=torch.long),
                 torch.arange(P, P + S).repeat(B, 1), torch.randn(B, kv, P, d), torch.randn(B, kv, P, d))
        _export(MtpWrap(model), margs, f"{out_dir}/mtp.onnx", m_in, m_out, m_dyn)
    if fp16_weights:
        for f in ("vision", "embed_tokens", "decoder", "mtp"):
            halve_initializers(f"{out_dir}/{f}.onnx")
    if step_graphs:
        export_steps(model, out_dir, fp16_weights=fp16_weights, draft_quant=draft_quant)
    tok.save(f"{out_dir}/tokenizer.json")
    meta = model_json(model, tok, name=name, version=version, licence=licence, fp16_weights=fp16_weights,
                      training_summary=training_summary, in_names=in_names, out_names=out_names, m_in=m_in,
                      m_out=m_out)
    if step_graphs:
        meta["onnx"].update(step_json(model, draft_quant, WEIGHTS_FILE))
    if extra_meta:
        meta.update(extra_meta)
        if "input" in extra_meta:  # beside name and version, where readers look for it
            head = ("family", "name", "version", "licence", "input")
            meta = {k: meta[k] for k in head} | {k: v for k, v in meta.items() if k not in head}
    with open(f"{out_dir}/folio-model.json", "w") as f:
        json.dump(meta, f, indent=2, ensure_ascii=False)
    return meta


def model_json(model, tok, *, name, version, licence, fp16_weights, training_summary, in_names, out_names, m_in,
               m_out):
    c = model.c
    T = c.tokens_per_view
    gh, gw = c.grid
    sp = {t: tok.token_to_id(t) for t in SPECIAL_TOKENS}
    pids = prompt_ids(tok, T)
    return {
        "family": "folio-ocr",
        "name": name,
        "version": version,
        "licence": licence,
        "dtype": {"weights": "float16 (stored as fp16 initializers, Cast to fp32)" if fp16_weights else "float32",
                  "compute": "float32", "logits": "float32", "io": "float32 tensors, int64 ids/masks/positions"},
        "image": {
            "global_view": {"height": c.view_h, "width": c.view_w},
            "tile": {"height": c.view_h, "width": c.view_w},
            "max_tiles": 0,
            "colour": "grey replicated to 3 channels",
            "grey": "L = (R*19595 + G*38470 + B*7471 + 32768) >> 16 (integer; equals PIL convert('L')); "
                    "alpha composited on white first: c = (c*a + 255*(255-a) + 127) // 255",
            "resize": "none when the image already has the view size; otherwise scale = min(W_v/w, H_v/h), "
                      "nw = max(1, floor(w*scale)), nh = max(1, floor(h*scale)), nearest neighbour with "
                      "src_x = min(w-1, floor((x+0.5)*w/nw)) (same for y), placed top-left on a white (255) canvas",
            "normalise": "v = (L/255 - mean) / std",
            "mean": [pp.MEAN] * 3,
            "std": [pp.STD] * 3,
            "layout": "NCHW float32",
        },
        "visual_tokens": {
            "stride_px": 16,
            "grid": {"rows": gh, "cols": gw},
            "tokens_per_view": T,
            "layout": "row-major; vision.onnx already appends the learned image_newline embedding after each "
                      "row, so T = rows*(cols+1)",
            "newline": "inside vision.onnx (image_newline)",
            "view_separator_token": "<|view_sep|>",
            "view_order": "tiles (row-major) then the global view, then <|view_sep|>; this model uses the global view only",
        },
        "special_tokens": {
            "pad": sp["<|pad|>"], "bos": sp["<|bos|>"], "eos": sp["<|eos|>"], "image": sp["<image>"],
            "view_separator": sp["<|view_sep|>"], "grounding": sp["<|grounding|>"],
            "ref_start": sp["<|ref|>"], "ref_end": sp["<|/ref|>"], "det_start": sp["<|det|>"],
            "det_end": sp["<|/det|>"],
            "table": {t: sp[t] for t in ["<table>", "</table>", "<tr>", "</tr>", "<td>", "</td>", "<th>", "</th>"]},
        },
        "prompt": {
            "text": "<|bos|>{<image> x tokens_per_view}<|view_sep|>" + PROMPT_TEXT.replace("\n", "\\n"),
            "prefix_ids": pids[: pids.index(sp["<image>"])],
            "suffix_ids": pids[pids.index(sp["<image>"]) + T:],
            "image_token_count": T,
            "image_placement": "the <image> tokens are replaced, in order, by the rows of visual_embeds",
            "input_ids": pids,
            "positions": "position_ids = 0..len-1 over the whole sequence (visual tokens included)",
        },
        "decoder": {"layers": c.layers, "hidden": c.hidden, "heads": c.heads, "kv_heads": c.kv_heads,
                    "head_dim": c.head_dim, "vocab": c.vocab, "mlp": c.mlp, "rope_theta": c.rope_theta,
                    "max_positions": c.max_pos, "norm": "RMSNorm", "eps": c.norm_eps},
        "draft_head": {"type": "FastMTP", "K": c.mtp_k, "blocks": c.mtp_blocks,
                       "input": "eh_proj([enorm(inputs_embeds); hnorm(previous_hidden)]) -> mtp_block -> shared "
                                "final norm and LM head",
                       "cache": "own KV cache past_key_values.mtp.*; entry j = (embedding of token j+1, decoder "
                                "hidden_states at j); during drafting entry of step k>1 uses the previous draft's "
                                "hidden_states; roll back after verification"},
        "generation": {"max_new_tokens": 256, "stop": ["eos"], "greedy": True},
        "onnx": {
            "opset": OPSET,
            "vision": {"file": "vision.onnx", "inputs": {"pixel_values": "[N,3,H,W] float32"},
                       "outputs": {"visual_embeds": f"[N,{T},{c.hidden}] float32"}},
            "embed_tokens": {"file": "embed_tokens.onnx", "inputs": {"input_ids": "[B,S] int64"},
                             "outputs": {"inputs_embeds": f"[B,S,{c.hidden}] float32"}},
            "decoder": {"file": "decoder.onnx",
                        "inputs": {n: s for n, s in zip(in_names[:3], [f"[B,S,{c.hidden}] float32",
                                                                       "[B,P+S] int64 (1 = attend)",
                                                                       "[B,S] int64"])} |
                        {n: f"[B,{c.kv_heads},P,{c.head_dim}] float32" for n in in_names[3:]},
                        "outputs": {"logits": f"[B,S,{c.vocab}] float32",
                                    "hidden_states": f"[B,S,{c.hidden}] float32 (post final norm)"} |
                        {n: f"[B,{c.kv_heads},P+S,{c.head_dim}] float32" for n in out_names[2:]},
                        "mask": "query i (absolute P+i) attends key j iff j <= P+i and attention_mask[b,j] == 1; "
                                "P = 0 (empty past tensors [B,kv,0,d]) for prefill"},
            "mtp": {"file": "mtp.onnx",
                    "inputs": {"inputs_embeds": f"[B,S,{c.hidden}] float32 (embedding of the NEXT token)",
                               "previous_hidden": f"[B,S,{c.hidden}] float32",
                               "attention_mask": "[B,P+S] int64", "position_ids": "[B,S] int64",
                               "past_key_values.mtp.key": f"[B,{c.kv_heads},P,{c.head_dim}] float32",
                               "past_key_values.mtp.value": f"[B,{c.kv_heads},P,{c.head_dim}] float32"},
                    "outputs": {"logits": f"[B,S,{c.vocab}] float32", "hidden_states": f"[B,S,{c.hidden}] float32",
                                "present.mtp.key": f"[B,{c.kv_heads},P+S,{c.head_dim}] float32",
                                "present.mtp.value": f"[B,{c.kv_heads},P+S,{c.head_dim}] float32"}},
        },
        "training_data": training_summary,
        "config": c.to_dict(),
    }
