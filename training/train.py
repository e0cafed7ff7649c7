"""Train folio-ocr-mini on the GPU machine: main model (next-token loss, curriculum), then the FastMTP
draft head by self-distillation (K=3, beta=0.6), with held-out CER, acceptance and throughput figures.

    python3 training/train.py --assets .dev/ocr --out $OUT --main-seconds 420 [--resume DIR]
        [--mtp-seconds 120] [--bench]

Checkpoints are fp16 state-dict parts of <=15 MB (ckpt-*.pt) so they come back through $OUT; the
optimizer state is not kept (a resumed run warms up again for 100 steps).
"""
from __future__ import annotations

import argparse
import glob
import json
import math
import os
import random
import sys
import time

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "synth"))
from folio_ocr.model import FolioConfig, FolioOCR, build_inputs, param_groups  # noqa: E402
from folio_ocr import decode as D  # noqa: E402
from folio_ocr import train_run as T  # noqa: E402
from folio_ocr.train_ops import cer, eval_pixels, gpu_degrade, load_ckpt, save_ckpt, to_pixels  # noqa: E402
from blocks import TextSource, Fonts, render_block  # noqa: E402

MINI = dict(view_h=128, view_w=512, hidden=384, layers=4, heads=6, kv_heads=2, head_dim=64, mlp=1024,
            vis_layers=2, vis_heads=6, max_pos=1024)


# ----------------------------------------------------------------------------- data
class BlockStream(torch.utils.data.IterableDataset):
    def __init__(self, assets, seed, stage_val):
        self.assets, self.seed, self.stage_val = assets, seed, stage_val

    def __iter__(self):
        wi = torch.utils.data.get_worker_info()
        wid = wi.id if wi else 0
        rng = random.Random(self.seed * 7919 + wid * 104729 + int(time.time() * 1000) % 100000)
        src = TextSource(os.path.join(self.assets, "corpus")).split(held_out=False)
        fonts = Fonts(os.path.join(self.assets, "fonts"))
        while True:
            arr, txt = render_block(rng, src, fonts, stage=int(self.stage_val.value), degrade=False)
            yield torch.from_numpy(arr.copy()), txt


def collate(b):
    return torch.stack([x[0] for x in b]), [x[1] for x in b]


def make_eval_set(assets, n, seed, stage=2):
    rng = random.Random(seed)
    src = TextSource(os.path.join(assets, "corpus")).split(held_out=True)
    fonts = Fonts(os.path.join(assets, "fonts"))
    imgs, txts = [], []
    for _ in range(n):
        a, t = render_block(rng, src, fonts, stage=stage, degrade=False)
        imgs.append(torch.from_numpy(a.copy()))
        txts.append(t)
    return torch.stack(imgs), txts


# ----------------------------------------------------------------------------- auxiliary CTC (training only)
class CTCHead(torch.nn.Module):
    """Reads a single text line straight off the visual grid (max over rows, 2 frames per column).
    Training-only auxiliary loss that teaches the encoder to read; not exported."""
    NC = 97  # 0 blank, 1..95 printable ASCII, 96 other

    def __init__(self, hidden):
        super().__init__()
        self.proj = torch.nn.Linear(hidden, 2 * self.NC)

    def forward(self, grid):  # [N,gh,gw,H] -> log-probs [T=2*gw, N, NC]
        f = grid.float().amax(1)
        lg = self.proj(f).view(f.shape[0], -1, self.NC)
        return lg.log_softmax(-1).transpose(0, 1)

    @staticmethod
    def labels(txt):
        return [ord(ch) - 31 if 32 <= ord(ch) < 127 else 96 for ch in txt]


