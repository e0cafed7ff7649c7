"""Batched greedy and speculative (FastMTP draft + greedy verification) decoding in PyTorch.

Caches are preallocated [B, L, kv, d] buffers with a per-sample length; a rollback is just a
length change (stale entries are masked). Speculative output is greedy output token for token
(up to floating-point ties); `speculative` also returns acceptance statistics.
"""
from __future__ import annotations

import torch

from .model import FolioOCR, build_inputs


class KV:
    def __init__(self, B, L, c, device, dtype):
        self.k = torch.zeros(B, L, c.kv_heads, c.head_dim, device=device, dtype=dtype)
        self.v = torch.zeros_like(self.k)

    def updater(self, start):  # start [B] write offsets
        def upd(k, v):
            B, _, S, _ = k.shape
            idx = start.view(B, 1) + torch.arange(S, device=k.device).view(1, S)
            b = torch.arange(B, device=k.device).view(B, 1).expand(B, S)
            self.k[b, idx] = k.transpose(1, 2).to(self.k.dtype)
            self.v[b, idx] = v.transpose(1, 2).to(self.v.dtype)
            return self.k.transpose(1, 2), self.v.transpose(1, 2), None
        return upd


def step_mask(start, S, L):
    # query s of sample b sits at absolute position start[b]+s; it sees keys j <= start[b]+s
    q = start.view(-1, 1, 1) + torch.arange(S, device=start.device).view(1, S, 1)
    j = torch.arange(L, device=start.device).view(1, 1, L)
    return (j <= q).unsqueeze(1)


def positions(start, S):
    return start.view(-1, 1) + torch.arange(S, device=start.device).view(1, S)


@torch.no_grad()
def prefill(model: FolioOCR, pixel_values, prompt_ids, image_id, max_new, extra=0):
    c = model.c
    vis = model.vision(pixel_values)
    x = build_inputs(model, vis, prompt_ids, image_id)
    B, P0, _ = x.shape
    L = P0 + max_new + extra + 2
    dev = x.device
    caches = [KV(B, L, c, dev, x.dtype) for _ in range(c.layers)]
    zero = torch.zeros(B, dtype=torch.long, device=dev)
    h, _ = model.decoder(x, positions(zero, P0), step_mask(zero, P0, L), [kv.updater(zero) for kv in caches])
    return x, h, caches, L


@torch.no_grad()
def greedy(model: FolioOCR, pixel_values, prompt_ids, image_id, eos_id, max_new=128, ignore_eos=False, on_prefilled=None):
    """`on_prefilled()` is called once the prompt is in the caches and the first token chosen (a benchmark's clock)."""
    x, h, caches, L = prefill(model, pixel_values, prompt_ids, image_id, max_new)
    B, P0, _ = x.shape
    dev = x.device
    tok = model.logits(h[:, -1]).argmax(-1)
    if on_prefilled is not None:
        on_prefilled()
    out = [tok]
    done = tok == eos_id
    cur = torch.full((B,), P0, dtype=torch.long, device=dev)
    for _ in range(max_new - 1):
        if not ignore_eos and bool(done.all()):
            break
        e = model.embed_tokens(tok).unsqueeze(1).to(x.dtype)
        h, _ = model.decoder(e, positions(cur, 1), step_mask(cur, 1, L), [kv.updater(cur) for kv in caches])
        tok = model.logits(h[:, -1]).argmax(-1)
        out.append(tok)
        done = done | (tok == eos_id)
        cur = cur + 1
    ids = torch.stack(out, 1).tolist()
    return [trim(r, eos_id, ignore_eos) for r in ids]


def trim(r, eos_id, ignore_eos=False):
    if not ignore_eos and eos_id in r:
        return r[: r.index(eos_id) + 1]
    return r


