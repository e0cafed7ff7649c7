"""Train folio-ocr-lines on the GPU machine: one detected text line (a 128x512 view made as the TS engine's
`lineViews` makes it, 1-3 pieces of the line stacked) -> its text, pieces one per output line.

Same network and contract as folio-ocr-mini (train.py), warm-started from the mini's committed weights (same
tokenizer, every weight copied): the main model first (next-token loss, lines of real text rendered on the fly
by CPU workers, `lines/line_render.py`), then the FastMTP draft head by self-distillation on the frozen model, then
held-out figures (CER, exact lines, tau at K=3, speculative = greedy, PyTorch throughput at batch 1 and 32).

    python3 training/train_lines.py --assets .dev/lines --out $OUT/run1 --resume INIT_OR_RUN \
        --main-seconds 480 --plan-seconds 700 [--mtp-seconds 150] [--bench]

Checkpoints: fp16 state-dict parts of <= 15 MB (ckpt-*.pt), optimizer state not kept (train.py's format).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "lines"))
from folio_ocr.model import FolioConfig, FolioOCR, build_inputs, param_groups  # noqa: E402
from folio_ocr.tokenizer import prompt_ids  # noqa: E402
from folio_ocr import decode as D  # noqa: E402
sys.path.append(os.path.join(HERE, "formula"))
from train import gpu_degrade, save_ckpt, load_ckpt, mtp_loss, plot, sync, to_pixels, cer  # noqa: E402
from line_render import LineSource, Fonts, render_line  # noqa: E402
from gpu_views import MaskPool  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402


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


def collate(b):
    return torch.stack([x[0] for x in b]), torch.stack([x[1] for x in b]), [x[2] for x in b]


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
    os.makedirs(a.out, exist_ok=True)
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    DT = dev.type
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    tok = Tokenizer.from_file(a.tokenizer or os.path.join(a.assets, "tokenizer.json"))
    pad, eos, image_id = tok.token_to_id("<|pad|>"), tok.token_to_id("<|eos|>"), tok.token_to_id("<image>")
    state, meta = load_ckpt(a.resume)
    c = FolioConfig.from_dict(meta["config"])
    assert c.vocab == tok.get_vocab_size(), (c.vocab, tok.get_vocab_size())
    model = FolioOCR(c)
    model.load_state_dict({k: v.float() for k, v in state.items()})
    print("resumed", meta["step"], "steps", round(meta["elapsed"]), "s,", meta.get("mtp_steps", 0), "mtp steps", flush=True)
    meta["seed_runs"] = meta.get("seed_runs", 0) + 1
    model.to(dev)
    prompt = prompt_ids(tok, c.tokens_per_view)
    P0 = len(prompt)
    results = {"params": param_groups(model)}
    ev_imgs, ev_txt = eval_set(a.assets, a.eval_n, 4242, False)
    dg_imgs, dg_txt = eval_set(a.assets, a.eval_n, 4243, True)
    g_eval = torch.Generator(device=dev)

    def pixels(imgs, degraded):
        x = imgs.to(dev).float().unsqueeze(1)
        if degraded:
            g_eval.manual_seed(777)
            x = gpu_degrade(x, 1.0, g_eval)
        return to_pixels(x)

    def read(px, bs=128):
        out = []
        for i in range(0, len(px), bs):
            with torch.autocast(DT, dtype=torch.bfloat16):
                ids = D.greedy(model, px[i:i + bs], prompt, image_id, eos, max_new=a.max_new)
            out += [tok.decode([t for t in r if t != eos]) for r in ids]
        return out

    def run_eval(tag):
        model.eval()
        out = {"tag": tag, "step": meta["step"], "elapsed": round(meta["elapsed"], 1)}
        sets = [("clean", ev_imgs, ev_txt, False), ("degraded", dg_imgs, dg_txt, False)]
        for name, imgs, txts, deg in sets:
            preds = read(pixels(imgs, deg))
            out["exact_" + name] = sum(p == t for p, t in zip(preds, txts)) / len(txts)
            out["cer_" + name] = cer(preds, txts)
            for r, p in list(zip(txts, preds))[:2]:
                print(f"  [{name}] REF {r}\n  [{name}] OUT {p}", flush=True)
        print("EVAL", json.dumps(out), flush=True)
        model.train()
        return out

    # ---- main model
    if a.main_seconds > 0:
        ds = LineStream(a.seed * 100 + meta["seed_runs"], a.assets, a.salad)
        cpu_batch = max(1, a.batch // a.reuse)
        dl = torch.utils.data.DataLoader(ds, batch_size=cpu_batch, num_workers=a.workers, collate_fn=collate,
                                         pin_memory=DT == "cuda",
                                         **({"prefetch_factor": 8, "persistent_workers": True} if a.workers > 0 else {}))
        pool = MaskPool(max(a.mask_pool, a.batch), c.view_h, c.view_w, dev) if a.reuse > 1 else None
        gen_cpu = torch.Generator()
        gen_cpu.manual_seed(a.seed * 7 + meta["step"])
        params = [p for n, p in model.named_parameters() if not n.startswith(("enorm", "hnorm", "eh_proj", "mtp_block"))]
        opt = torch.optim.AdamW(params, lr=a.lr, betas=(0.9, 0.98), weight_decay=0.05, fused=DT == "cuda")
        gen = torch.Generator(device=dev)
        gen.manual_seed(a.seed + meta["step"])
        model.train()
        t0, e0 = time.time(), meta["elapsed"]
        it = iter(dl)
        s_local, nsamp, nfresh, data_wait = 0, 0, 0, 0.0
        while time.time() - t0 < a.main_seconds and not (a.max_steps and s_local >= a.max_steps):
            tw = time.time()
            masks, hw, txts = next(it)
            nfresh += len(txts)
            if pool is not None:
                pool.add(masks, hw, txts)
                while pool.n < min(pool.size, 2 * a.batch):  # first fill: two batches' worth before reusing
                    masks, hw, txts = next(it)
                    nfresh += len(txts)
                    pool.add(masks, hw, txts)
                masks, hw, txts = pool.sample(a.batch, gen_cpu)
            data_wait += time.time() - tw
            el = e0 + (time.time() - t0)
            frac = min(1.0, el / a.plan_seconds)
            lr = a.lr * min(1.0, (s_local + 1) / 150) * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * frac)))
            for g in opt.param_groups:
                g["lr"] = lr
            enc = tok.encode_batch(txts)
            L = min(a.max_new, max(len(e.ids) for e in enc) + 1)
            ids = torch.full((len(txts), L), pad, dtype=torch.long)
            for i, e in enumerate(enc):
                t = (e.ids + [eos])[:L]
                ids[i, :len(t)] = torch.tensor(t)
            ids = ids.to(dev, non_blocking=True)
            x = gpu_degrade(masks.to(dev, non_blocking=True).float().unsqueeze(1), a.gpu_degrade, gen)
            with torch.autocast(DT, dtype=torch.bfloat16):
                vis = model.vision(to_pixels(x))
                emb = build_inputs(model, vis, prompt, image_id, text_ids=ids[:, :-1])
                S = emb.shape[1]
                pos = torch.arange(S, device=dev).view(1, S).expand(emb.shape[0], S)
                h, _ = model.decoder(emb, pos, None)
                logits = model.logits(h[:, P0 - 1:])
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), ids.reshape(-1), ignore_index=pad)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step()
            s_local += 1
            meta["step"] += 1
            nsamp += len(txts)
            if s_local % 25 == 0:
                m = ids != pad
                acc = ((logits.argmax(-1) == ids) & m).sum().item() / m.sum().item()
                rec = {"step": meta["step"], "elapsed": round(el, 1), "loss": round(loss.item(), 4), "acc": round(acc, 4),
                       "stage": 0, "lr": lr}
                meta["log"].append(rec)
                if s_local % 200 == 0:
                    dt = time.time() - t0
                    print(json.dumps(rec), f"samples/s {nsamp / dt:.0f} fresh renders/s {nfresh / dt:.0f} "
                          f"data_wait {data_wait:.1f}s ({data_wait / dt:.0%})", flush=True)
        meta["elapsed"] = e0 + (time.time() - t0)
        dt = time.time() - t0
        results["main_data"] = {"steps": s_local, "seconds": round(dt, 1), "data_wait_s": round(data_wait, 1),
                                "data_wait_share": round(data_wait / max(dt, 1e-9), 3), "views_per_s": round(nsamp / max(dt, 1e-9), 1),
                                "fresh_renders_per_s": round(nfresh / max(dt, 1e-9), 1), "reuse": a.reuse, "workers": a.workers}
        print(f"main: {s_local} steps in {dt:.0f}s, data wait {data_wait:.0f}s ({data_wait / max(dt, 1e-9):.0%}), "
              f"{nfresh} fresh renders for {nsamp} views", flush=True)
        del dl, it
        meta["evals"].append(run_eval("main"))
        save_ckpt(model, meta, a.out)

    # ---- FastMTP draft head on the frozen model's own outputs
    K, beta = c.mtp_k, 0.6
    alphas = [beta ** k for k in range(K)]
    alphas = [x / sum(alphas) for x in alphas]
    if a.mtp_seconds > 0:
        t0 = time.time()
        model.eval()
        for p in model.parameters():
            p.requires_grad_(False)
        mparams = []
        for n, p in model.named_parameters():
            if n.startswith(("enorm", "hnorm", "eh_proj", "mtp_block")):
                p.requires_grad_(True)
                mparams.append(p)
        if meta.get("mtp_steps", 0) == 0:
            model.mtp_block.load_state_dict(model.layers[-1].state_dict())
        ds = LineStream(a.seed * 100 + 50 + meta["seed_runs"], a.assets)
        dl = torch.utils.data.DataLoader(ds, batch_size=min(512, a.pool_max), num_workers=a.workers, collate_fn=collate,
                                         **({"prefetch_factor": 4} if a.workers > 0 else {}))
        it = iter(dl)
        gen = torch.Generator(device=dev)
        gen.manual_seed(4242 + meta["seed_runs"])
        pool_imgs, pool_ids, n_pool = [], [], 0
        while time.time() - t0 < a.mtp_seconds * 0.3 and n_pool < a.pool_max:
            masks, hw, _ = next(it)
            x = gpu_degrade(masks.to(dev).float().unsqueeze(1), a.gpu_degrade, gen)
            with torch.autocast(DT, dtype=torch.bfloat16):
                ids = D.greedy(model, to_pixels(x), prompt, image_id, eos, max_new=a.max_new)
            pool_imgs.append(x.to(torch.uint8).cpu())
            pool_ids += ids
            n_pool += len(ids)
        del dl, it
        pool_imgs = torch.cat(pool_imgs)
        print(f"mtp: pool of {n_pool} greedy outputs in {time.time() - t0:.0f}s", flush=True)
        opt = torch.optim.AdamW(mparams, lr=1e-3, betas=(0.9, 0.98), weight_decay=0.0)
        step, t1 = 0, time.time()
        budget = a.mtp_seconds - (t1 - t0)
        while time.time() - t1 < budget and not (a.mtp_max_steps and step >= a.mtp_max_steps):
            idx = torch.randint(0, n_pool, (a.batch,))
            seqs = [pool_ids[i] for i in idx.tolist()]
            L = min(a.max_new + 1, max(len(s) for s in seqs))
            ids = torch.full((a.batch, L), pad, dtype=torch.long)
            for i, s in enumerate(seqs):
                ids[i, :len(s[:L])] = torch.tensor(s[:L])
            ids = ids.to(dev)
            px = to_pixels(pool_imgs[idx].to(dev).float())
            lr = 1e-3 * min(1.0, (step + 1) / 50) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1, (time.time() - t1) / budget))))
            for g in opt.param_groups:
                g["lr"] = lr
            with torch.autocast(DT, dtype=torch.bfloat16):
                with torch.no_grad():
                    vis = model.vision(px)
                    emb = build_inputs(model, vis, prompt, image_id, text_ids=ids)
                    S = emb.shape[1]
                    pos = torch.arange(S, device=dev).view(1, S).expand(a.batch, S)
                    Hm, _ = model.decoder(emb, pos, None)
                loss, parts = mtp_loss(model, emb, Hm, ids, P0, pad, K, alphas)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(mparams, 1.0)
            opt.step()
            step += 1
            if step % 25 == 0:
                rec = {"mtp_step": meta.get("mtp_steps", 0) + step, "loss": round(loss.item(), 4), "acc": [round(x, 4) for x in parts]}
                meta["mtp_log"].append(rec)
                if step % 200 == 0:
                    print(json.dumps(rec), flush=True)
        meta["mtp_steps"] = meta.get("mtp_steps", 0) + step
        print(f"mtp: {step} steps in {time.time() - t1:.0f}s", flush=True)
        save_ckpt(model, meta, a.out)

    if a.bench:
        results["bench"] = bench(model, pixels, (ev_imgs, dg_imgs), (ev_txt, dg_txt), prompt, image_id, eos, a.max_new, K, dev, tok)
    results["evals"] = meta["evals"]
    json.dump(results, open(os.path.join(a.out, "results.json"), "w"), indent=1)
    json.dump({k: meta[k] for k in ("log", "mtp_log", "evals")}, open(os.path.join(a.out, "log.json"), "w"))
    plot(meta, os.path.join(a.out, "loss.png"))


@torch.no_grad()
def bench(model, pixels, ev_imgs, ev_txt, prompt, image_id, eos, max_new, K, dev, tok):
    """tau, acceptance and speculative = greedy on the held-out formulas with the exported numerics (fp16-rounded
    weights, fp32 compute, TF32 off), then PyTorch throughput at batch 1 and 16 (median of 3, same run)."""
    model.eval()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    for p in model.parameters():
        p.requires_grad_(False)
        p.copy_(p.half().float())
    out = {"gpu": torch.cuda.get_device_name(0) if dev.type == "cuda" else "cpu",
           "precision": "fp32 compute, fp16-rounded weights, TF32 off", "K": K}
    for name, imgs, txts in [("clean", ev_imgs[0], ev_txt[0]), ("degraded", ev_imgs[1], ev_txt[1])]:
        px_all = pixels(imgs, False)
        tot_steps = tot_tok = same = n = exact = 0
        acc_pos = [0] * K
        for i in range(0, len(px_all), 32):
            px = px_all[i:i + 32]
            g_ids = D.greedy(model, px, prompt, image_id, eos, max_new=max_new)
            s_ids, st = D.speculative(model, px, prompt, image_id, eos, max_new=max_new, K=K)
            for b in range(len(g_ids)):
                same += int(g_ids[b] == s_ids[b])
                exact += int(tok.decode([t for t in g_ids[b] if t != eos]) == txts[i + b])
                n += 1
                tot_steps += st["steps"][b]
                h = st["hist"][b]
                for k in range(K):
                    acc_pos[k] += sum(h[k + 1:])
            tot_tok += sum(max(0, len(s) - 1) for s in s_ids)
        out[name] = {"tau": tot_tok / max(1, tot_steps), "exact_fp32": exact / max(1, n),
                     "accept_rate_per_position": [x / max(1, tot_steps) for x in acc_pos],
                     "speculative_equals_greedy": same / max(1, n), "n": n}
        print("BENCH", name, json.dumps(out[name]), flush=True)
    for bs in (1, 32):
        px_all = pixels(ev_imgs[0][:32 if bs == 1 else 128], False)
        for mode in ("greedy", "speculative"):
            times = []
            ntok = 0
            for _ in range(3):
                sync(dev)
                t = time.time()
                ntok = 0
                for i in range(0, len(px_all), bs):
                    px = px_all[i:i + bs]
                    ids = (D.greedy(model, px, prompt, image_id, eos, max_new=max_new) if mode == "greedy"
                           else D.speculative(model, px, prompt, image_id, eos, max_new=max_new, K=K)[0])
                    ntok += sum(len(r) for r in ids)
                sync(dev)
                times.append(time.time() - t)
            med = sorted(times)[1]
            out[f"throughput_b{bs}_{mode}"] = {"lines_per_s": len(px_all) / med, "tokens_per_s": ntok / med, "times": times}
            print("THROUGHPUT", bs, mode, json.dumps(out[f"throughput_b{bs}_{mode}"]), flush=True)
        out[f"speedup_b{bs}"] = out[f"throughput_b{bs}_speculative"]["lines_per_s"] / out[f"throughput_b{bs}_greedy"]["lines_per_s"]
    return out


if __name__ == "__main__":
    main()
