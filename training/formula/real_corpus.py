"""Real formulas for folio-ocr-math: the math of the LaTeX documentation that Debian ships in TeX Live's
`-doc` packages, extracted (`tex_math.py`), checked and split; built here (apt-get, dpkg, node), not on the
GPU machine (it reaches no registry): the lists are committed.

Steps: `apt-get download` each package into `--cache`/debs and `dpkg -x` it; every `.tex`/`.ltx`/`.dtx`
(also gzipped, as Debian stores large docs) is read with the macros of its folder's sources; each formula is
canonicalised, kept when it is ASCII, at most `--max-tokens` tokens of the model's tokenizer, not a word run
(`$Id: ...$` keywords), accepted by KaTeX (the pipeline's `makeFormula`, `bench/math/katex-check.ts`) and
drawn by the training renderer (`render.py`); duplicates are merged. The split is by CTAN package (one
manual = one document): a seeded share of packages is held out, and a formula is held out only when no
training package has it, so no held-out formula is ever trained on. Each formula keeps its Debian package,
CTAN package and licence (from the package's `Licenses` file, which Debian's copyright points to).

    python3 training/formula/real_corpus.py --cache .cache/mathsrc --list-dir training/formula/data
"""
from __future__ import annotations

import argparse
import collections
import glob
import gzip
import hashlib
import json
import logging
import multiprocessing
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from grammar import kinds_of  # noqa: E402
from latex import tokens  # noqa: E402
from tex_math import collect_macros, formulas_of, strip_comments  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
PACKAGES = ["texlive-latex-base-doc", "texlive-latex-recommended-doc", "texlive-latex-extra-doc",
            "texlive-science-doc", "texlive-publishers-doc", "texlive-fonts-extra-doc", "texlive-pictures-doc"]
SPLIT_SEED = 20261202
SOURCE_EXT = (".tex", ".ltx", ".dtx", ".tex.gz", ".ltx.gz", ".dtx.gz")
TEXT_GROUP_RE = re.compile(r"\\(?:text|mathrm|operatorname\*?|textrm|textbf|textit|mbox|mathit|mathbf|mathsf|mathtt)\{[^{}]*\}")


def fetch(cache, packages):
    """Each package's files under cache/x/<package> (downloaded and unpacked once)."""
    debs = os.path.join(cache, "debs")
    os.makedirs(debs, exist_ok=True)
    roots = {}
    for p in packages:
        found = glob.glob(os.path.join(debs, f"{p}_*.deb"))
        if not found:
            subprocess.run(["apt-get", "download", p], cwd=debs, check=True)
            found = glob.glob(os.path.join(debs, f"{p}_*.deb"))
        dest = os.path.join(cache, "x", p)
        if not os.path.isdir(dest):
            os.makedirs(dest)
            subprocess.run(["dpkg", "-x", found[0], dest], check=True)
        roots[p] = (dest, os.path.basename(found[0]).split("_")[1])
    return roots


def licences(root, package):
    """[(path prefix under texmf-dist/doc, CTAN package, licence)] from the package's `Licenses` file,
    longest prefix first."""
    path = os.path.join(root, "usr/share/doc", package, "Licenses.gz")
    out, name, lic = [], None, None
    if not os.path.exists(path):
        return out
    for line in gzip.open(path, "rt", encoding="utf-8", errors="replace"):
        m = re.match(r"^(\S+): *(.*)$", line.rstrip())
        if m and not line.startswith(" "):
            name, lic = m.group(1), m.group(2).strip() or "unknown"
            continue
        f = line.strip()
        if name and f.startswith("texmf-dist/doc/"):
            out.append((f[len("texmf-dist/doc/"):].rstrip("*"), name, lic))
    return sorted(out, key=lambda t: -len(t[0]))


def read_source(path):
    b = gzip.open(path).read() if path.endswith(".gz") else open(path, "rb").read()
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b.decode("latin-1")


VCS_RE = re.compile(r"^(?:Id|Log|Revision|Rev|Date|Author|Header|Source|HeadURL|RCSfile|LastChanged[A-Za-z]*):")


