"""A training run and the phases that train.py (folio-ocr-mini), train_math.py and train_lines.py share.

`Run` holds what every phase needs (arguments, device, tokenizer, model, checkpoint meta, prompt, results).
train_math.py and train_lines.py differ only in their data (a stream of CPU-rendered masks, a function that makes
the views on the GPU, held-out sets and how an output is compared with its text), so their main model
(`train_main`), draft head (`train_draft`), evaluation (`evaluate`) and benchmark (`bench`) live here. train.py
keeps its own main model (curriculum, CTC), evaluation, draft-head views and benchmark figures, and uses the
pieces under them: `Run`, `draft_params`, `distil_pool`, `train_draft_head`, `exported_numerics`, `acceptance`,
`decode_time`, `write_results`.
"""
from __future__ import annotations

import json
import math
import os
import time

import torch
import torch.nn.functional as F
from tokenizers import Tokenizer

from . import decode as D
from .model import FolioConfig, FolioOCR, build_inputs, param_groups
from .tokenizer import prompt_ids
from .train_ops import cer, eval_pixels, load_ckpt, mtp_loss, plot, save_ckpt, sync, to_pixels

DRAFT_HEAD = ("enorm", "hnorm", "eh_proj", "mtp_block")  # parameter name prefixes of the FastMTP draft head


class Run:
    """One run: makes the output folder, picks the device (TF32 on for training), reads the tokenizer; then
    `attach` (or `resume`) gives it the model and its checkpoint meta."""

    def __init__(self, a, tokenizer):
        os.makedirs(a.out, exist_ok=True)
        self.a = a
        self.dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
        self.tok = Tokenizer.from_file(tokenizer)
        self.pad, self.eos, self.image_id = (self.tok.token_to_id(t) for t in ("<|pad|>", "<|eos|>", "<image>"))

    def attach(self, model, meta):
        model.to(self.dev)
        self.model, self.c, self.meta = model, model.c, meta
        self.prompt = prompt_ids(self.tok, self.c.tokens_per_view)
        self.P0 = len(self.prompt)
        self.results = {"params": param_groups(model)}

    def resume(self):
        """The checkpoint folder --resume (a warm start or an earlier run), which must use this tokenizer."""
        state, meta = load_ckpt(self.a.resume)
        c = FolioConfig.from_dict(meta["config"])
        assert c.vocab == self.tok.get_vocab_size(), (c.vocab, self.tok.get_vocab_size())
        model = FolioOCR(c)
        model.load_state_dict({k: v.float() for k, v in state.items()})
        print("resumed", meta["step"], "steps", round(meta["elapsed"]), "s,", meta.get("mtp_steps", 0), "mtp steps", flush=True)
        meta["seed_runs"] = meta.get("seed_runs", 0) + 1
        self.attach(model, meta)

    def targets(self, txts, cap):
        """Token ids of the texts, each ended by eos, padded to the longest (at most `cap`), on the device."""
        enc = self.tok.encode_batch(txts)
        L = min(cap, max(len(e.ids) for e in enc) + 1)
        ids = torch.full((len(txts), L), self.pad, dtype=torch.long)
        for i, e in enumerate(enc):
            t = (e.ids + [self.eos])[:L]
            ids[i, :len(t)] = torch.tensor(t)
        return ids.to(self.dev, non_blocking=True)

    def read(self, px, bs=128):
        """Greedy texts of the views `px` (bf16 autocast, batches of `bs`)."""
        out = []
        for i in range(0, len(px), bs):
            with torch.autocast(self.dev.type, dtype=torch.bfloat16):
                ids = D.greedy(self.model, px[i:i + bs], self.prompt, self.image_id, self.eos, max_new=self.a.max_new)
            out += [self.tok.decode([t for t in row if t != self.eos]) for row in ids]
        return out


def identity(s):
    return s


def collate(b):  # (mask, ink size, text) triples from a stream -> stacked masks, stacked sizes, texts
    return torch.stack([x[0] for x in b]), torch.stack([x[1] for x in b]), [x[2] for x in b]


def evaluate(r, tag, sets, norm=identity):
    """Exact match (`norm` of the output against the text) and CER on each held-out set (name, images, texts,
    degraded); prints two samples of each and the figures, which it returns."""
    r.model.eval()
    out = {"tag": tag, "step": r.meta["step"], "elapsed": round(r.meta["elapsed"], 1)}
    for name, imgs, txts, deg in sets:
        preds = r.read(eval_pixels(imgs, deg, r.dev))
        out["exact_" + name] = sum(norm(p) == t for p, t in zip(preds, txts)) / len(txts)
        out["cer_" + name] = cer(preds, txts)
        for ref, p in list(zip(txts, preds))[:2]:
            print(f"  [{name}] REF {ref}\n  [{name}] OUT {p}", flush=True)
    print("EVAL", json.dumps(out), flush=True)
    r.model.train()
    return out


