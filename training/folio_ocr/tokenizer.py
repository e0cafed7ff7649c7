"""Byte-level BPE tokenizer (HF `tokenizers` format) with special tokens for images, grounding and tables."""
from __future__ import annotations

from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers, AddedToken

SPECIAL_TOKENS = [
    "<|pad|>", "<|bos|>", "<|eos|>", "<image>", "<|view_sep|>",
    "<|grounding|>", "<|ref|>", "<|/ref|>", "<|det|>", "<|/det|>",
    "<table>", "</table>", "<tr>", "</tr>", "<td>", "</td>", "<th>", "</th>",
]
PROMPT_TEXT = "\nFree OCR.\n"


def train_tokenizer(texts, vocab_size):
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=[AddedToken(t, special=True, normalized=False) for t in SPECIAL_TOKENS],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(texts, trainer=trainer)
    for i, t in enumerate(SPECIAL_TOKENS):
        assert tok.token_to_id(t) == i, (t, tok.token_to_id(t))
    return tok


def special_ids(tok):
    return {t: tok.token_to_id(t) for t in SPECIAL_TOKENS}


def prompt_ids(tok, tokens_per_view, n_views=1):
    """[bos] [image]*T (per view, views separated by nothing) [view_sep] + PROMPT_TEXT tokens."""
    ids = [tok.token_to_id("<|bos|>")] + [tok.token_to_id("<image>")] * (tokens_per_view * n_views)
    ids += [tok.token_to_id("<|view_sep|>")] + tok.encode(PROMPT_TEXT).ids
    return ids


def prompt_text(n_image_tokens):
    return "<|bos|>" + "<image>" * n_image_tokens + "<|view_sep|>" + PROMPT_TEXT
