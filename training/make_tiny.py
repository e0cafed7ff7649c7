"""Tiny randomly initialised folio-ocr export for the TypeScript engine's tests.

    .venv/bin/python training/make_tiny.py --out test/fixtures/models/folio-ocr-tiny-random

Writes vision/embed_tokens/decoder/mtp .onnx (fp16-stored weights, fp32 compute), the optional step
graphs decoder_step/mtp_step .onnx, weights.bin (the text networks' weights, shared), tokenizer.json,
folio-model.json, two input PNGs and reference.json (pixel values, PyTorch greedy ids for 24 steps
with EOS ignored, onnxruntime greedy and speculative ids through both graph sets, max abs logit
differences).
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np
import torch
from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from folio_ocr.model import FolioConfig, FolioOCR, param_groups  # noqa: E402
from folio_ocr.tokenizer import train_tokenizer, prompt_ids  # noqa: E402
from folio_ocr.export import export_model, round_weights_fp16  # noqa: E402
from folio_ocr.ort_ref import OrtModel, StepModel, torch_greedy_concat  # noqa: E402
from folio_ocr import preprocess as pp  # noqa: E402

TEXT_FILES = ["/usr/share/common-licenses/Apache-2.0", "/usr/share/common-licenses/MPL-2.0"]


def tiny_config(vocab):
    return FolioConfig(view_h=64, view_w=256, stem_dims=(8, 16), local_blocks=1, comp_dims=(32, 64), vis_layers=1,
                       vis_heads=2, hidden=64, layers=2, heads=2, kv_heads=1, head_dim=32, mlp=128, vocab=vocab,
                       max_pos=512)


def font(size):
    for f in ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", ".dev/fonts/DejaVuSans.ttf"]:
        if os.path.exists(f):
            return ImageFont.truetype(f, size)
    return ImageFont.load_default()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="test/fixtures/models/folio-ocr-tiny-random")
    ap.add_argument("--steps", type=int, default=24)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    torch.manual_seed(0)
    texts = []
    for f in TEXT_FILES:
        texts.append(open(f).read()[:4000])
    tok = train_tokenizer(texts, vocab_size=512)
    c = tiny_config(tok.get_vocab_size())
    model = FolioOCR(c).eval()
    # larger random weights on the LM head so the greedy path is not a constant token
    with torch.no_grad():
        for n, p in model.named_parameters():
            if p.dim() >= 2 and "embed" not in n:
                p.normal_(0, 0.15)
        model.embed_tokens.weight.normal_(0, 1.0)
        model.vision.row_embed.normal_(0, 0.5)
        model.vision.col_embed.normal_(0, 0.5)
        model.lm_head.weight.normal_(0, 0.5)
    round_weights_fp16(model)
    meta = export_model(model, tok, a.out, fp16_weights=True, name="folio-ocr-tiny-random", version="0.0.1",
                        training_summary="none: random initialisation (seed 0); tokenizer trained on 8 KB of "
                                         "Apache-2.0 and MPL-2.0 licence text",
                        extra_meta={"generation": {"max_new_tokens": a.steps, "stop": ["eos"], "greedy": True,
                                                   "note": "random model: tests ignore EOS"}})
    # inputs: one grey image at view size, one RGB image of another size (exercises grey + resize)
    im1 = Image.new("L", (c.view_w, c.view_h), 255)
    ImageDraw.Draw(im1).text((4, 18), "Folio 2026: hello, world", fill=0, font=font(20))
    im1.save(f"{a.out}/input-0.png")
    im2 = Image.new("RGB", (300, 90), (250, 245, 230))
    d = ImageDraw.Draw(im2)
    d.text((6, 10), "Table 3 | x = 42", fill=(20, 30, 160), font=font(26))
    d.rectangle([200, 50, 290, 80], outline=(200, 0, 0), width=3)
    im2.save(f"{a.out}/input-1.png")

    ort_m = OrtModel(a.out)
    step_m = StepModel(a.out)
    prompt = prompt_ids(tok, c.tokens_per_view)
    ref = {"note": "pixel_values follow folio-model.json image rules; greedy ids are the first `steps` argmax "
                   "tokens after the prompt with EOS ignored", "steps": a.steps, "prompt_ids": prompt,
           "params": param_groups(model), "cases": []}
    for i, name in enumerate(["input-0.png", "input-1.png"]):
        img = Image.open(f"{a.out}/{name}")
        pv = pp.preprocess(img, c.view_h, c.view_w)
        t_ids, t_logits = torch_greedy_concat(model, pv, prompt, tok.token_to_id("<image>"), a.steps)
        o_ids, o_logits = ort_m.greedy(pv, a.steps, ignore_eos=True, keep_logits=True)
        s_ids, s_stats = ort_m.speculative(pv, a.steps, ignore_eos=True)
        step_ids = {K: step_m.speculative(pv, a.steps, ignore_eos=True, K=K)[0] for K in (0, 1, 3)}
        with torch.no_grad():
            vis_t = model.vision(torch.from_numpy(pv)).numpy()
        vis_o = ort_m.vision.run(None, {"pixel_values": pv})[0]
        flat = pv[0, 0].reshape(-1)
        case = {
            "image": name, "mode": img.mode, "size": list(img.size),
            "pixel_values_shape": list(pv.shape),
            "pixel_values_first16": [float(x) for x in flat[:16]],
            "pixel_values_row0_first16_channel0": [float(x) for x in pv[0, 0, 0, :16]],
            "pixel_values_sum": float(pv.astype(np.float64).sum()),
            "pixel_values_nonwhite": int((pv[0, 0] < 1.0).sum()),
            "visual_embeds_first8": [float(x) for x in vis_o[0, 0, :8]],
            "prefill_logits_first8": [float(x) for x in o_logits[0, :8]],
            "greedy_ids": t_ids,
            "greedy_text": tok.decode(t_ids, skip_special_tokens=False),
            "ort_greedy_ids": o_ids,
            "ort_speculative_ids": s_ids,
            "step_ids_equal": all(ids == t_ids for ids in step_ids.values()),
            "speculative_steps": s_stats["steps"],
            "speculative_accepted": s_stats["accepted"],
            "max_abs_diff_vision": float(np.abs(vis_t - vis_o).max()),
            "max_abs_diff_logits": float(np.abs(t_logits - o_logits).max()),
            "ids_equal": t_ids == o_ids == s_ids and all(ids == t_ids for ids in step_ids.values()),
            "min_top1_top2_logit_margin": float(np.min(np.diff(np.sort(o_logits, -1)[:, -2:], axis=-1))),
        }
        print(name, case["ids_equal"], case["max_abs_diff_logits"], case["max_abs_diff_vision"], t_ids)
        ref["cases"].append(case)
    json.dump(ref, open(f"{a.out}/reference.json", "w"), indent=1)
    tot = sum(os.path.getsize(os.path.join(a.out, f)) for f in os.listdir(a.out))
    print("params", param_groups(model), "fixture bytes", tot)
    assert all(cs["ids_equal"] for cs in ref["cases"])


if __name__ == "__main__":
    main()