def word_run(s):
    """A version-control keyword (`$Id: ...$`, `$Log: ...$`) or a run of 8+ letters outside text groups and
    control words: text between dollars, not math."""
    if VCS_RE.match(s):
        return True
    t = TEXT_GROUP_RE.sub(" ", s)
    t = re.sub(r"\\[A-Za-z]+", " ", t)
    return re.search(r"[A-Za-z]{8,}", t) is not None


def extract(roots):
    """{formula: {"display": bool, "sources": {(deb, ctan, licence)}}} and per-stage counts."""
    found = {}
    counts = collections.Counter()
    for deb, (root, version) in roots.items():
        lic = licences(root, deb)
        doc = os.path.join(root, "usr/share/doc/texlive-doc")
        files = sorted(p for p in glob.glob(os.path.join(doc, "**", "*"), recursive=True) if p.endswith(SOURCE_EXT))
        dir_macros = {}
        for path in files:
            d = os.path.dirname(path)
            if d not in dir_macros:  # a manual's preamble often lives in a sibling file or a local .sty
                text = ""
                for q in sorted(glob.glob(os.path.join(d, "*"))):
                    if q.endswith(SOURCE_EXT + (".sty",)):
                        text += strip_comments(read_source(q)) + "\n"
                dir_macros[d] = collect_macros(text)
            rel = os.path.relpath(path, doc)
            ctan, licence = next(((n, l) for pre, n, l in lic if rel.startswith(pre)), (rel.split("/")[1] if "/" in rel else rel, "unknown"))
            counts["files"] += 1
            for s, display in formulas_of(read_source(path), dir_macros[d], dtx=".dtx" in path):
                counts["extracted"] += 1
                e = found.setdefault(s, {"display": False, "sources": set()})
                e["display"] |= display
                e["sources"].add((deb, ctan, licence))
    return found, counts


def katex_ok(formulas):
    p = subprocess.run(["node", os.path.join(ROOT, "bench/math/katex-check.ts")], input="\n".join(formulas) + "\n",
                       capture_output=True, text=True, cwd=ROOT, check=True)
    return [json.loads(l)["ok"] for l in p.stdout.splitlines()]


