"""Reference decoding with the exported ONNX files (onnxruntime, Python) and a PyTorch comparison."""
from __future__ import annotations

import json
import os

import numpy as np


def finish(ids, acc, max_new, ignore_eos, eos):
    """A speculative run's result: its ids cut to `max_new` (and after the first EOS unless it is ignored),
    with {steps, accepted}."""
    ids = ids[:max_new]
    if not ignore_eos and eos in ids:
        ids = ids[: ids.index(eos) + 1]
    return ids, {"steps": len(acc), "accepted": acc}


class OrtModel:
    def __init__(self, d):
        import onnxruntime as ort
        so = ort.SessionOptions()
        so.log_severity_level = 3
        prov = ["CPUExecutionProvider"]
        self.meta = json.load(open(os.path.join(d, "folio-model.json")))
        self.vision = ort.InferenceSession(os.path.join(d, "vision.onnx"), so, providers=prov)
        self.embed = ort.InferenceSession(os.path.join(d, "embed_tokens.onnx"), so, providers=prov)
        self.dec = ort.InferenceSession(os.path.join(d, "decoder.onnx"), so, providers=prov)
        self.mtp = ort.InferenceSession(os.path.join(d, "mtp.onnx"), so, providers=prov)
        dm = self.meta["decoder"]
        self.L, self.kv, self.hd = dm["layers"], dm["kv_heads"], dm["head_dim"]

    def emb(self, ids):
        return self.embed.run(None, {"input_ids": np.asarray(ids, np.int64).reshape(1, -1)})[0]

    def prefix(self, pixel_values):
        vis = self.vision.run(None, {"pixel_values": pixel_values})[0]
        p = self.meta["prompt"]
        return np.concatenate([self.emb(p["prefix_ids"]), vis, self.emb(p["suffix_ids"])], axis=1)

    def dec_run(self, x, past, P):
        B, S, _ = x.shape
        feed = {"inputs_embeds": x.astype(np.float32),
                "attention_mask": np.ones((B, P + S), np.int64),
                "position_ids": np.arange(P, P + S, dtype=np.int64)[None].repeat(B, 0)}
        for i in range(self.L):
            feed[f"past_key_values.{i}.key"] = past[2 * i]
            feed[f"past_key_values.{i}.value"] = past[2 * i + 1]
        out = self.dec.run(None, feed)
        return out[0], out[1], out[2:]

    def empty(self, B=1):
        return [np.zeros((B, self.kv, 0, self.hd), np.float32) for _ in range(2 * self.L)]

    def commit(self, ids, acc, o, drafts, K, hv):
        """Greedy verification of one decoder pass over [last] + drafts: the drafts that match the pass's
        argmaxes `o`, then its own next token, are appended to `ids` (how many drafts to `acc`). Returns the
        committed tokens' embeddings and decoder states (the draft head's next input) and their count."""
        a = 0
        while a < K and o[a] == drafts[a]:
            a += 1
        new = drafts[:a] + [o[a]]
        ids += new
        acc.append(a)
        return self.emb(new), hv[:, :a + 1], a + 1

    def greedy(self, pixel_values, max_new=24, ignore_eos=True, keep_logits=False):
        x = self.prefix(pixel_values)
        logits, h, past = self.dec_run(x, self.empty(), 0)
        P = x.shape[1]
        ids, all_logits = [], [logits[0, -1]]
        eos = self.meta["special_tokens"]["eos"]
        tok = int(logits[0, -1].argmax())
        for _ in range(max_new):
            ids.append(tok)
            if tok == eos and not ignore_eos:
                break
            if len(ids) == max_new:
                break
            logits, h, past = self.dec_run(self.emb([tok]), past, P)
            P += 1
            all_logits.append(logits[0, -1])
            tok = int(logits[0, -1].argmax())
        return (ids, np.stack(all_logits)) if keep_logits else ids

    def speculative(self, pixel_values, max_new=24, ignore_eos=True, K=None):
        """Batch-1 FastMTP draft + greedy verification with the ONNX files (reference for the TS engine)."""
        K = K or self.meta["draft_head"]["K"]
        eos = self.meta["special_tokens"]["eos"]
        x = self.prefix(pixel_values)
        logits, h, past = self.dec_run(x, self.empty(), 0)
        P = x.shape[1]
        mk = np.zeros((1, self.kv, 0, self.hd), np.float32)
        mv = mk.copy()

        def mtp(e, hid, mk, mv):
            Pm = mk.shape[2]
            S = e.shape[1]
            out = self.mtp.run(None, {"inputs_embeds": e, "previous_hidden": hid,
                                      "attention_mask": np.ones((1, Pm + S), np.int64),
                                      "position_ids": np.arange(Pm, Pm + S, dtype=np.int64)[None],
                                      "past_key_values.mtp.key": mk, "past_key_values.mtp.value": mv})
            return out

        # mtp prefill over positions 0..P-2
        _, _, mk, mv = mtp(x[:, 1:], h[:, :-1], mk, mv)
        nxt = int(logits[0, -1].argmax())
        ids = [nxt]
        d_e, d_h = self.emb([nxt]), h[:, -1:]
        acc = []
        while len(ids) < max_new and (ignore_eos or eos not in ids):
            lg, g, mk, mv = mtp(d_e, d_h, mk, mv)
            g = g[:, -1:]
            drafts = [int(lg[0, -1].argmax())]
            tk, tv = mk, mv
            for k in range(1, K):
                lg, g, tk, tv = mtp(self.emb([drafts[-1]]), g, tk, tv)
                drafts.append(int(lg[0, -1].argmax()))
            seq = [nxt] + drafts
            logits, hv, new_past = self.dec_run(self.emb(seq), past, P)
            d_e, d_h, n = self.commit(ids, acc, logits[0].argmax(-1).tolist(), drafts, K, hv)
            past = [p[:, :, :P + n] for p in new_past]
            mk, mv = mk[:, :, :P], mv[:, :, :P]  # keep entries through position P-1 (step-1 entry)
            P += n
            nxt = ids[-1]
        return finish(ids, acc, max_new, ignore_eos, eos)


