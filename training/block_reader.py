"""The block reader the evaluation scripts share: a trained checkpoint loaded as it is exported, read greedily.

    reader = load_reader(".cache/ocr-run3", ".dev/ocr/tokenizer.json")
    texts = reader.read(views, max_new=120)  # one text per 128x512 grey view
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass

import numpy as np
import torch
from tokenizers import Tokenizer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_trained import load_model  # noqa: E402
from folio_ocr.export import round_weights_fp16  # noqa: E402
from folio_ocr.tokenizer import prompt_ids  # noqa: E402
from folio_ocr import decode as D  # noqa: E402
from folio_ocr import preprocess as pp  # noqa: E402


@dataclass
class BlockReader:
    model: torch.nn.Module
    tok: Tokenizer
    prompt: list
    image_id: int
    eos: int

    def read(self, views, max_new, batch=48):
        """Greedy text of each grey view (uint8, view_h x view_w), in order, EOS dropped."""
        texts = []
        for i in range(0, len(views), batch):
            px = torch.from_numpy(np.concatenate([pp.normalise(v) for v in views[i:i + batch]]))
            ids = D.greedy(self.model, px, self.prompt, self.image_id, self.eos, max_new=max_new)
            texts += [self.tok.decode([t for t in r if t != self.eos]) for r in ids]
        return texts


def load_reader(ckpt, tokenizer):
    """The checkpoint's model with its weights rounded to fp16, as the exported files hold them, so that the
    scores measure what ships. `ckpt` may also be an exported model folder (folio-model.json beside the ONNX
    files): the committed weights, read back by `folio_ocr.from_onnx` (greedy decoding only)."""
    if os.path.exists(os.path.join(ckpt, "folio-model.json")):
        from folio_ocr.from_onnx import load_folio_onnx
        model, _ = load_folio_onnx(ckpt)
    else:
        model, _ = load_model(ckpt)
    round_weights_fp16(model)
    tok = Tokenizer.from_file(tokenizer)
    return BlockReader(model, tok, prompt_ids(tok, model.c.tokens_per_view), tok.token_to_id("<image>"),
                       tok.token_to_id("<|eos|>"))
