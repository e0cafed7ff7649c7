"""folio-ocr-lines: the exported folder read back as the next session will read it (`folio_ocr/from_onnx.py`), against the
checkpoint it came from (weights rounded to fp16 as exported) and onnxruntime: on held-out line views,
the visual embeddings and prefill logits agree, and greedy ids are identical. Writes `reread.json` into the
folder; exits non-zero when the ids differ (a broken export must not be committed as the next warm start).

    python3 training/lines/reread_check.py --model /tmp/lines/export --ckpt /tmp/lines/run2 --assets .dev/lines --n 8
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
sys.path.append(os.path.join(os.path.dirname(HERE), "formula"))
from folio_ocr import decode as D  # noqa: E402
from folio_ocr.export import round_weights_fp16  # noqa: E402
from folio_ocr.from_onnx import load_folio_onnx  # noqa: E402
from folio_ocr.ort_ref import OrtModel  # noqa: E402
from export_trained import load_model  # noqa: E402
from line_render import Fonts, LineSource, render_line  # noqa: E402
from folio_ocr.train_ops import to_pixels  # noqa: E402

def views(n, assets):
    """Held-out line views (documents never trained on), half of them degraded."""
    src = LineSource(os.path.join(assets, "corpus.tsv"), held=True)
    fonts = Fonts(os.path.join(assets, "fonts"))
    rng = random.Random(99)
    out = []
    while len(out) < n:
        r = render_line(rng, src, fonts, degraded=len(out) % 2 == 1, blank_share=0.0)
        if r is not None and r[1]:
            out.append((r[1], r[0]))
    return out


@torch.no_grad()
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--n", type=int, default=8)
    ap.add_argument("--assets", default=".dev/lines")
    ap.add_argument("--max-new", type=int, default=96)
    a = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    reread, meta = load_folio_onnx(a.model)
    ck, _ = load_model(a.ckpt)
    round_weights_fp16(ck)
    om = OrtModel(a.model)
    prompt, image_id, eos = meta["prompt"]["input_ids"], meta["special_tokens"]["image"], meta["special_tokens"]["eos"]
    c = reread.c
    vs = views(a.n, a.assets)
    px = to_pixels(torch.from_numpy(np.stack([v for _, v in vs])).float().unsqueeze(1)).contiguous()
    vis_r, vis_c = reread.vision(px), ck.vision(px)
    ids_r = D.greedy(reread, px, prompt, image_id, eos, max_new=a.max_new)
    ids_c = D.greedy(ck, px, prompt, image_id, eos, max_new=a.max_new)
    cases = []
    for i in range(len(vs)):
        o_ids = om.greedy(px[i:i + 1].numpy(), a.max_new, ignore_eos=False)
        cases.append({"text": vs[i][0], "reread_equals_ckpt": ids_r[i] == ids_c[i], "ort_equals_ckpt": list(o_ids) == ids_c[i]})
    rep = {"n": len(vs), "max_abs_diff_visual": float((vis_r - vis_c).abs().max()),
           "reread_ids_equal": sum(c["reread_equals_ckpt"] for c in cases),
           "ort_ids_equal": sum(c["ort_equals_ckpt"] for c in cases), "cases": cases}
    print(json.dumps({k: v for k, v in rep.items() if k != "cases"}))
    json.dump(rep, open(os.path.join(a.model, "reread.json"), "w"), indent=1)
    if rep["reread_ids_equal"] != len(vs):
        sys.exit("the re-read weights decode differently from the checkpoint")


if __name__ == "__main__":
    main()