def torch_greedy_concat(model, pixel_values, prompt, image_id, max_new=24):
    """PyTorch greedy with the export-path math (concatenated KV cache), returns ids and per-step logits."""
    import torch
    from .model import build_inputs, export_mask, concat_kv
    c = model.c
    with torch.no_grad():
        pv = torch.from_numpy(pixel_values)
        x = build_inputs(model, model.vision(pv), prompt, image_id)
        P = x.shape[1]
        past = [(torch.zeros(1, c.kv_heads, 0, c.head_dim), torch.zeros(1, c.kv_heads, 0, c.head_dim))
                for _ in range(c.layers)]

        def run(e, past, P):
            S = e.shape[1]
            mask = export_mask(torch.ones(1, P + S, dtype=torch.long), S)
            pos = torch.arange(P, P + S).view(1, S)
            h, pres = model.decoder(e, pos, mask, [concat_kv(k, v) for k, v in past], manual=True)
            return model.logits(h), pres

        lg, past = run(x, past, 0)
        ids, logs = [], [lg[0, -1].numpy()]
        tok = int(lg[0, -1].argmax())
        for _ in range(max_new):
            ids.append(tok)
            if len(ids) == max_new:
                break
            lg, past = run(model.embed_tokens(torch.tensor([[tok]])), past, P)
            P += 1
            logs.append(lg[0, -1].numpy())
            tok = int(lg[0, -1].argmax())
    return ids, np.stack(logs)


