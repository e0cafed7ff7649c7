"""folio-ocr: a small DeepSeek-OCR-shaped model (vision encoder -> decoder -> FastMTP draft head).

One module holds the whole network so that training, decoding and ONNX export share the math.

Vision (DeepEncoder-like, scaled down):
  pixel_values [N,3,H,W] (normalised, grey replicated to 3 channels)
  -> patch stem (2 strided 3x3 convs, stride 4) + local mixing blocks (ConvNeXt-style, stand-in
     for SAM's windowed attention)
  -> 16x token compressor (2 strided 3x3 convs: 4x per side)         => stride 16 px per token
  -> linear to hidden + learned row/column position embeddings
  -> global bidirectional attention layers (stand-in for CLIP-L) -> projector
  -> a learned `image_newline` embedding appended after every row of tokens
  output [N, gh*(gw+1), hidden]

Decoder: pre-norm RMSNorm blocks, GQA attention with RoPE and a KV cache, SwiGLU MLP, final norm,
LM head (logits computed in fp32).

FastMTP draft head (names as in the paper): enorm, hnorm, eh_proj, mtp_block; shares the decoder's
embeddings, final norm and LM head. One block, applied recursively K times.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, asdict, field

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class FolioConfig:
    # vision
    view_h: int = 128
    view_w: int = 512
    in_chans: int = 3
    stem_dims: tuple = (32, 64)          # two stride-2 convs -> stride 4 ("patches")
    local_blocks: int = 2                # ConvNeXt-style blocks at stride 4
    comp_dims: tuple = (128, 256)        # two stride-2 convs -> 16x fewer tokens
    vis_layers: int = 2                  # global attention layers
    vis_heads: int = 6
    # decoder
    hidden: int = 384
    layers: int = 4
    heads: int = 6
    kv_heads: int = 2
    head_dim: int = 64
    mlp: int = 1024
    vocab: int = 1024
    rope_theta: float = 10000.0
    max_pos: int = 2048
    norm_eps: float = 1e-5
    # draft head
    mtp_k: int = 3
    mtp_blocks: int = 1

    @property
    def grid(self):
        return self.view_h // 16, self.view_w // 16

    @property
    def tokens_per_view(self):
        gh, gw = self.grid
        return gh * (gw + 1)

    def to_dict(self):
        d = asdict(self)
        d["stem_dims"] = list(self.stem_dims)
        d["comp_dims"] = list(self.comp_dims)
        return d

    @staticmethod
    def from_dict(d):
        d = dict(d)
        d["stem_dims"] = tuple(d["stem_dims"])
        d["comp_dims"] = tuple(d["comp_dims"])
        return FolioConfig(**d)


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        xf = x.float()
        y = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)
        return (y * self.weight.float()).to(x.dtype)


def rope_cos_sin(position_ids, head_dim, theta):
    # position_ids [B,S] (int64) -> cos, sin [B,1,S,head_dim]
    inv = 1.0 / (theta ** (torch.arange(0, head_dim, 2, device=position_ids.device, dtype=torch.float32) / head_dim))
    f = position_ids.to(torch.float32).unsqueeze(-1) * inv  # [B,S,d/2]
    emb = torch.cat([f, f], dim=-1)
    return emb.cos().unsqueeze(1), emb.sin().unsqueeze(1)


def apply_rope(x, cos, sin):
    d = x.shape[-1] // 2
    x1, x2 = x[..., :d], x[..., d:]
    rot = torch.cat([-x2, x1], dim=-1)
    return (x.float() * cos + rot.float() * sin).to(x.dtype)


def attention(q, k, v, mask, n_rep, manual):
    """q [B,h,S,d]; k,v [B,kv,L,d]; mask bool [B,1,S,L] (True = may attend)."""
    if n_rep > 1:
        B, kvh, L, d = k.shape
        k = k.unsqueeze(2).expand(B, kvh, n_rep, L, d).reshape(B, kvh * n_rep, L, d)
        v = v.unsqueeze(2).expand(B, kvh, n_rep, L, d).reshape(B, kvh * n_rep, L, d)
    if not manual:
        if mask is None:  # plain causal (training, right padding)
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    scale = 1.0 / math.sqrt(q.shape[-1])
    s = torch.matmul(q.float(), k.float().transpose(-1, -2)) * scale
    s = s.masked_fill(~mask, -1e9)
    p = torch.softmax(s, dim=-1)
    return torch.matmul(p, v.float()).to(q.dtype)


class Attention(nn.Module):
    def __init__(self, c: FolioConfig):
        super().__init__()
        self.c = c
        self.q_proj = nn.Linear(c.hidden, c.heads * c.head_dim, bias=False)
        self.k_proj = nn.Linear(c.hidden, c.kv_heads * c.head_dim, bias=False)
        self.v_proj = nn.Linear(c.hidden, c.kv_heads * c.head_dim, bias=False)
        self.o_proj = nn.Linear(c.heads * c.head_dim, c.hidden, bias=False)

    def forward(self, x, cos, sin, mask, kv_update, manual=False):
        B, S, _ = x.shape
        c = self.c
        q = self.q_proj(x).view(B, S, c.heads, c.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, S, c.kv_heads, c.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, S, c.kv_heads, c.head_dim).transpose(1, 2)
        q = apply_rope(q, cos, sin)
        k = apply_rope(k, cos, sin)
        k_all, v_all, present = kv_update(k, v)
        o = attention(q, k_all, v_all, mask, c.heads // c.kv_heads, manual)
        o = o.transpose(1, 2).reshape(B, S, c.heads * c.head_dim)
        return self.o_proj(o), present


class MLP(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.gate_proj = nn.Linear(dim, hidden, bias=False)
        self.up_proj = nn.Linear(dim, hidden, bias=False)
        self.down_proj = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class DecoderBlock(nn.Module):
    def __init__(self, c: FolioConfig):
        super().__init__()
        self.input_layernorm = RMSNorm(c.hidden, c.norm_eps)
        self.self_attn = Attention(c)
        self.post_attention_layernorm = RMSNorm(c.hidden, c.norm_eps)
        self.mlp = MLP(c.hidden, c.mlp)

    def forward(self, x, cos, sin, mask, kv_update, manual=False):
        a, present = self.self_attn(self.input_layernorm(x), cos, sin, mask, kv_update, manual)
        x = x + a
        x = x + self.mlp(self.post_attention_layernorm(x))
        return x, present


# ----------------------------------------------------------------------------- vision
class LocalBlock(nn.Module):
    """ConvNeXt-style local mixing (depthwise 7x7 + pointwise MLP)."""

    def __init__(self, dim):
        super().__init__()
        self.dw = nn.Conv2d(dim, dim, 7, padding=3, groups=dim)
        self.norm = nn.GroupNorm(1, dim)
        self.pw1 = nn.Conv2d(dim, dim * 4, 1)
        self.pw2 = nn.Conv2d(dim * 4, dim, 1)

    def forward(self, x):
        return x + self.pw2(F.gelu(self.pw1(self.norm(self.dw(x)))))


class EncLayer(nn.Module):
    def __init__(self, dim, heads, mlp):
        super().__init__()
        self.n1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)
        self.n2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, mlp)
        self.fc2 = nn.Linear(mlp, dim)
        self.heads = heads

    def forward(self, x):
        B, T, D = x.shape
        h = self.heads
        qkv = self.qkv(self.n1(x)).view(B, T, 3, h, D // h).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        s = torch.matmul(q, k.transpose(-1, -2)) * (1.0 / math.sqrt(D // h))
        o = torch.matmul(torch.softmax(s.float(), -1).to(q.dtype), v)
        x = x + self.proj(o.transpose(1, 2).reshape(B, T, D))
        return x + self.fc2(F.gelu(self.fc1(self.n2(x))))


class VisionEncoder(nn.Module):
    def __init__(self, c: FolioConfig):
        super().__init__()
        self.c = c
        s0, s1 = c.stem_dims
        self.stem = nn.Sequential(
            nn.Conv2d(c.in_chans, s0, 3, stride=2, padding=1), nn.GELU(),
            nn.Conv2d(s0, s1, 3, stride=2, padding=1), nn.GELU(),
        )
        self.local = nn.Sequential(*[LocalBlock(s1) for _ in range(c.local_blocks)])
        c0, c1 = c.comp_dims
        self.compressor = nn.Sequential(
            nn.Conv2d(s1, c0, 3, stride=2, padding=1), nn.GELU(),
            nn.Conv2d(c0, c1, 3, stride=2, padding=1),
        )
        self.in_proj = nn.Linear(c1, c.hidden)
        gh, gw = c.grid
        self.row_embed = nn.Parameter(torch.zeros(gh, c.hidden))
        self.col_embed = nn.Parameter(torch.zeros(gw, c.hidden))
        nn.init.normal_(self.row_embed, std=0.02)
        nn.init.normal_(self.col_embed, std=0.02)
        self.layers = nn.ModuleList([EncLayer(c.hidden, c.vis_heads, c.hidden * 4) for _ in range(c.vis_layers)])
        self.norm = nn.LayerNorm(c.hidden)
        self.projector = nn.Linear(c.hidden, c.hidden)
        self.image_newline = nn.Parameter(torch.randn(c.hidden) * 0.02)

    def forward(self, pixel_values, return_grid=False):
        c = self.c
        x = self.compressor(self.local(self.stem(pixel_values)))  # [N,C,gh,gw]
        N = x.shape[0]
        gh, gw = c.grid
        x = x.flatten(2).transpose(1, 2)  # [N,gh*gw,C]
        pos = (self.row_embed[:, None, :] + self.col_embed[None, :, :]).reshape(gh * gw, c.hidden)
        x = self.in_proj(x) + pos
        for l in self.layers:
            x = l(x)
        x = self.projector(self.norm(x)).view(N, gh, gw, c.hidden)
        grid = x
        nl = self.image_newline.to(x.dtype).view(1, 1, 1, c.hidden).expand(N, gh, 1, c.hidden)
        out = torch.cat([x, nl], dim=2).reshape(N, gh * (gw + 1), c.hidden)
        return (out, grid) if return_grid else out


# ----------------------------------------------------------------------------- whole model
def concat_kv(past_k, past_v):
    def upd(k, v):
        kk = torch.cat([past_k, k], dim=2)
        vv = torch.cat([past_v, v], dim=2)
        return kk, vv, (kk, vv)
    return upd


def no_past(k, v):
    return k, v, (k, v)


def export_mask(attention_mask, S):
    """attention_mask [B,P+S] (1 valid) -> bool [B,1,S,P+S], causal within the new S tokens."""
    L = attention_mask.shape[1]
    P = L - S
    qi = torch.arange(S, device=attention_mask.device).view(S, 1) + P
    kj = torch.arange(L, device=attention_mask.device).view(1, L)
    causal = kj <= qi  # [S,L]
    return causal.unsqueeze(0).unsqueeze(0) & (attention_mask > 0).view(-1, 1, 1, L)


class FolioOCR(nn.Module):
    def __init__(self, c: FolioConfig):
        super().__init__()
        self.c = c
        self.vision = VisionEncoder(c)
        self.embed_tokens = nn.Embedding(c.vocab, c.hidden)
        self.layers = nn.ModuleList([DecoderBlock(c) for _ in range(c.layers)])
        self.norm = RMSNorm(c.hidden, c.norm_eps)
        self.lm_head = nn.Linear(c.hidden, c.vocab, bias=False)
        # FastMTP draft head
        self.enorm = RMSNorm(c.hidden, c.norm_eps)
        self.hnorm = RMSNorm(c.hidden, c.norm_eps)
        self.eh_proj = nn.Linear(2 * c.hidden, c.hidden, bias=False)
        self.mtp_block = DecoderBlock(c)
        self.apply(self._init)

    @staticmethod
    def _init(m):
        if isinstance(m, nn.Linear):
            nn.init.normal_(m.weight, std=0.02)
            if m.bias is not None:
                nn.init.zeros_(m.bias)
        elif isinstance(m, nn.Embedding):
            nn.init.normal_(m.weight, std=0.02)

    def logits(self, h):
        # final projection in fp32 (helps the lossless guarantee)
        if torch.is_autocast_enabled():
            with torch.autocast(device_type=h.device.type, enabled=False):
                return F.linear(h.float(), self.lm_head.weight.float())
        return F.linear(h.float(), self.lm_head.weight.float())

    # -- decoder over a full sequence (training), or with a KV callback (decoding/export)
    def decoder(self, x, position_ids, mask, kv_updates=None, manual=False):
        cos, sin = rope_cos_sin(position_ids, self.c.head_dim, self.c.rope_theta)
        presents = []
        for i, layer in enumerate(self.layers):
            upd = kv_updates[i] if kv_updates is not None else no_past
            x, pr = layer(x, cos, sin, mask, upd, manual)
            presents.append(pr)
        h = self.norm(x)
        return h, presents

    def mtp_input(self, next_embeds, prev_hidden):
        return self.eh_proj(torch.cat([self.enorm(next_embeds), self.hnorm(prev_hidden)], dim=-1))

    def mtp(self, next_embeds, prev_hidden, position_ids, mask, kv_update=no_past, manual=False):
        x = self.mtp_input(next_embeds, prev_hidden)
        cos, sin = rope_cos_sin(position_ids, self.c.head_dim, self.c.rope_theta)
        x, pr = self.mtp_block(x, cos, sin, mask, kv_update, manual)
        return self.norm(x), pr


# ----------------------------------------------------------------------------- sequence helpers
def build_inputs(model: FolioOCR, vis, prompt_ids, image_token_id, text_ids=None):
    """Assemble inputs_embeds: prompt ids with a run of image tokens replaced by the visual embeddings.

    vis [B,T,H]; prompt_ids list[int] containing exactly T image tokens in a row; text_ids [B,L] or None.
    """
    B, T, H = vis.shape
    ids = torch.tensor(prompt_ids, device=vis.device)
    start = prompt_ids.index(image_token_id)
    assert all(t == image_token_id for t in prompt_ids[start:start + T])
    pre = model.embed_tokens(ids[:start]).unsqueeze(0).expand(B, -1, -1)
    post = model.embed_tokens(ids[start + T:]).unsqueeze(0).expand(B, -1, -1)
    parts = [pre.to(vis.dtype), vis, post.to(vis.dtype)]
    if text_ids is not None:
        parts.append(model.embed_tokens(text_ids).to(vis.dtype))
    return torch.cat(parts, dim=1)


def count_params(m: nn.Module):
    return sum(p.numel() for p in m.parameters())


def param_groups(model: FolioOCR):
    g = {
        "vision": count_params(model.vision),
        "embed_tokens": count_params(model.embed_tokens),
        "decoder_layers": sum(count_params(l) for l in model.layers) + count_params(model.norm),
        "lm_head": count_params(model.lm_head),
        "mtp_head": count_params(model.enorm) + count_params(model.hnorm) + count_params(model.eh_proj)
        + count_params(model.mtp_block),
    }
    g["total"] = sum(g.values())
    return g