class _GlyphMisses(logging.Handler):
    """Counts mathtext's "does not have a glyph ... substituting with a dummy symbol" warnings."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.n = 0

    def emit(self, record):
        self.n += "dummy symbol" in record.getMessage()


_misses = None


def _renders(s):
    """The renderer draws it, at the largest training size (the widest view), with no dummy glyph."""
    global _misses
    from render import render_view
    if _misses is None:
        _misses = _GlyphMisses()
        log = logging.getLogger("matplotlib.mathtext")
        log.addHandler(_misses)
        log.propagate = False
    before = _misses.n
    seed = int(hashlib.sha1(s.encode()).hexdigest()[:8], 16)
    return render_view(s, random.Random(seed), size=32) is not None and _misses.n == before


def kind_of(s):
    """One coarse kind per formula (the first that applies), for the counts."""
    ks = kinds_of(s)
    for k in ("aligned", "cases", "matrix", "bigop", "limit", "fraction", "root", "delim", "accent", "font"):
        if k in ks:
            return k
    if re.search(r"=|<|>|\\(?:leq?|geq?|neq|approx|equiv|sim|in|subset|to|rightarrow|Rightarrow)\b", s):
        return "relation"
    return "script" if "script" in ks else "short"


def held_package(ctan, seed, share):
    """Whether a CTAN package is held out: a hash of (seed, name), so the choice of one package never moves
    when sources are added or removed (a held-out manual stays held out across rebuilds)."""
    return int(hashlib.sha1(f"{seed}:{ctan}".encode()).hexdigest()[:8], 16) < share * 0x100000000


def split(found, seed, share):
    """(train, held-out) formula lists: held out = every source in a held-out CTAN package."""
    ctans = sorted({c for e in found.values() for _, c, _ in e["sources"]})
    held_pk = {c for c in ctans if held_package(c, seed, share)}
    train, held = [], []
    for s in sorted(found):
        (held if all(c in held_pk for _, c, _ in found[s]["sources"]) else train).append(s)
    return train, held, held_pk


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", default=".cache/mathsrc")
    ap.add_argument("--list-dir", default=os.path.join(HERE, "data"))
    ap.add_argument("--tokenizer", default="inference/models/folio-ocr-math/tokenizer.json")
    ap.add_argument("--max-tokens", type=int, default=90)
    ap.add_argument("--heldout-share", type=float, default=0.15)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(a.tokenizer)
    roots = fetch(a.cache, PACKAGES)
    found, counts = extract(roots)
    print("extracted", dict(counts), file=sys.stderr, flush=True)
    counts["unique"] = len(found)
    keep = [s for s in found if not word_run(s)]
    counts["not_word_runs"] = len(keep)
    keep = [s for s in keep if len(tok.encode(s).ids) <= a.max_tokens and len(tokens(s)) <= 160]
    counts["fit_tokens"] = len(keep)
    oks = katex_ok(keep)
    keep = [s for s, ok in zip(keep, oks) if ok]
    counts["katex_ok"] = len(keep)
    print("katex", dict(counts), file=sys.stderr, flush=True)
    with multiprocessing.Pool(a.workers) as pool:
        drawn = pool.map(_renders, keep, chunksize=64)
    keep = [s for s, ok in zip(keep, drawn) if ok]
    counts["rendered"] = len(keep)
    found = {s: found[s] for s in keep}
    train, held, held_pk = split(found, SPLIT_SEED, a.heldout_share)
    # a formula another held-out list has (synthetic, KaTeX's tests) is not trained on either
    elsewhere = set()
    for name in ("heldout-synthetic.tsv", "heldout-real.tsv"):
        path = os.path.join(a.list_dir, name)
        if os.path.exists(path):
            elsewhere |= {l.rstrip("\n").split("\t")[0] for l in open(path, encoding="utf-8")}
    counts["train_held_out_elsewhere"] = sum(s in elsewhere for s in train)
    train = [s for s in train if s not in elsewhere]
    os.makedirs(a.list_dir, exist_ok=True)
    for name, xs in (("tex-train.tsv", train), ("tex-heldout.tsv", held)):
        with open(os.path.join(a.list_dir, name), "w", encoding="utf-8") as f:
            f.write("latex\tkind\tdisplay\tdebian_package\tctan_package\tlicence\tn_sources\n")
            for s in xs:
                deb, ctan, lic = sorted(found[s]["sources"])[0]
                f.write(f"{s}\t{kind_of(s)}\t{int(found[s]['display'])}\t{deb}\t{ctan}\t{lic}\t{len(found[s]['sources'])}\n")

    def summary(xs):
        lens = sorted(len(tok.encode(s).ids) for s in xs) or [0]
        cons = collections.Counter(c for s in xs for c in kinds_of(s))
        return {"n": len(xs), "display": sum(found[s]["display"] for s in xs),
                "kinds": dict(collections.Counter(kind_of(s) for s in xs).most_common()),
                "constructs_share": {k: round(v / max(1, len(xs)), 3) for k, v in cons.most_common()},
                "tokens": {"median": lens[len(lens) // 2], "p90": lens[len(lens) * 9 // 10], "max": lens[-1]}}
    first = {s: sorted(found[s]["sources"])[0] for s in found}
    stats = {
        "debian_packages": {p: v for p, (_, v) in roots.items()},
        "stages": dict(counts), "split_seed": SPLIT_SEED, "heldout_ctan_packages": len(held_pk),
        "train": summary(train), "heldout": summary(held),
        "by_debian_package": dict(collections.Counter(first[s][0] for s in found).most_common()),
        "by_licence": dict(collections.Counter(first[s][2] for s in found).most_common()),
        "top_ctan_packages": dict(collections.Counter(first[s][1] for s in found).most_common(25)),
        "ctan_packages": len({first[s][1] for s in found}),
        "npm_checked": "KaTeX (contrib test, used by corpus.py), @mathjax/src 4.1.3, temml 0.13.5, mathlive 0.111.1: "
                       "only KaTeX's tarball ships test expressions",
    }
    json.dump(stats, open(os.path.join(a.list_dir, "tex-stats.json"), "w"), indent=1)
    print(json.dumps(stats, indent=1))


if __name__ == "__main__":
    main()
