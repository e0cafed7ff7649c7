"""Train folio-ocr-math on the GPU machine: formula image (128x512 grey view) -> canonical LaTeX.

Same network and contract as folio-ocr-mini (train.py): the main model first (next-token loss, warm start
from the mini's weights, formulas rendered on the fly by CPU workers, half degraded on the GPU), then the
FastMTP draft head by self-distillation on the frozen model, then held-out figures (exact match after
canonicalisation, tau at K=3, speculative = greedy, PyTorch throughput at batch 1 and 16).

    python3 training/train_math.py --assets .dev/math --out $OUT --resume INIT_OR_RUN \
        --main-seconds 400 --plan-seconds 700 [--mtp-seconds 150] [--bench]

Checkpoints: fp16 state-dict parts of <= 15 MB (ckpt-*.pt), optimizer state not kept (folio_ocr/train_ops.py).
The run's phases are folio_ocr/train_run.py's, shared with train_lines.py.
"""
from __future__ import annotations

import argparse
import os
import random
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "formula"))
from folio_ocr import train_run as T  # noqa: E402
from folio_ocr.train_ops import gpu_degrade  # noqa: E402
from grammar import Gen  # noqa: E402
from latex import canonical  # noqa: E402
from render import render_mask, render_view  # noqa: E402
from gpu_views import MaskPool, compose, to_canvas  # noqa: E402

DATA = os.path.join(HERE, "formula", "data")


def read_list(name):
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(DATA, name), encoding="utf-8")][1:]
    return [r[0] for r in rows if r and r[0]]


HELD_LISTS = ("heldout-synthetic.tsv", "heldout-real.tsv", "tex-heldout.tsv")
REAL_LISTS = ("train-real.tsv", "tex-train.tsv")
SCALE = (0.8, 1.25)  # the GPU-side rescale of a CPU-rendered mask (gpu_views.compose)


def real_train_list():
    return [s for name in REAL_LISTS if os.path.exists(os.path.join(DATA, name)) for s in read_list(name)]


class FormulaStream(torch.utils.data.IterableDataset):
    """Formulas from the generator (seeded per worker and run) and, a `real_share` of them, from the real
    training lists (TeX Live manuals, KaTeX's tests), each rendered once as an ink mask at a random font set and
    size (the CPU half; the GPU places and degrades it, `gpu_views`); the held-out formulas are never drawn."""

    def __init__(self, seed, vh, vw, real_share=0.3):
        self.seed, self.vh, self.vw, self.real_share = seed, vh, vw, real_share

    def __iter__(self):
        wi = torch.utils.data.get_worker_info()
        wid = wi.id if wi else 0
        rng = random.Random(self.seed * 7919 + wid * 104729)
        gen = Gen(random.Random(self.seed * 31337 + wid))
        held = {s for name in HELD_LISTS if os.path.exists(os.path.join(DATA, name)) for s in read_list(name)}
        real = real_train_list()
        while True:
            tex = rng.choice(real) if real and rng.random() < self.real_share else gen.formula()[0]
            if tex in held:
                continue
            m = render_mask(tex, rng, self.vh, self.vw, reach=SCALE[1])
            if m is not None:
                c, hw = to_canvas(m, self.vh, self.vw)
                yield torch.from_numpy(c), torch.tensor(hw), tex


def eval_set(formulas, seed, vh, vw):
    rng = random.Random(seed)
    imgs, txts = [], []
    for s in formulas:
        v = render_view(s, rng, vh, vw)
        if v is not None:
            imgs.append(torch.from_numpy(v))
            txts.append(s)
    return torch.stack(imgs), txts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--assets", default=".dev/math")
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
    ap.add_argument("--pool-max", type=int, default=16384)
    ap.add_argument("--reuse", type=int, default=4, help="views made on the GPU from each CPU-rendered mask, on average")
    ap.add_argument("--mask-pool", type=int, default=16384, help="masks kept on the GPU for reuse")
    ap.add_argument("--real-share", type=float, default=0.3, help="share of training formulas from the real lists")
    ap.add_argument("--max-steps", type=int, default=0, help="stop the main model after this many steps (0: time only)")
    ap.add_argument("--mtp-max-steps", type=int, default=0, help="stop the draft head after this many steps (0: time only)")
    a = ap.parse_args()
    r = T.Run(a, os.path.join(a.assets, "tokenizer.json"))
    r.resume()
    c = r.c
    ev_imgs, ev_txt = eval_set(read_list("heldout-synthetic.tsv")[:a.eval_n], 4242, c.view_h, c.view_w)
    rl_imgs, rl_txt = eval_set(read_list("heldout-real.tsv"), 4243, c.view_h, c.view_w)
    tex_held = read_list("tex-heldout.tsv") if os.path.exists(os.path.join(DATA, "tex-heldout.tsv")) else []
    random.Random(4244).shuffle(tex_held)
    tx_imgs, tx_txt = eval_set(tex_held[:a.eval_n], 4244, c.view_h, c.view_w) if tex_held else (None, [])
    sets = [("clean", ev_imgs, ev_txt, False), ("degraded", ev_imgs, ev_txt, True), ("real_clean", rl_imgs, rl_txt, False)]
    if tx_txt:
        sets += [("tex_clean", tx_imgs, tx_txt, False), ("tex_degraded", tx_imgs, tx_txt, True)]

    def views(masks, hw, gen):  # CPU-rendered ink masks placed on the GPU, half of the views degraded
        return gpu_degrade(compose(masks.to(r.dev, non_blocking=True), hw.to(r.dev, non_blocking=True), gen, SCALE), 0.5, gen)

    if a.main_seconds > 0:
        ds = FormulaStream(a.seed * 100 + r.meta["seed_runs"], c.view_h, c.view_w, a.real_share)
        T.train_main(r, ds, views, MaskPool, lambda tag: T.evaluate(r, tag, sets, canonical))
    if a.mtp_seconds > 0:
        T.train_draft(r, FormulaStream(a.seed * 100 + 50 + r.meta["seed_runs"], c.view_h, c.view_w, a.real_share), views)
    if a.bench:
        r.results["bench"] = T.bench(r, sets[:2], ((1, 32), (16, 64)), "formulas_per_s", canonical)
    T.write_results(r)


if __name__ == "__main__":
    main()