# ----------------------------------------------------------------------------- main model
def train_main(r, ds, view, pool_type, run_eval):
    """The main model (all but the draft head) for --main-seconds (or --max-steps): next-token loss, warm-up and
    cosine LR on the time of --plan-seconds. `ds` yields (mask, ink size, text); with --reuse > 1 the masks go
    through a `pool_type` (gpu_views.MaskPool) on the GPU and each is drawn --reuse times on average; `view(masks,
    hw, gen)` makes the float views [B,1,H,W] on the GPU. Then `run_eval("main")` and a checkpoint; the data
    figures go to results["main_data"]."""
    a, model, meta, dev = r.a, r.model, r.meta, r.dev
    cpu_batch = max(1, a.batch // a.reuse)
    dl = torch.utils.data.DataLoader(ds, batch_size=cpu_batch, num_workers=a.workers, collate_fn=collate,
                                     pin_memory=dev.type == "cuda",
                                     **({"prefetch_factor": 8, "persistent_workers": True} if a.workers > 0 else {}))
    pool = pool_type(max(a.mask_pool, a.batch), r.c.view_h, r.c.view_w, dev) if a.reuse > 1 else None
    gen_cpu = torch.Generator()
    gen_cpu.manual_seed(a.seed * 7 + meta["step"])
    params = [p for n, p in model.named_parameters() if not n.startswith(DRAFT_HEAD)]
    opt = torch.optim.AdamW(params, lr=a.lr, betas=(0.9, 0.98), weight_decay=0.05, fused=dev.type == "cuda")
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
        ids = r.targets(txts, a.max_new)
        x = view(masks, hw, gen)
        with torch.autocast(dev.type, dtype=torch.bfloat16):
            vis = model.vision(to_pixels(x))
            emb = build_inputs(model, vis, r.prompt, r.image_id, text_ids=ids[:, :-1])
            S = emb.shape[1]
            pos = torch.arange(S, device=dev).view(1, S).expand(emb.shape[0], S)
            h, _ = model.decoder(emb, pos, None)
            logits = model.logits(h[:, r.P0 - 1:])
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), ids.reshape(-1), ignore_index=r.pad)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        s_local += 1
        meta["step"] += 1
        nsamp += len(txts)
        if s_local % 25 == 0:
            m = ids != r.pad
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
    r.results["main_data"] = {"steps": s_local, "seconds": round(dt, 1), "data_wait_s": round(data_wait, 1),
                              "data_wait_share": round(data_wait / max(dt, 1e-9), 3), "views_per_s": round(nsamp / max(dt, 1e-9), 1),
                              "fresh_renders_per_s": round(nfresh / max(dt, 1e-9), 1), "reuse": a.reuse, "workers": a.workers}
    print(f"main: {s_local} steps in {dt:.0f}s, data wait {data_wait:.0f}s ({data_wait / max(dt, 1e-9):.0%}), "
          f"{nfresh} fresh renders for {nsamp} views", flush=True)
    del dl, it
    meta["evals"].append(run_eval("main"))
    save_ckpt(model, meta, a.out)


# ----------------------------------------------------------------------------- FastMTP draft head
def draft_params(model, meta):
    """Freezes the model but for the draft head and returns the head's parameters; a head never trained starts
    from the last decoder block (a common warm start)."""
    model.eval()
    for p in model.parameters():
        p.requires_grad_(False)
    mparams = []
    for n, p in model.named_parameters():
        if n.startswith(DRAFT_HEAD):
            p.requires_grad_(True)
            mparams.append(p)
    if meta.get("mtp_steps", 0) == 0:
        model.mtp_block.load_state_dict(model.layers[-1].state_dict())
    return mparams


def distil_pool(r, views, t0):
    """The frozen model's greedy outputs on the batches of `views` (float [B,1,H,W] on the GPU), gathered while
    30% of --mtp-seconds since t0 lasts and fewer than --pool-max: (the views as uint8 on the CPU, the ids, count)."""
    pool_imgs, pool_ids, n_pool = [], [], 0
    while time.time() - t0 < r.a.mtp_seconds * 0.3 and n_pool < r.a.pool_max:
        x = next(views)
        with torch.autocast(r.dev.type, dtype=torch.bfloat16):
            ids = D.greedy(r.model, to_pixels(x), r.prompt, r.image_id, r.eos, max_new=r.a.max_new)
        pool_imgs.append(x.to(torch.uint8).cpu())
        pool_ids += ids
        n_pool += len(ids)
    return torch.cat(pool_imgs), pool_ids, n_pool


