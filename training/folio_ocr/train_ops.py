"""The training pieces that train.py (folio-ocr-mini), train_math.py and train_lines.py share and that need no
run state: views degraded and normalised on the GPU, CER, checkpoints as fp16 parts, the FastMTP draft head's
loss, the loss plot. Scripts beside them (eval_pages, export_trained, the re-read checks) import them from here.
"""
from __future__ import annotations

import glob
import math
import os

import numpy as np
import torch
import torch.nn.functional as F


# ----------------------------------------------------------------------------- views
def gpu_degrade(x, p, gen):
    """x float [B,1,H,W] in 0..255; degrade a random fraction p (or all if p=1) on the GPU."""
    B, _, H, W = x.shape
    dev = x.device
    sel = (torch.rand(B, device=dev, generator=gen) < p).float().view(B, 1, 1, 1)
    y = x
    # rotation (skew) +-1.5 deg, bilinear, fill with the corner colour
    ang = (torch.rand(B, device=dev, generator=gen) * 3 - 1.5) * math.pi / 180
    cos, sin = torch.cos(ang), torch.sin(ang)
    theta = torch.stack([torch.stack([cos, -sin * H / W, torch.zeros_like(cos)], 1),
                         torch.stack([sin * W / H, cos, torch.zeros_like(cos)], 1)], 1)
    grid = F.affine_grid(theta, (B, 1, H, W), align_corners=False)
    bg = x[:, :, :1, :1]
    y = F.grid_sample(y - bg, grid, mode="bilinear", padding_mode="zeros", align_corners=False) + bg
    # resolution loss
    f = 0.55 + 0.3 * torch.rand(1, device=dev, generator=gen).item()
    y = F.interpolate(F.interpolate(y, scale_factor=f, mode="bilinear", align_corners=False), size=(H, W),
                      mode="bilinear", align_corners=False)
    # blur 3x3 / 5x5 gaussian with random sigma per batch
    s = 0.3 + 0.8 * torch.rand(1, device=dev, generator=gen).item()
    k = torch.arange(5, device=dev, dtype=torch.float32) - 2
    k = torch.exp(-k ** 2 / (2 * s * s))
    k = k / k.sum()
    y = F.conv2d(F.pad(y, (2, 2, 0, 0), mode="replicate"), k.view(1, 1, 1, 5))
    y = F.conv2d(F.pad(y, (0, 0, 2, 2), mode="replicate"), k.view(1, 1, 5, 1))
    # contrast loss + illumination gradient
    lo = torch.rand(B, 1, 1, 1, device=dev, generator=gen) * 60
    y = lo + y * (255 - lo) / 255
    gx = torch.linspace(0, 1, W, device=dev).view(1, 1, 1, W) * (torch.rand(B, 1, 1, 1, device=dev, generator=gen) * 50 - 25)
    y = y + gx
    # noise + speckles
    y = y + torch.randn(y.shape, device=dev, generator=gen) * (3 + 11 * torch.rand(B, 1, 1, 1, device=dev, generator=gen))
    sp = torch.rand(y.shape, device=dev, generator=gen) < 0.003
    y = torch.where(sp, torch.rand(y.shape, device=dev, generator=gen) * 120, y)
    y = y.clamp(0, 255).round()
    return sel * y + (1 - sel) * x


def sync(dev):
    if dev.type == "cuda":
        torch.cuda.synchronize()


def to_pixels(x):  # float 0..255 [B,1,H,W] -> normalised [B,3,H,W]
    return ((x / 255.0 - 0.5) / 0.5).expand(-1, 3, -1, -1)


def eval_pixels(imgs, degraded, dev):
    """Held-out views (uint8 [N,H,W]) as model input on `dev`; `degraded`: all of them degraded with the fixed
    seed 777, so every evaluation of a run sees the same degraded views."""
    x = imgs.to(dev).float().unsqueeze(1)
    if degraded:
        g = torch.Generator(device=dev)
        g.manual_seed(777)
        x = gpu_degrade(x, 1.0, g)
    return to_pixels(x)


# ----------------------------------------------------------------------------- metrics
def edit_distance(a, b):
    if not a:
        return len(b)
    if not b:
        return len(a)
    bb = np.frombuffer(np.array([ord(c) for c in b], dtype=np.int32).tobytes(), dtype=np.int32)
    idx = np.arange(len(b) + 1)
    row = idx.copy()
    for i, ca in enumerate(a, 1):
        cost = (bb != ord(ca)).astype(np.int64)
        new = np.empty_like(row)
        new[0] = i
        new[1:] = np.minimum(row[1:] + 1, row[:-1] + cost)
        row = np.minimum.accumulate(new - idx) + idx
    return int(row[-1])


def cer(preds, refs):
    e = sum(edit_distance(p, r) for p, r in zip(preds, refs))
    return e / max(1, sum(len(r) for r in refs))


