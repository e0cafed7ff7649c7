"""Train folio-ocr-lines on the GPU machine: one detected text line (a 128x512 view made as the TS engine's
`lineViews` makes it, 1-3 pieces of the line stacked) -> its text, pieces one per output line.

Same network and contract as folio-ocr-mini (train.py), warm-started from the mini's committed weights (same
tokenizer, every weight copied): the main model first (next-token loss, lines of real text rendered on the fly
by CPU workers, `lines/line_render.py`), then the FastMTP draft head by self-distillation on the frozen model, then
held-out figures (CER, exact lines, tau at K=3, speculative = greedy, PyTorch throughput at batch 1 and 32).

    python3 training/train_lines.py --assets .dev/lines --out $OUT/run1 --resume INIT_OR_RUN \
        --main-seconds 480 --plan-seconds 700 [--mtp-seconds 150] [--bench]

Checkpoints: fp16 state-dict parts of <= 15 MB (ckpt-*.pt), optimizer state not kept (folio_ocr/train_ops.py).
The run's phases are folio_ocr/train_run.py's, shared with train_math.py.
"""
from __future__ import annotations

import argparse
import os
import random
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "lines"))
from folio_ocr import train_run as T  # noqa: E402
from folio_ocr.train_ops import gpu_degrade  # noqa: E402
sys.path.append(os.path.join(HERE, "formula"))
from line_render import LineSource, Fonts, render_line  # noqa: E402
from gpu_views import MaskPool  # noqa: E402


class LineStream(torch.utils.data.IterableDataset):
    """Training views from the training side of the corpus (held-out documents never drawn), rendered by
    `render.render_line` in each worker with its own seed."""

    def __init__(self, seed, assets, salad_share=0.0):
        self.seed, self.assets, self.salad_share = seed, assets, salad_share

    def __iter__(self):
        wi = torch.utils.data.get_worker_info()
        wid = wi.id if wi else 0
        rng = random.Random(self.seed * 7919 + wid * 104729)
        src = LineSource(os.path.join(self.assets, "corpus.tsv"), held=False, salad_share=self.salad_share)
        fonts = Fonts(os.path.join(self.assets, "fonts"))
        while True:
            r = render_line(rng, src, fonts)
            if r is not None:
                yield torch.from_numpy(np.ascontiguousarray(r[0])), torch.tensor([128, 512]), r[1]


def eval_set(assets, n, seed, degraded):
    rng = random.Random(seed)
    src = LineSource(os.path.join(assets, "corpus.tsv"), held=True)
    fonts = Fonts(os.path.join(assets, "fonts"))
    imgs, txts = [], []
    while len(txts) < n:
        r = render_line(rng, src, fonts, degraded=degraded, blank_share=0.0)
        if r is not None and r[1]:
            imgs.append(torch.from_numpy(np.ascontiguousarray(r[0])))
            txts.append(r[1])
    return torch.stack(imgs), txts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--assets", default=".dev/lines")
    ap.add_argument("--out", required=True)
    ap.add_argument("--resume", required=True, help="a checkpoint folder (from_mini.py's warm start or a run)")
    ap.add_argument("--main-seconds", type=float, default=400)
    ap.add_argument("--plan-seconds", type=float, default=700)
    ap.add_argument("--mtp-seconds", type=float, default=0)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=6e-4)
    ap.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 4) - 2))
    ap.add_argument("--eval-n", type=int, default=256)
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-new", type=int, default=96)
    ap.add_argument("--tokenizer", default=None, help="default: <assets>/tokenizer.json")
    ap.add_argument("--pool-max", type=int, default=16384)
    ap.add_argument("--reuse", type=int, default=4, help="views made on the GPU from each CPU-rendered mask, on average")
    ap.add_argument("--mask-pool", type=int, default=16384, help="masks kept on the GPU for reuse")
    ap.add_argument("--salad", type=float, default=0.0, help="share of training lines of independent words (word salad)")
    ap.add_argument("--gpu-degrade", type=float, default=0.2, help="share of views degraded once more on the GPU")
    ap.add_argument("--max-steps", type=int, default=0, help="stop the main model after this many steps (0: time only)")
    ap.add_argument("--mtp-max-steps", type=int, default=0, help="stop the draft head after this many steps (0: time only)")
    a = ap.parse_args()
    r = T.Run(a, a.tokenizer or os.path.join(a.assets, "tokenizer.json"))
    r.resume()
    ev_imgs, ev_txt = eval_set(a.assets, a.eval_n, 4242, False)
    dg_imgs, dg_txt = eval_set(a.assets, a.eval_n, 4243, True)
    sets = [("clean", ev_imgs, ev_txt, False), ("degraded", dg_imgs, dg_txt, False)]  # degraded when rendered

    def views(masks, hw, gen):  # the CPU-rendered views, a --gpu-degrade share of them degraded once more
        return gpu_degrade(masks.to(r.dev, non_blocking=True).float().unsqueeze(1), a.gpu_degrade, gen)

    if a.main_seconds > 0:
        T.train_main(r, LineStream(a.seed * 100 + r.meta["seed_runs"], a.assets, a.salad), views, MaskPool,
                     lambda tag: T.evaluate(r, tag, sets))
    if a.mtp_seconds > 0:
        T.train_draft(r, LineStream(a.seed * 100 + 50 + r.meta["seed_runs"], a.assets), views)
    if a.bench:
        r.results["bench"] = T.bench(r, sets, ((1, 32), (32, 128)), "lines_per_s")
    T.write_results(r)


if __name__ == "__main__":
    main()