def train_draft_head(r, mparams, pool, t0, max_len, print_every, max_steps=0):
    """Self-distillation of the draft head on `pool` (distil_pool's) for the rest of --mtp-seconds since t0 (or
    `max_steps`): K=c.mtp_k recursive steps, losses weighted beta^(k-1), beta=0.6, normalised; sequences cut at
    `max_len` tokens. Then a checkpoint."""
    a, model, meta, dev = r.a, r.model, r.meta, r.dev
    pool_imgs, pool_ids, n_pool = pool
    K, beta = r.c.mtp_k, 0.6
    alphas = [beta ** k for k in range(K)]
    alphas = [x / sum(alphas) for x in alphas]
    opt = torch.optim.AdamW(mparams, lr=1e-3, betas=(0.9, 0.98), weight_decay=0.0)
    step, t1 = 0, time.time()
    budget = a.mtp_seconds - (t1 - t0)
    while time.time() - t1 < budget and not (max_steps and step >= max_steps):
        idx = torch.randint(0, n_pool, (a.batch,))
        seqs = [pool_ids[i] for i in idx.tolist()]
        L = min(max_len, max(len(s) for s in seqs))
        ids = torch.full((a.batch, L), r.pad, dtype=torch.long)
        for i, s in enumerate(seqs):
            ids[i, :len(s[:L])] = torch.tensor(s[:L])
        ids = ids.to(dev)
        px = to_pixels(pool_imgs[idx].to(dev).float())
        lr = 1e-3 * min(1.0, (step + 1) / 50) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1, (time.time() - t1) / budget))))
        for g in opt.param_groups:
            g["lr"] = lr
        with torch.autocast(dev.type, dtype=torch.bfloat16):
            with torch.no_grad():
                vis = model.vision(px)
                emb = build_inputs(model, vis, r.prompt, r.image_id, text_ids=ids)  # [B,P0+L,H]
                S = emb.shape[1]
                pos = torch.arange(S, device=dev).view(1, S).expand(a.batch, S)
                Hm, _ = model.decoder(emb, pos, None)
            loss, parts = mtp_loss(model, emb, Hm, ids, r.P0, r.pad, K, alphas)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(mparams, 1.0)
        opt.step()
        step += 1
        if step % 25 == 0:
            rec = {"mtp_step": meta.get("mtp_steps", 0) + step, "loss": round(loss.item(), 4), "acc": [round(x, 4) for x in parts]}
            meta["mtp_log"].append(rec)
            if step % print_every == 0:
                print(json.dumps(rec), flush=True)
    meta["mtp_steps"] = meta.get("mtp_steps", 0) + step
    print(f"mtp: {step} steps in {time.time() - t1:.0f}s", flush=True)
    save_ckpt(model, meta, a.out)


def train_draft(r, ds, view):
    """The draft head of train_math.py and train_lines.py: the pool from the views of `ds` (512 at a time, the
    device generator seeded per run), then train_draft_head (--mtp-max-steps, outputs up to --max-new)."""
    a = r.a
    t0 = time.time()
    mparams = draft_params(r.model, r.meta)
    dl = torch.utils.data.DataLoader(ds, batch_size=min(512, a.pool_max), num_workers=a.workers, collate_fn=collate,
                                     **({"prefetch_factor": 4} if a.workers > 0 else {}))
    it = iter(dl)
    gen = torch.Generator(device=r.dev)
    gen.manual_seed(4242 + r.meta["seed_runs"])
    pool = distil_pool(r, (view(masks, hw, gen) for masks, hw, _ in it), t0)
    del dl, it
    print(f"mtp: pool of {pool[2]} greedy outputs in {time.time() - t0:.0f}s", flush=True)
    train_draft_head(r, mparams, pool, t0, a.max_new + 1, 200, a.mtp_max_steps)


# ----------------------------------------------------------------------------- benchmark
def exported_numerics(model):
    """fp16-rounded weights, fp32 compute, TF32 off: the numerics of the exported model (frozen)."""
    model.eval()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    with torch.no_grad():
        for p in model.parameters():
            p.requires_grad_(False)
            p.copy_(p.half().float())


