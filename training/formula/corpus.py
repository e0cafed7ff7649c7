"""The formula lists and the tokenizer of folio-ocr-math, built here (CPU, seconds).

- the held-out synthetic set: `--heldout` formulas from the generator under its own seed, each checked by
  KaTeX (the pipeline's check, `bench/math/katex-check.ts`) and typeset by the renderer; training never
  draws one of them (the training stream skips them by string);
- real formulas: the expressions of KaTeX's own tests shipped in its npm package
  (`contrib/render-a11y-string/test`), canonicalised, kept when KaTeX and the renderer both take them,
  split half for training and half held out (seeded);
- a sample of the training stream, KaTeX-checked, for the pass rate and the counts by kind;
- the byte-level BPE tokenizer (vocabulary `--vocab`) trained on that sample and the real formulas.

    python3 training/formula/corpus.py --out .dev/math --list-dir training/formula/data
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from grammar import Gen, kinds_of  # noqa: E402
from latex import canonical  # noqa: E402
from render import render_view  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
HELDOUT_SEED = 20261201
SPEC = "node_modules/katex/contrib/render-a11y-string/test/render-a11y-string-spec.ts"


def katex_ok(formulas):
    """KaTeX's verdict per formula (the pipeline's makeFormula, through node)."""
    p = subprocess.run(["node", os.path.join(ROOT, "bench/math/katex-check.ts")], input="\n".join(formulas) + "\n",
                       capture_output=True, text=True, cwd=ROOT, check=True)
    return [json.loads(l)["ok"] for l in p.stdout.splitlines()]


def katex_spec_formulas():
    text = open(os.path.join(ROOT, SPEC), encoding="utf-8").read()
    out = []
    for m in re.finditer(r'renderA11yString\(\s*"((?:[^"\\]|\\.)*)"', text):
        try:
            out.append(json.loads('"' + m.group(1) + '"'))
        except json.JSONDecodeError:
            continue
    return sorted(set(canonical(s) for s in out if s.strip()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=".dev/math")
    ap.add_argument("--list-dir", default=os.path.join(HERE, "data"))
    ap.add_argument("--heldout", type=int, default=600)
    ap.add_argument("--sample", type=int, default=60000)
    ap.add_argument("--vocab", type=int, default=1024)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    os.makedirs(a.list_dir, exist_ok=True)
    rng = random.Random(HELDOUT_SEED)
    # held-out synthetic formulas
    g = Gen(random.Random(HELDOUT_SEED))
    held, kinds = [], []
    seen = set()
    while len(held) < a.heldout:
        batch = []
        while len(batch) < a.heldout:
            s, k = g.formula()
            if s not in seen:
                seen.add(s)
                batch.append((s, k))
        oks = katex_ok([s for s, _ in batch])
        for (s, k), ok in zip(batch, oks):
            if ok and len(held) < a.heldout and render_view(s, rng) is not None:
                held.append(s)
                kinds.append(k)
    with open(os.path.join(a.list_dir, "heldout-synthetic.tsv"), "w") as f:
        f.write("latex\tkind\n")
        for s, k in zip(held, kinds):
            f.write(f"{s}\t{k}\n")
    # real formulas (KaTeX's tests), split half/half
    spec = katex_spec_formulas()
    oks = katex_ok(spec)
    real = [s for s, ok in zip(spec, oks) if ok and render_view(s, random.Random(0)) is not None]
    random.Random(7).shuffle(real)
    real_held, real_train = sorted(real[: len(real) // 2]), sorted(real[len(real) // 2:])
    for name, xs in (("heldout-real.tsv", real_held), ("train-real.tsv", real_train)):
        with open(os.path.join(a.list_dir, name), "w") as f:
            f.write("latex\n" + "".join(s + "\n" for s in xs))
    # the training stream's statistics (seed 1, as train_math.py's first worker) and the tokenizer
    g = Gen(random.Random(1))
    sample = [g.formula() for _ in range(a.sample)]
    oks = katex_ok([s for s, _ in sample])
    by_kind = collections.Counter(k for _, k in sample)
    constructs = collections.Counter(c for s, _ in sample for c in kinds_of(s))
    from folio_ocr.tokenizer import train_tokenizer
    tok = train_tokenizer([s for s, _ in sample] + real_train, a.vocab)
    tok.save(os.path.join(a.out, "tokenizer.json"))
    lens = sorted(len(tok.encode(s).ids) for s, _ in sample)
    stats = {
        "heldout_synthetic": len(held), "heldout_kinds": dict(collections.Counter(kinds)),
        "katex_spec_expressions": len(spec), "real_kept": len(real), "real_heldout": len(real_held),
        "real_train": len(real_train),
        "stream_sample": len(sample), "stream_katex_pass": sum(oks) / len(oks),
        "stream_top_kinds": dict(by_kind), "stream_constructs_share": {k: round(v / len(sample), 3) for k, v in constructs.most_common()},
        "tokens_per_formula": {"median": lens[len(lens) // 2], "p90": lens[len(lens) * 9 // 10], "max": lens[-1]},
        "vocab": tok.get_vocab_size(),
    }
    json.dump(stats, open(os.path.join(a.list_dir, "stats.json"), "w"), indent=1)
    print(json.dumps(stats, indent=1))


if __name__ == "__main__":
    main()