# ----------------------------------------------------------------------------- checkpoints
def save_ckpt(model, meta, out, max_bytes=15_000_000):
    for f in glob.glob(os.path.join(out, "ckpt-*.pt")):
        os.remove(f)
    parts, cur, size = [], {}, 0
    for k, v in model.state_dict().items():
        t = v.detach().to("cpu", torch.float16 if v.is_floating_point() else v.dtype).clone()
        nb = t.numel() * t.element_size()
        if cur and size + nb > max_bytes:
            parts.append(cur)
            cur, size = {}, 0
        cur[k] = t
        size += nb
    parts.append(cur)
    for i, p in enumerate(parts):
        obj = {"state": p}
        if i == 0:
            obj["meta"] = meta
        torch.save(obj, os.path.join(out, f"ckpt-{i}.pt"))
    return len(parts)


def load_ckpt(d):
    state, meta = {}, None
    for f in sorted(glob.glob(os.path.join(d, "ckpt-*.pt"))):
        o = torch.load(f, map_location="cpu")
        state.update(o["state"])
        meta = o.get("meta", meta)
    return state, meta


# ----------------------------------------------------------------------------- draft head loss, plot
def mtp_loss(model, emb, Hm, ids, P0, pad, K, alphas):
    """Recursive FastMTP loss. Step 1 runs causally over the whole sequence (entry j = (x_{j+1}, h_j));
    step k>1 at position i sees the step-1 keys of positions < i and itself (as at inference)."""
    B, S, Hd = emb.shape
    dev = emb.device
    c = model.c
    L = ids.shape[1]
    total = 0.0
    accs = []
    # step 1: inputs at positions 0..S-2
    pos = torch.arange(S - 1, device=dev).view(1, -1).expand(B, -1)
    keep = {}

    def capture(k, v):
        keep["k"], keep["v"] = k, v
        return k, v, None

    g, _ = model.mtp(emb[:, 1:], Hm[:, :-1], pos, None, capture)
    n = S - 1
    eye = torch.eye(n, dtype=torch.bool, device=dev)
    strict = torch.tril(torch.ones(n, n, dtype=torch.bool, device=dev), -1)
    mask_k = torch.cat([strict, eye], 1).view(1, 1, n, 2 * n)
    for k in range(1, K + 1):
        # position i predicts the token at i+k+1 (text token index i+k+1-P0)
        # text tokens ids[:, t] sit at sequence position P0+t
        lo = P0 - 1  # first position whose prediction is a text token (for k=1: i+2-P0 >= 1)
        logits = model.logits(g[:, lo:])  # positions lo..n-1
        t_idx = torch.arange(lo, n, device=dev) + k + 1 - P0
        valid_t = t_idx < L
        tgt = torch.full((B, n - lo), pad, dtype=torch.long, device=dev)
        tgt[:, valid_t] = ids[:, t_idx[valid_t]]
        m = tgt != pad
        if m.any():
            loss_k = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt.reshape(-1), ignore_index=pad)
            total = total + alphas[k - 1] * loss_k
            accs.append((((logits.argmax(-1) == tgt) & m).sum() / m.sum()).item())
        if k == K:
            break
        # next step input: embedding of the token at i+k+1 (shift emb by k+1), hidden g
        nxt = torch.cat([emb[:, k + 1:], emb[:, -1:].expand(-1, k, -1)], 1)[:, :n]
        k1, v1 = keep["k"], keep["v"]

        def with_step1(kk, vv, k1=k1, v1=v1):
            return torch.cat([k1, kk], 2), torch.cat([v1, vv], 2), None

        g, _ = model.mtp(nxt, g, pos + k, mask_k, with_step1)
    return total, accs


def plot(meta, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:
        return
    fig, ax = plt.subplots(1, 3, figsize=(15, 4))
    lg = meta["log"]
    if lg:
        ax[0].plot([r["step"] for r in lg], [r["loss"] for r in lg], lw=0.8)
        ax[0].set_yscale("log")
        ax[0].set_title("main model: next-token loss")
        ax[0].set_xlabel("step")
        ax2 = ax[0].twinx()
        ax2.plot([r["step"] for r in lg], [r["stage"] for r in lg], "r--", lw=0.8)
        ax2.set_ylabel("curriculum stage")
        ax[1].plot([r["step"] for r in lg], [r["acc"] for r in lg], lw=0.8, label="teacher-forced token acc")
        for e in meta["evals"]:
            ax[1].scatter([e["step"]], [1 - e["cer_clean"]], c="g", marker="o")
            ax[1].scatter([e["step"]], [1 - e["cer_degraded"]], c="r", marker="x")
        ax[1].set_title("accuracy; dots: 1-CER held-out (g clean, r degraded)")
        ax[1].set_ylim(0, 1)
    ml = meta.get("mtp_log", [])
    if ml:
        ax[2].plot([r["mtp_step"] for r in ml], [r["loss"] for r in ml], lw=0.8, label="weighted loss")
        for k in range(len(ml[0]["acc"])):
            ax[2].plot([r["mtp_step"] for r in ml], [r["acc"][k] if k < len(r["acc"]) else None for r in ml],
                       lw=0.8, label=f"acc draft {k + 1}")
        ax[2].legend()
        ax[2].set_title("FastMTP head (self-distillation)")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
