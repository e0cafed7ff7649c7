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

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "synth"))
from folio_ocr.model import FolioConfig, FolioOCR, build_inputs, param_groups, concat_kv  # noqa: E402
from folio_ocr.tokenizer import prompt_ids  # noqa: E402
from folio_ocr import decode as D  # noqa: E402
from blocks import TextSource, Fonts, render_block  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402

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
    os.makedirs(a.out, exist_ok=True)
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    DT = dev.type
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    tok = Tokenizer.from_file(os.path.join(a.assets, "tokenizer.json"))
    pad, eos, image_id = tok.token_to_id("<|pad|>"), tok.token_to_id("<|eos|>"), tok.token_to_id("<image>")
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
    model.to(dev)
    print("params", param_groups(model), flush=True)
    prompt = prompt_ids(tok, c.tokens_per_view)
    P0 = len(prompt)
    results = {"params": param_groups(model)}

    # ---- held-out eval sets (prose from held-out paragraphs, fixed seeds)
    ev_imgs, ev_txt = make_eval_set(a.assets, a.eval_n, 12345, stage=2)
    ev1_imgs, ev1_txt = make_eval_set(a.assets, min(128, a.eval_n), 54321, stage=0)
    g_eval = torch.Generator(device=dev)

    def eval_pixels(imgs, degraded):
        x = imgs.to(dev).float().unsqueeze(1)
        if degraded:
            g_eval.manual_seed(777)
            x = gpu_degrade(x, 1.0, g_eval)
        return to_pixels(x)

    def run_eval(tag):
        model.eval()
        out = {"tag": tag, "step": meta["step"], "elapsed": meta["elapsed"]}
        samples = {}
        for name, imgs, txts, deg in [("clean", ev_imgs, ev_txt, False), ("degraded", ev_imgs, ev_txt, True),
                                      ("one_line_clean", ev1_imgs, ev1_txt, False)]:
            preds = []
            for i in range(0, len(imgs), 128):
                px = eval_pixels(imgs[i:i + 128], deg)
                if DT == "cpu" and i > 0:
                    break
                with torch.autocast(DT, dtype=torch.bfloat16):
                    ids = D.greedy(model, px, prompt, image_id, eos, max_new=a.max_new)
                preds += [tok.decode([t for t in r if t != eos]) for r in ids]
            out["cer_" + name] = cer(preds, txts)
            zh_idx = [i for i, t in enumerate(txts) if any('\u4e00' <= ch <= '\u9fff' for ch in t)]
            if zh_idx and name != "one_line_clean":
                out["cer_" + name + "_zh"] = cer([preds[i] for i in zh_idx], [txts[i] for i in zh_idx])
                en_idx = [i for i in range(len(txts)) if i not in set(zh_idx)]
                out["cer_" + name + "_en"] = cer([preds[i] for i in en_idx], [txts[i] for i in en_idx])
            samples[name] = [(txts[i], preds[i]) for i in range(3)]
        print("EVAL", json.dumps(out), flush=True)
        for k, v in samples.items():
            for r, p in v:
                print(f"  [{k}] REF {r!r}\n  [{k}] OUT {p!r}", flush=True)
        model.train()
        return out

    # ---- main training
    if a.main_seconds > 0:
        import multiprocessing as mp
        stage_val = mp.Value("i", int(meta["stage"]))
        ds = BlockStream(a.assets, a.seed * 100 + meta["seed_runs"], stage_val)
        dl = torch.utils.data.DataLoader(ds, batch_size=a.batch, num_workers=a.workers, collate_fn=collate,
                                         prefetch_factor=6, persistent_workers=True, pin_memory=DT == "cuda")
        params = [p for n, p in model.named_parameters()
                  if not n.startswith(("enorm", "hnorm", "eh_proj", "mtp_block"))]
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
            enc = tok.encode_batch(txts)
            L = min(200, max(len(e.ids) for e in enc) + 1)
            ids = torch.full((len(txts), L), pad, dtype=torch.long)
            for i, e in enumerate(enc):
                t = (e.ids + [eos])[:L]
                ids[i, :len(t)] = torch.tensor(t)
            ids = ids.to(dev, non_blocking=True)
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
        # initialise the draft block from the last decoder block (a common warm start)
        if meta.get("mtp_steps", 0) == 0:
            model.mtp_block.load_state_dict(model.layers[-1].state_dict())
        rng = random.Random(999)
        src = TextSource(os.path.join(a.assets, "corpus")).split(held_out=False)
        fonts = Fonts(os.path.join(a.assets, "fonts"))
        gen = torch.Generator(device=dev)
        gen.manual_seed(4242)
        pool_imgs, pool_ids = [], []
        n_pool = 0
        while time.time() - t0 < a.mtp_seconds * 0.3 and n_pool < a.pool_max:
            imgs = torch.stack([torch.from_numpy(render_block(rng, src, fonts, stage=2, degrade=False)[0].copy())
                                for _ in range(min(512, a.pool_max))])
            x = gpu_degrade(imgs.to(dev).float().unsqueeze(1), 0.5, gen)
            with torch.autocast(DT, dtype=torch.bfloat16):
                ids = D.greedy(model, to_pixels(x), prompt, image_id, eos, max_new=a.max_new)
            pool_imgs.append(x.to(torch.uint8).cpu())
            pool_ids += ids
            n_pool += len(ids)
        pool_imgs = torch.cat(pool_imgs)
        print(f"mtp: self-distillation pool {n_pool} greedy outputs in {time.time() - t0:.0f}s", flush=True)
        opt = torch.optim.AdamW(mparams, lr=1e-3, betas=(0.9, 0.98), weight_decay=0.0)
        step = 0
        t1 = time.time()
        budget = a.mtp_seconds - (t1 - t0)
        while time.time() - t1 < budget:
            idx = torch.randint(0, n_pool, (a.batch,))
            seqs = [pool_ids[i] for i in idx.tolist()]
            L = min(161, max(len(s) for s in seqs))
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
                    emb = build_inputs(model, vis, prompt, image_id, text_ids=ids)  # [B,P0+L,H]
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
                rec = {"mtp_step": meta.get("mtp_steps", 0) + step, "loss": round(loss.item(), 4),
                       "acc": [round(x, 4) for x in parts]}
                meta["mtp_log"].append(rec)
                if step % 100 == 0:
                    print(json.dumps(rec), flush=True)
        meta["mtp_steps"] = meta.get("mtp_steps", 0) + step
        print(f"mtp: {step} steps in {time.time() - t1:.0f}s", flush=True)
        save_ckpt(model, meta, a.out)

    # ---- speculative decoding: tau, per-position acceptance, equality with greedy, throughput
    if a.bench:
        model.eval()
        for p in model.parameters():
            p.requires_grad_(False)
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        # fp16-rounded weights, fp32 compute: the numerics of the exported model
        with torch.no_grad():
            for p in model.parameters():
                p.copy_(p.half().float())
        bench = {"gpu": torch.cuda.get_device_name(0) if DT == "cuda" else "cpu", "precision": "fp32 compute, fp16-rounded weights, TF32 off",
                 "K": K, "batch": 32}
        for name, deg in [("clean", False), ("degraded", True)]:
            px_all = eval_pixels(ev_imgs, deg)
            steps = hist = None
            tot_steps, tot_tok, acc_pos, same, n = 0, 0, [0] * K, 0, 0
            for i in range(0, len(px_all), 32):
                px = px_all[i:i + 32]
                g_ids = D.greedy(model, px, prompt, image_id, eos, max_new=a.max_new)
                s_ids, st = D.speculative(model, px, prompt, image_id, eos, max_new=a.max_new, K=K)
                for b in range(len(g_ids)):
                    same += int(g_ids[b] == s_ids[b])
                    n += 1
                    tot_steps += st["steps"][b]
                    h = st["hist"][b]
                    for k in range(K):
                        acc_pos[k] += sum(h[k + 1:])
                # tokens committed by verification steps (the first token comes from prefill)
                tot_tok += sum(max(0, len(s) - 1) for s in s_ids)
            bench[name] = {"tau": tot_tok / max(1, tot_steps),
                           "accept_rate_per_position": [x / max(1, tot_steps) for x in acc_pos],
                           "accept_rate_conditional": [acc_pos[0] / max(1, tot_steps)] +
                           [acc_pos[k] / max(1, acc_pos[k - 1]) for k in range(1, K)],
                           "speculative_equals_greedy": same / max(1, n), "n": n}
            print("BENCH", name, json.dumps(bench[name]), flush=True)
        # throughput at batch 32 (views/s), median of 3 passes over 128 held-out clean blocks
        NT = min(128, len(ev_imgs))
        px_all = eval_pixels(ev_imgs[:NT], False)
        for mode in ("greedy", "speculative"):
            times = []
            ntok = 0
            for rep in range(3):
                sync(dev)
                t = time.time()
                ntok = 0
                for i in range(0, NT, 32):
                    if mode == "greedy":
                        ids = D.greedy(model, px_all[i:i + 32], prompt, image_id, eos, max_new=a.max_new)
                    else:
                        ids, _ = D.speculative(model, px_all[i:i + 32], prompt, image_id, eos, max_new=a.max_new, K=K)
                    ntok += sum(len(r) for r in ids)
                sync(dev)
                times.append(time.time() - t)
            med = sorted(times)[1]
            bench["throughput_" + mode] = {"views_per_s": NT / med, "tokens_per_s": ntok / med, "times": times}
            print("THROUGHPUT", mode, json.dumps(bench["throughput_" + mode]), flush=True)
        bench["speedup"] = bench["throughput_speculative"]["views_per_s"] / bench["throughput_greedy"]["views_per_s"]
        results["bench"] = bench
    results["evals"] = meta["evals"]
    json.dump(results, open(os.path.join(a.out, "results.json"), "w"), indent=1)
    json.dump({k: meta[k] for k in ("log", "mtp_log", "evals")}, open(os.path.join(a.out, "log.json"), "w"))
    plot(meta, os.path.join(a.out, "loss.png"))


def mtp_loss(model, emb, Hm, ids, P0, pad, K, alphas):
    """Recursive FastMTP loss. Step 1 runs causally over the whole sequence (entry j = (x_{j+1}, h_j));
    step k>1 at position i sees the step-1 keys of positions < i and itself (as at inference)."""
    B, S, Hd = emb.shape
    dev = emb.device
    c = model.c
    L = ids.shape[1]
    from folio_ocr.model import rope_cos_sin
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


if __name__ == "__main__":
    main()
