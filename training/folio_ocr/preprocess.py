"""Exactly reproducible preprocessing (documented in folio-model.json; the TS engine mirrors it).

1. Grey: if the image has colour, L = (R*19595 + G*38470 + B*7471 + 32768) >> 16 (integer, = PIL "L").
   Alpha (if any) is composited on white first: c' = (c*a + 255*(255-a) + 127) // 255.
2. Resize to the view (H_v x W_v) only if the size differs: scale = min(W_v/w, H_v/h); new size
   (nw, nh) = (max(1, floor(w*scale)), max(1, floor(h*scale))); nearest neighbour with
   src_x = min(w-1, floor((x + 0.5) * w / nw)), same for y; placed top-left on a white (255) canvas.
3. Normalise: v = (L/255 - mean) / std with mean = 0.5, std = 0.5, replicated to 3 channels (NCHW, fp32).
"""
from __future__ import annotations

import numpy as np

MEAN = 0.5
STD = 0.5


def to_grey(arr: np.ndarray) -> np.ndarray:
    a = np.asarray(arr)
    if a.ndim == 2:
        return a.astype(np.uint8)
    a = a.astype(np.int64)
    if a.shape[2] == 4:
        al = a[..., 3:4]
        a = (a[..., :3] * al + 255 * (255 - al) + 127) // 255
    elif a.shape[2] == 2:  # LA
        al = a[..., 1]
        return ((a[..., 0] * al + 255 * (255 - al) + 127) // 255).astype(np.uint8)
    r, g, b = a[..., 0], a[..., 1], a[..., 2]
    return ((r * 19595 + g * 38470 + b * 7471 + 32768) >> 16).astype(np.uint8)


def fit_view(grey: np.ndarray, vh: int, vw: int) -> np.ndarray:
    h, w = grey.shape
    if (h, w) == (vh, vw):
        return grey
    scale = min(vw / w, vh / h)
    nw, nh = max(1, int(np.floor(w * scale))), max(1, int(np.floor(h * scale)))
    nw, nh = min(nw, vw), min(nh, vh)
    xs = np.minimum(w - 1, np.floor((np.arange(nw) + 0.5) * w / nw).astype(np.int64))
    ys = np.minimum(h - 1, np.floor((np.arange(nh) + 0.5) * h / nh).astype(np.int64))
    out = np.full((vh, vw), 255, np.uint8)
    out[:nh, :nw] = grey[ys][:, xs]
    return out


def normalise(grey: np.ndarray) -> np.ndarray:
    v = (grey.astype(np.float32) / 255.0 - MEAN) / STD
    return np.repeat(v[None, None], 3, axis=1).astype(np.float32)  # [1,3,H,W]


def preprocess(img, vh: int, vw: int) -> np.ndarray:
    """PIL image or array -> pixel_values [1,3,vh,vw] float32."""
    return normalise(fit_view(to_grey(np.asarray(img)), vh, vw))
