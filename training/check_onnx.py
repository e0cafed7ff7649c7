"""Run the exported ONNX files with onnxruntime and compare with PyTorch.

    .venv/bin/python training/check_onnx.py --model inference/models/folio-ocr-mini \
        --ckpt .cache/ocr-run3 --assets .dev/ocr --n 4

Reports max abs differences (visual embeddings, prefill logits, per-step logits), whether onnxruntime
greedy ids, onnxruntime speculative (FastMTP, K from folio-model.json) ids and PyTorch greedy ids are
identical, the same through the optional step graphs (decoder_step/mtp_step, when the folder has
them), and writes check.json plus sample-*.png / expected ids into the model folder.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys

import numpy as np
import torch
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "synth"))
from folio_ocr.ort_ref import OrtModel, StepModel, torch_greedy_concat  # noqa: E402
from folio_ocr.export import round_weights_fp16  # noqa: E402
from folio_ocr import preprocess as pp  # noqa: E402
from export_trained import load_model  # noqa: E402
from blocks import TextSource, Fonts, render_block  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="inference/models/folio-ocr-mini")
    ap.add_argument("--ckpt", default=None)
    ap.add_argument("--assets", default=".dev/ocr")
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--max-new", type=int, default=64)
    a = ap.parse_args()
    om = OrtModel(a.model)
    meta = om.meta
    sm = StepModel(a.model) if "decoder_step" in meta["onnx"] else None
    vh, vw = meta["image"]["global_view"]["height"], meta["image"]["global_view"]["width"]
    model = None
    if a.ckpt:
        model, _ = load_model(a.ckpt)
        round_weights_fp16(model)
    rng = random.Random(2024)
    src = TextSource(os.path.join(a.assets, "corpus")).split(held_out=True)
    fonts = Fonts(os.path.join(a.assets, "fonts"))
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(os.path.join(a.model, "tokenizer.json"))
    eos = meta["special_tokens"]["eos"]
    report = {"cases": []}
    for i in range(a.n):
        arr, ref = render_block(rng, src, fonts, view=(vh, vw), stage=2, degrade=(i % 2 == 1))
        name = f"sample-{i}.png"
        Image.fromarray(arr).save(os.path.join(a.model, name))
        pv = pp.preprocess(Image.open(os.path.join(a.model, name)), vh, vw)
        o_ids, o_logits = om.greedy(pv, a.max_new, ignore_eos=False, keep_logits=True)
        s_ids, s_st = om.speculative(pv, a.max_new, ignore_eos=False)
        case = {"image": name, "reference_text": ref, "ort_greedy_ids": o_ids,
                "ort_text": tok.decode([t for t in o_ids if t != eos]),
                "ort_speculative_equal": s_ids == o_ids, "speculative_steps": s_st["steps"],
                "tau": (len(s_ids) - 1) / max(1, s_st["steps"])}
        if sm is not None:
            g_ids, _ = sm.speculative(pv, a.max_new, ignore_eos=False, K=0)
            k_ids, k_st = sm.speculative(pv, a.max_new, ignore_eos=False)
            case.update({"step_greedy_equal": g_ids == o_ids, "step_speculative_equal": k_ids == g_ids,
                         "step_tau": (len(k_ids) - 1) / max(1, k_st["steps"])})
        if model is not None:
            t_ids, t_logits = torch_greedy_concat(model, pv, meta["prompt"]["input_ids"],
                                                  meta["special_tokens"]["image"], len(o_ids))
            with torch.no_grad():
                vt = model.vision(torch.from_numpy(pv)).numpy()
            vo = om.vision.run(None, {"pixel_values": pv})[0]
            n = min(len(t_logits), len(o_logits))
            case.update({"torch_equal": t_ids[:len(o_ids)] == o_ids,
                         "max_abs_diff_visual": float(np.abs(vt - vo).max()),
                         "max_abs_diff_logits": float(np.abs(t_logits[:n] - o_logits[:n]).max()),
                         "max_abs_diff_prefill_logits": float(np.abs(t_logits[0] - o_logits[0]).max())})
        print(json.dumps({k: v for k, v in case.items() if k != "ort_greedy_ids"}, ensure_ascii=False))
        report["cases"].append(case)
    keys = ["max_abs_diff_visual", "max_abs_diff_logits"]
    report["summary"] = {k: max(c[k] for c in report["cases"]) for k in keys if k in report["cases"][0]}
    report["summary"]["all_ids_equal"] = all(c["ort_speculative_equal"] and c.get("torch_equal", True)
                                             and c.get("step_greedy_equal", True) and c.get("step_speculative_equal", True)
                                             for c in report["cases"])
    print("SUMMARY", json.dumps(report["summary"]))
    json.dump(report, open(os.path.join(a.model, "check.json"), "w"), indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