def acceptance(r, px_all, K, bs=32):
    """Greedy and speculative decoding (K drafts) of `px_all` in batches of `bs`: the greedy ids and, summed over
    the views, verification steps, tokens they committed, accepted drafts by position, outputs equal to greedy."""
    s = {"greedy": [], "steps": 0, "tokens": 0, "accepted": [0] * K, "same": 0}
    for i in range(0, len(px_all), bs):
        px = px_all[i:i + bs]
        g_ids = D.greedy(r.model, px, r.prompt, r.image_id, r.eos, max_new=r.a.max_new)
        s_ids, st = D.speculative(r.model, px, r.prompt, r.image_id, r.eos, max_new=r.a.max_new, K=K)
        for b in range(len(g_ids)):
            s["same"] += int(g_ids[b] == s_ids[b])
            s["steps"] += st["steps"][b]
            h = st["hist"][b]
            for k in range(K):
                s["accepted"][k] += sum(h[k + 1:])
        # tokens committed by verification steps (the first token comes from prefill)
        s["tokens"] += sum(max(0, len(x) - 1) for x in s_ids)
        s["greedy"] += g_ids
    s["n"] = len(s["greedy"])
    return s


def decode_time(r, px_all, bs, mode, K):
    """Seconds to decode `px_all` in batches of `bs`, greedy or speculative: (median of 3 passes, tokens of a
    pass, the 3 times)."""
    times = []
    ntok = 0
    for _ in range(3):
        sync(r.dev)
        t = time.time()
        ntok = 0
        for i in range(0, len(px_all), bs):
            px = px_all[i:i + bs]
            ids = (D.greedy(r.model, px, r.prompt, r.image_id, r.eos, max_new=r.a.max_new) if mode == "greedy"
                   else D.speculative(r.model, px, r.prompt, r.image_id, r.eos, max_new=r.a.max_new, K=K)[0])
            ntok += sum(len(x) for x in ids)
        sync(r.dev)
        times.append(time.time() - t)
    return sorted(times)[1], ntok, times


@torch.no_grad()
def bench(r, sets, sizes, unit, norm=identity):
    """tau, acceptance and speculative = greedy on the held-out `sets` (name, images, texts, degraded) with the
    exported numerics, exact match by `norm`; then PyTorch throughput (median of 3, same run) at each (batch,
    views) of `sizes` on the first set's clean images, reported as `unit` per second."""
    K = r.c.mtp_k
    exported_numerics(r.model)
    out = {"gpu": torch.cuda.get_device_name(0) if r.dev.type == "cuda" else "cpu",
           "precision": "fp32 compute, fp16-rounded weights, TF32 off", "K": K}
    for name, imgs, txts, deg in sets:
        s = acceptance(r, eval_pixels(imgs, deg, r.dev), K)
        exact = sum(int(norm(r.tok.decode([t for t in g if t != r.eos])) == txts[j]) for j, g in enumerate(s["greedy"]))
        out[name] = {"tau": s["tokens"] / max(1, s["steps"]), "exact_fp32": exact / max(1, s["n"]),
                     "accept_rate_per_position": [x / max(1, s["steps"]) for x in s["accepted"]],
                     "speculative_equals_greedy": s["same"] / max(1, s["n"]), "n": s["n"]}
        print("BENCH", name, json.dumps(out[name]), flush=True)
    for bs, nv in sizes:
        px_all = eval_pixels(sets[0][1][:nv], False, r.dev)
        for mode in ("greedy", "speculative"):
            med, ntok, times = decode_time(r, px_all, bs, mode, K)
            out[f"throughput_b{bs}_{mode}"] = {unit: len(px_all) / med, "tokens_per_s": ntok / med, "times": times}
            print("THROUGHPUT", bs, mode, json.dumps(out[f"throughput_b{bs}_{mode}"]), flush=True)
        out[f"speedup_b{bs}"] = out[f"throughput_b{bs}_speculative"][unit] / out[f"throughput_b{bs}_greedy"][unit]
    return out


def write_results(r):
    """results.json (with the run's evaluations), log.json (training curves) and loss.png in --out."""
    r.results["evals"] = r.meta["evals"]
    json.dump(r.results, open(os.path.join(r.a.out, "results.json"), "w"), indent=1)
    json.dump({k: r.meta[k] for k in ("log", "mtp_log", "evals")}, open(os.path.join(r.a.out, "log.json"), "w"))
    plot(r.meta, os.path.join(r.a.out, "loss.png"))