# ----------------------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--assets", default=".dev/ocr")
    ap.add_argument("--out", required=True)
    ap.add_argument("--resume", default=None)
    ap.add_argument("--main-seconds", type=float, default=420)
    ap.add_argument("--plan-seconds", type=float, default=780, help="total main-training seconds over all runs")
    ap.add_argument("--mtp-seconds", type=float, default=0)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 4) - 2))
    ap.add_argument("--eval-n", type=int, default=256)
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-new", type=int, default=160)
    ap.add_argument("--ctc", type=float, default=0.5)
    ap.add_argument("--stage-max", type=int, default=2)
    ap.add_argument("--pool-max", type=int, default=12288)
    a = ap.parse_args()
    r = T.Run(a, os.path.join(a.assets, "tokenizer.json"))
    dev, DT, tok, pad, eos, image_id = r.dev, r.dev.type, r.tok, r.pad, r.eos, r.image_id
    meta = {"step": 0, "elapsed": 0.0, "stage": 0, "log": [], "evals": [], "mtp_log": [], "seed_runs": 0}
    c = FolioConfig(vocab=tok.get_vocab_size(), **MINI)
    model = FolioOCR(c)
    if a.resume and glob.glob(os.path.join(a.resume, "ckpt-*.pt")):
        state, meta = load_ckpt(a.resume)
        c = FolioConfig.from_dict(meta["config"])
        model = FolioOCR(c)
        model.load_state_dict({k: v.float() for k, v in state.items()})
        print("resumed", meta["step"], "steps", meta["elapsed"], "s stage", meta["stage"], flush=True)
    meta["config"] = c.to_dict()
    meta["seed_runs"] = meta.get("seed_runs", 0) + 1
    r.attach(model, meta)
    print("params", param_groups(model), flush=True)
    prompt, P0, results = r.prompt, r.P0, r.results

    # ---- held-out eval sets (prose from held-out paragraphs, fixed seeds)
    ev_imgs, ev_txt = make_eval_set(a.assets, a.eval_n, 12345, stage=2)
    ev1_imgs, ev1_txt = make_eval_set(a.assets, min(128, a.eval_n), 54321, stage=0)

    def run_eval(tag):
        model.eval()
        out = {"tag": tag, "step": meta["step"], "elapsed": meta["elapsed"]}
        samples = {}
        for name, imgs, txts, deg in [("clean", ev_imgs, ev_txt, False), ("degraded", ev_imgs, ev_txt, True),
                                      ("one_line_clean", ev1_imgs, ev1_txt, False)]:
            preds = []
            for i in range(0, len(imgs), 128):
                px = eval_pixels(imgs[i:i + 128], deg, dev)
                if DT == "cpu" and i > 0:
                    break
                with torch.autocast(DT, dtype=torch.bfloat16):
                    ids = D.greedy(model, px, prompt, image_id, eos, max_new=a.max_new)
                preds += [tok.decode([t for t in row if t != eos]) for row in ids]
            out["cer_" + name] = cer(preds, txts)
            zh_idx = [i for i, t in enumerate(txts) if any('\u4e00' <= ch <= '\u9fff' for ch in t)]
            if zh_idx and name != "one_line_clean":
                out["cer_" + name + "_zh"] = cer([preds[i] for i in zh_idx], [txts[i] for i in zh_idx])
                en_idx = [i for i in range(len(txts)) if i not in set(zh_idx)]
                out["cer_" + name + "_en"] = cer([preds[i] for i in en_idx], [txts[i] for i in en_idx])
            samples[name] = [(txts[i], preds[i]) for i in range(3)]
        print("EVAL", json.dumps(out), flush=True)
        for k, v in samples.items():
            for ref, p in v:
                print(f"  [{k}] REF {ref!r}\n  [{k}] OUT {p!r}", flush=True)
        model.train()
        return out

    # ---- main training
    if a.main_seconds > 0:
        import multiprocessing as mp
        stage_val = mp.Value("i", int(meta["stage"]))
        ds = BlockStream(a.assets, a.seed * 100 + meta["seed_runs"], stage_val)
        dl = torch.utils.data.DataLoader(ds, batch_size=a.batch, num_workers=a.workers, collate_fn=collate,
                                         prefetch_factor=6, persistent_workers=True, pin_memory=DT == "cuda")
        params = [p for n, p in model.named_parameters() if not n.startswith(T.DRAFT_HEAD)]
        ctc_head = CTCHead(c.hidden).to(dev)
        params = params + list(ctc_head.parameters())
        opt = torch.optim.AdamW(params, lr=a.lr, betas=(0.9, 0.98), weight_decay=0.05, fused=DT == "cuda")
        gen = torch.Generator(device=dev)
        gen.manual_seed(a.seed + meta["step"])
        model.train()
        t0 = time.time()
        e0 = meta["elapsed"]
        it = iter(dl)
        acc_ema, loss_ema, nsamp, s_local = 0.0, 0.0, 0, 0
        data_wait = 0.0
        while time.time() - t0 < a.main_seconds:
            tw = time.time()
            imgs, txts = next(it)
            data_wait += time.time() - tw
            el = e0 + (time.time() - t0)
            frac = min(1.0, el / a.plan_seconds)
            lr = a.lr * min(1.0, (s_local + 1) / 100) * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * frac)))
            for g in opt.param_groups:
                g["lr"] = lr
            ids = r.targets(txts, 200)
            x = imgs.to(dev, non_blocking=True).float().unsqueeze(1)
            x = gpu_degrade(x, 0.5, gen)
            with torch.autocast(DT, dtype=torch.bfloat16):
                vis, grid = model.vision(to_pixels(x), return_grid=True)
                emb = build_inputs(model, vis, prompt, image_id, text_ids=ids[:, :-1])
                S = emb.shape[1]
                pos = torch.arange(S, device=dev).view(1, S).expand(emb.shape[0], S)
                h, _ = model.decoder(emb, pos, None)
                logits = model.logits(h[:, P0 - 1:])
            tgt = ids
            m = tgt != pad
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt.reshape(-1), ignore_index=pad)
            ctc_loss = torch.zeros((), device=dev)
            if a.ctc > 0:
                one = [i for i, t in enumerate(txts) if "\n" not in t and 0 < len(t) <= 60]
                if one:
                    lp = ctc_head(grid[one])
                    labs = [CTCHead.labels(txts[i]) for i in one]
                    flat = torch.tensor([l for lab in labs for l in lab], dtype=torch.long, device=dev)
                    ctc_loss = F.ctc_loss(lp, flat, torch.full((len(one),), lp.shape[0], dtype=torch.long),
                                          torch.tensor([len(l) for l in labs], dtype=torch.long), blank=0,
                                          reduction="mean", zero_infinity=True)
                    loss_total = loss + a.ctc * ctc_loss
            if a.ctc <= 0 or not one:
                loss_total = loss
            opt.zero_grad(set_to_none=True)
            loss_total.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step()
            s_local += 1
            meta["step"] += 1
            nsamp += len(txts)
            if s_local % 25 == 0:
                with torch.no_grad():
                    acc = ((logits.argmax(-1) == tgt) & m).sum().item() / m.sum().item()
                lv = loss.item()
                acc_ema = acc if acc_ema == 0 else 0.8 * acc_ema + 0.2 * acc
                rec = {"step": meta["step"], "elapsed": round(el, 1), "loss": round(lv, 4), "acc": round(acc, 4),
                       "stage": int(stage_val.value), "lr": lr, "ctc": round(float(ctc_loss), 4)}
                meta["log"].append(rec)
                if s_local % 100 == 0:
                    rate = nsamp / (time.time() - t0)
                    print(json.dumps(rec), f"samples/s {rate:.0f} data_wait {data_wait:.1f}s", flush=True)
                # adaptive curriculum on teacher-forced token accuracy
                if stage_val.value < a.stage_max and acc_ema > 0.92 and s_local > 200:
                    stage_val.value += 1
                    acc_ema = 0.0
                    print("STAGE ->", stage_val.value, "at step", meta["step"], flush=True)
        meta["elapsed"] = e0 + (time.time() - t0)
        meta["stage"] = int(stage_val.value)
        print(f"main: {s_local} steps in {time.time() - t0:.0f}s, data wait {data_wait:.0f}s", flush=True)
        del dl, it
        meta["evals"].append(run_eval("main"))
        save_ckpt(model, meta, a.out)

    # ---- FastMTP draft head: self-distillation on the frozen model's greedy outputs
    K = c.mtp_k
    if a.mtp_seconds > 0:
        t0 = time.time()
        mparams = T.draft_params(model, meta)
        rng = random.Random(999)
        src = TextSource(os.path.join(a.assets, "corpus")).split(held_out=False)
        fonts = Fonts(os.path.join(a.assets, "fonts"))
        gen = torch.Generator(device=dev)
        gen.manual_seed(4242)

        def views():  # fresh last-stage training blocks, half of them degraded
            while True:
                imgs = torch.stack([torch.from_numpy(render_block(rng, src, fonts, stage=2, degrade=False)[0].copy())
                                    for _ in range(min(512, a.pool_max))])
                yield gpu_degrade(imgs.to(dev).float().unsqueeze(1), 0.5, gen)

        pool = T.distil_pool(r, views(), t0)
        print(f"mtp: self-distillation pool {pool[2]} greedy outputs in {time.time() - t0:.0f}s", flush=True)
        T.train_draft_head(r, mparams, pool, t0, 161, 100)

    # ---- speculative decoding: tau, per-position acceptance, equality with greedy, throughput
    if a.bench:
        T.exported_numerics(model)
        bench = {"gpu": torch.cuda.get_device_name(0) if DT == "cuda" else "cpu", "precision": "fp32 compute, fp16-rounded weights, TF32 off",
                 "K": K, "batch": 32}
        for name, deg in [("clean", False), ("degraded", True)]:
            st = T.acceptance(r, eval_pixels(ev_imgs, deg, dev), K)
            acc_pos, tot_steps = st["accepted"], st["steps"]
            bench[name] = {"tau": st["tokens"] / max(1, tot_steps),
                           "accept_rate_per_position": [x / max(1, tot_steps) for x in acc_pos],
                           "accept_rate_conditional": [acc_pos[0] / max(1, tot_steps)] +
                           [acc_pos[k] / max(1, acc_pos[k - 1]) for k in range(1, K)],
                           "speculative_equals_greedy": st["same"] / max(1, st["n"]), "n": st["n"]}
            print("BENCH", name, json.dumps(bench[name]), flush=True)
        # throughput at batch 32 (views/s), median of 3 passes over 128 held-out clean blocks
        NT = min(128, len(ev_imgs))
        px_all = eval_pixels(ev_imgs[:NT], False, dev)
        for mode in ("greedy", "speculative"):
            med, ntok, times = T.decode_time(r, px_all, 32, mode, K)
            bench["throughput_" + mode] = {"views_per_s": NT / med, "tokens_per_s": ntok / med, "times": times}
            print("THROUGHPUT", mode, json.dumps(bench["throughput_" + mode]), flush=True)
        bench["speedup"] = bench["throughput_speculative"]["views_per_s"] / bench["throughput_greedy"]["views_per_s"]
        results["bench"] = bench
    T.write_results(r)


if __name__ == "__main__":
    main()