@torch.no_grad()
def speculative(model: FolioOCR, pixel_values, prompt_ids, image_id, eos_id, max_new=128, K=None):
    c = model.c
    K = K or c.mtp_k
    x, h, caches, L = prefill(model, pixel_values, prompt_ids, image_id, max_new, extra=K + 2)
    B, P0, _ = x.shape
    dev = x.device
    mcache = KV(B, L, c, dev, x.dtype)
    zero = torch.zeros(B, dtype=torch.long, device=dev)
    # mtp prefill: entries for positions 0..P0-2 (next embeds = x[1:], hidden = h[:-1])
    model.mtp(x[:, 1:], h[:, :-1], positions(zero, P0 - 1), step_mask(zero, P0 - 1, L), mcache.updater(zero))
    nxt = model.logits(h[:, -1]).argmax(-1)  # token at position P0
    hprev = h[:, -1]  # main hidden at position P0-1
    Lc = torch.full((B,), P0, dtype=torch.long, device=dev)  # main cache length
    outs = [[int(t)] for t in nxt.tolist()]
    done = [int(t) == eos_id for t in nxt.tolist()]
    steps = [0] * B
    accepted_hist = [[0] * (K + 1) for _ in range(B)]  # count of steps with exactly a accepted
    # first draft input (S=1) at position L-1
    d_emb = model.embed_tokens(nxt).unsqueeze(1).to(x.dtype)
    d_hid = hprev.unsqueeze(1)
    d_start = Lc - 1
    sel = torch.zeros(B, dtype=torch.long, device=dev)
    ar = torch.arange(B, device=dev)
    while not all(done) and min(len(o) for o, d in zip(outs, done) if not d) < max_new:
        # ---- draft K tokens by recursion
        S = d_emb.shape[1]
        g, _ = model.mtp(d_emb, d_hid, positions(d_start, S), step_mask(d_start, S, L), mcache.updater(d_start))
        g = g[ar, sel]  # [B,H]
        drafts = []
        for k in range(K):
            dk = model.logits(g).argmax(-1)
            drafts.append(dk)
            if k == K - 1:
                break
            p = Lc + k  # position of this draft step's input
            g, _ = model.mtp(model.embed_tokens(dk).unsqueeze(1).to(x.dtype), g.unsqueeze(1), positions(p, 1),
                             step_mask(p, 1, L), mcache.updater(p))
            g = g[:, 0]
        # ---- verify [nxt, d1..dK] at positions Lc..Lc+K
        seq = torch.stack([nxt] + drafts, 1)  # [B,K+1]
        e = model.embed_tokens(seq).to(x.dtype)
        hv, _ = model.decoder(e, positions(Lc, K + 1), step_mask(Lc, K + 1, L), [kv.updater(Lc) for kv in caches])
        o = model.logits(hv).argmax(-1)  # [B,K+1]; o[:,i] predicts the token after seq[:,i]
        match = (o[:, :K] == seq[:, 1:]).long()
        a = match.cumprod(1).sum(1)  # accepted drafts per sample
        new_nxt = o[ar, a]
        # ---- commit
        a_l, nn_l, seq_l = a.tolist(), new_nxt.tolist(), seq.tolist()
        for b in range(B):
            if done[b]:
                continue
            steps[b] += 1
            accepted_hist[b][a_l[b]] += 1
            new = seq_l[b][1:1 + a_l[b]] + [nn_l[b]]
            for t in new:
                outs[b].append(t)
                if t == eos_id or len(outs[b]) >= max_new:
                    done[b] = True
                    break
        # ---- next draft input: mtp entries for positions Lc..Lc+a (catch-up), output at index a
        nt = torch.cat([seq[:, 1:], seq[:, :1]], 1).clone()
        nt[ar, a] = new_nxt
        d_emb = model.embed_tokens(nt).to(x.dtype)
        d_hid = hv
        d_start = Lc.clone()
        sel = a
        live = torch.tensor([not d for d in done], device=dev)
        Lc = torch.where(live, Lc + a + 1, Lc)  # finished samples stay put (their writes stay in bounds)
        nxt = new_nxt
    ids = [trim(o, eos_id)[:max_new] for o in outs]
    stats = {"steps": steps, "hist": accepted_hist, "tokens": [len(i) for i in ids]}
    return ids, stats