class StepModel(OrtModel):
    """Greedy and speculative decoding through the optional step graphs (`decoder_step.onnx`,
    `mtp_step.onnx`, see onnx_steps.py), batch 1: the reference for the TS engine's fast path.

    The caches are fixed-capacity buffers; slot = position; each pass's written rows are put back at
    their positions; nothing is rolled back (stale slots past a row's position are invisible to it and
    get overwritten). Every decoder pass has at least 2 rows.
    """

    def __init__(self, d, draft_file="mtp_step.onnx"):
        super().__init__(d)
        import onnxruntime as ort
        so = ort.SessionOptions()
        so.log_severity_level = 3
        self.step = ort.InferenceSession(os.path.join(d, "decoder_step.onnx"), so, providers=["CPUExecutionProvider"])
        self.draft = ort.InferenceSession(os.path.join(d, draft_file), so, providers=["CPUExecutionProvider"])

    def buffers(self, C, names):
        return {n: np.zeros((1, self.kv, C, self.hd), np.float32) for n in names}

    @staticmethod
    def write(cache, out, pos):
        """Put the rows a pass wrote (`written.*`, [1,kv,S,d]) at their positions: the buffer stays current."""
        for n in cache:
            cache[n][:, :, pos[0]:pos[-1] + 1] = out[n.replace("past_key_values", "written")]

    def dec_step(self, cache, x, pos, rows):
        names = ["logits", "hidden_states"] + [n.replace("past_key_values", "written") for n in cache]
        out = dict(zip(names, self.step.run(names, {"inputs_embeds": x.astype(np.float32),
                                                    "position_ids": np.asarray([pos], np.int64),
                                                    "logits_rows": np.asarray(rows, np.int64), **cache})))
        self.write(cache, out, pos)
        return out["logits"][0], out["hidden_states"]

    def mtp_run(self, cache, e, hid, pos, K):
        names = ["draft_ids"] + [n.replace("past_key_values", "written") for n in cache]
        out = dict(zip(names, self.draft.run(names, {
            "inputs_embeds": e.astype(np.float32), "previous_hidden": hid.astype(np.float32),
            "position_ids": np.asarray([pos], np.int64), "last_row": np.asarray([e.shape[1] - 1], np.int64),
            "draft_k": np.asarray(K, np.int64), **cache})))
        self.write(cache, out, pos)
        return [int(t) for t in out["draft_ids"][0]]

    def speculative(self, pixel_values, max_new=24, ignore_eos=True, K=None, slack=32):
        """K = 0 is greedy. Returns ids and {steps, accepted}."""
        K = self.meta["draft_head"]["K"] if K is None else K
        eos = self.meta["special_tokens"]["eos"]
        x = self.prefix(pixel_values)
        L = x.shape[1]
        C = L + max_new + slack  # same for every K, so every softmax row has the same length
        dc = self.buffers(C, [f"past_key_values.{i}.{k}" for i in range(self.L) for k in ("key", "value")])
        mc = self.buffers(C, ["past_key_values.mtp.key", "past_key_values.mtp.value"])
        logits, h = self.dec_step(dc, x, list(range(L)), [L - 1])
        last = int(logits[0].argmax())
        ids, acc = [last], []
        pos = L  # position of `last`
        # Draft pairs (embedding of token i+1, decoder state i) the draft head has not read: the prompt's first
        pend_e = np.concatenate([x[:, 1:], self.emb([last])], axis=1)
        pend_h = h
        while len(ids) < max_new and (ignore_eos or eos not in ids):
            drafts = []
            if K > 0:
                drafts = self.mtp_run(mc, pend_e, pend_h, list(range(pos - pend_e.shape[1], pos)), K)
            W = max(K + 1, 2)
            seq = [last] + drafts + [last] * (W - K - 1)
            logits, hv = self.dec_step(dc, self.emb(seq), list(range(pos, pos + W)), list(range(K + 1)))
            pend_e, pend_h, n = self.commit(ids, acc, logits.argmax(-1).tolist(), drafts, K, hv)
            pos += n
            last = ids[-1]
        return finish(ids, acc, max_new, ignore_eos, eos)
