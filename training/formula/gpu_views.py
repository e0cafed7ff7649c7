"""The GPU half of the training views: ink masks rendered once on the CPU, placed many times on the GPU.

Profiling the renderer (`bench_render.py`, cProfile) puts ~84% of a view's CPU time inside mathtext's parse
(pyparsing's own code alone ~55%, the rest the layout actions and builtins it calls), ~5% in font lookup and
~1% in rasterising and placing the ink; caching the small pieces that recur (matrix cells, delimiters) gave
nothing measurable. The layout cannot be shared between sizes (mathtext lays out at a size), so the CPU
renders each formula's ink mask once (`render.render_mask`) and the GPU makes the views from it: a random scale (size variety on
top of the CPU's font size), position, crop padding, paper and ink tone (`compose`, as `render_view` does
on the CPU), then `folio_ocr.train_ops.gpu_degrade`. `MaskPool` keeps the latest masks on the GPU so that every mask is
drawn `reuse` times on average, in different batches, each time with new placement and degradation.
"""
from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F


def to_canvas(mask, view_h, view_w):
    """A mask (uint8 [h, w], fitted to the view) top-left on a zero canvas [view_h, view_w], and (h, w)."""
    c = np.zeros((view_h, view_w), np.uint8)
    h, w = min(mask.shape[0], view_h), min(mask.shape[1], view_w)
    c[:h, :w] = mask[:h, :w]
    return c, (h, w)


def _u(n, lo, hi, gen, dev):
    return lo + (hi - lo) * torch.rand(n, device=dev, generator=gen)


def compose(masks, hw, gen, scale=(0.8, 1.25)):
    """Views (float [B,1,H,W], 0..255) from canvases `masks` (uint8 [B,H,W], ink top-left) of ink sizes `hw`
    (long [B,2]): each scaled by a random factor in `scale` (capped so the ink fits with a margin, and not
    below a 6 px high formula), on a crop of paper tone 215..255 padded 0..30 / 0..60 px around it, the rest
    of the view white (as `preprocess.fit_view` pads a crop), ink tone 0..70."""
    B, H, W = masks.shape
    dev = masks.device
    h, w = hw[:, 0].float(), hw[:, 1].float()
    margin = torch.randint(1, 11, (B,), device=dev, generator=gen).float()
    fit = torch.minimum((W - 2 * margin) / w, (H - 2 * margin) / h)
    s = torch.minimum(_u(B, *scale, gen, dev), fit)
    s = torch.maximum(s, torch.minimum(fit, 6.0 / h))
    hs, ws = h * s, w * s
    ch = torch.minimum(torch.full_like(hs, H), hs + 2 * margin + _u(B, 0, 1, gen, dev) * (H - hs - 2 * margin).clamp(0, 30))
    cw = torch.minimum(torch.full_like(ws, W), ws + 2 * margin + _u(B, 0, 1, gen, dev) * (W - ws - 2 * margin).clamp(0, 60))
    y = margin + _u(B, 0, 1, gen, dev) * (ch - hs - 2 * margin).clamp(min=0)
    x = margin + _u(B, 0, 1, gen, dev) * (cw - ws - 2 * margin).clamp(min=0)
    y, x = y.round(), x.round()
    # output pixel centre X+0.5 reads the mask at (X+0.5-x)/s (affine_grid's normalised coordinates)
    theta = torch.zeros(B, 2, 3, device=dev)
    theta[:, 0, 0] = 1 / s
    theta[:, 0, 2] = 1 / s - 1 - 2 * x / (s * W)
    theta[:, 1, 1] = 1 / s
    theta[:, 1, 2] = 1 / s - 1 - 2 * y / (s * H)
    grid = F.affine_grid(theta, (B, 1, H, W), align_corners=False)
    a = F.grid_sample(masks.unsqueeze(1).float() / 255.0, grid, mode="bilinear", padding_mode="zeros",
                      align_corners=False)
    ys = torch.arange(H, device=dev).view(1, 1, H, 1)
    xs = torch.arange(W, device=dev).view(1, 1, 1, W)
    inside = (ys < ch.view(B, 1, 1, 1)) & (xs < cw.view(B, 1, 1, 1))
    paper = torch.randint(215, 256, (B, 1, 1, 1), device=dev, generator=gen).float()
    ink = torch.randint(0, 71, (B, 1, 1, 1), device=dev, generator=gen).float()
    base = torch.where(inside, paper, torch.full_like(paper, 255.0))
    return (base * (1 - a) + ink * a).round()


class MaskPool:
    """A ring of the latest CPU-rendered masks on the GPU. Each training step adds the B/reuse masks that
    arrived and draws B at random from the pool, so a mask is used `reuse` times on average (pool size /
    arrivals per step steps in the pool, B / pool size chance a step)."""

    def __init__(self, size, view_h, view_w, device):
        self.masks = torch.zeros(size, view_h, view_w, dtype=torch.uint8, device=device)
        self.hw = torch.zeros(size, 2, dtype=torch.long, device=device)
        self.texts = [""] * size
        self.size, self.n, self.head = size, 0, 0

    def add(self, masks, hw, texts):
        k = masks.shape[0]
        idx = (torch.arange(k) + self.head) % self.size
        self.masks[idx.to(self.masks.device)] = masks.to(self.masks.device, non_blocking=True)
        self.hw[idx.to(self.hw.device)] = hw.to(self.hw.device, non_blocking=True)
        for i, t in zip(idx.tolist(), texts):
            self.texts[i] = t
        self.head = (self.head + k) % self.size
        self.n = min(self.size, self.n + k)

    def sample(self, b, gen_cpu):
        idx = torch.randint(0, self.n, (b,), generator=gen_cpu)
        d = idx.to(self.masks.device)
        return self.masks[d], self.hw[d], [self.texts[i] for i in idx.tolist()]
