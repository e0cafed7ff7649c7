"""Real text for folio-ocr-lines: prose, list items, code and table cells written by people.

Sources (all on every machine built from this repository's Dockerfile and lockfile): the READMEs of the
npm packages in node_modules (MIT/ISC/Apache/BSD, each licence travels in its folder), their JavaScript
sources (code lines), and Debian's documentation (/usr/share/common-licenses, /usr/share/doc/*/copyright,
README and changelog files). Each record keeps the document it came from, so held-out lines are split by
document, never by line (`held_out(doc)`).

    python3 training/lines/line_corpus.py --out .dev/lines/corpus.tsv
"""
from __future__ import annotations

import argparse
import glob
import gzip
import hashlib
import os
import random
import re

LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
HTML = re.compile(r"<[^>]{1,200}>")
BADGE = re.compile(r"https?://\S+")
PRINTABLE = re.compile(r"^[\x20-\x7e\u00a0-\u017f\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]+$")


def held_out(doc: str) -> bool:
    """Every 20th document (by a stable hash of its name) is held out for evaluation."""
    return int(hashlib.sha1(doc.encode()).hexdigest()[:8], 16) % 20 == 0


def md_text(md: str):
    """(kind, text) pieces of a Markdown README: paragraphs, items, headings, code lines, table cells."""
    out, code = [], False
    para: list[str] = []

    def flush():
        if para:
            t = " ".join(para)
            t = re.sub(r"\s+", " ", BADGE.sub("", HTML.sub("", LINK.sub(r"\1", t)))).strip()
            t = t.replace("**", "").replace("__", "").replace("`", "")
            if len(t) >= 8:
                out.append(("prose", t))
            para.clear()

    for line in md.splitlines():
        s = line.rstrip()
        if s.lstrip().startswith("```"):
            flush()
            code = not code
            continue
        if code:
            if 0 < len(s.strip()) <= 100:
                out.append(("code", s.rstrip()))
            continue
        st = s.strip()
        if not st:
            flush()
            continue
        if st.startswith("|") and st.endswith("|"):
            flush()
            for cell in st.strip("|").split("|"):
                c = LINK.sub(r"\1", cell).replace("`", "").strip()
                if c and not set(c) <= set("-: "):
                    out.append(("cell", c))
            continue
        if st.startswith("#"):
            flush()
            out.append(("heading", LINK.sub(r"\1", st.lstrip("#").strip()).replace("`", "")))
            continue
        m = re.match(r"^([-*+]|\d+[.)])\s+(.*)", st)
        if m:
            flush()
            out.append(("item", LINK.sub(r"\1", m.group(2)).replace("`", "").replace("**", "")))
            continue
        para.append(st)
    flush()
    return out


def plain_text(txt: str):
    out, para = [], []
    for line in txt.splitlines():
        st = line.strip()
        if not st or set(st) <= set("-=*. "):
            if para:
                out.append(("prose", re.sub(r"\s+", " ", " ".join(para))))
                para = []
            continue
        para.append(st)
    if para:
        out.append(("prose", re.sub(r"\s+", " ", " ".join(para))))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--node-modules", default="node_modules")
    ap.add_argument("--max-chars", type=int, default=12_000_000)
    a = ap.parse_args()
    recs = []
    for f in sorted(glob.glob(os.path.join(a.node_modules, "**", "README.md"), recursive=True)):
        try:
            md = open(f, encoding="utf-8", errors="replace").read()[:200_000]
        except OSError:
            continue
        doc = "npm:" + os.path.relpath(os.path.dirname(f), a.node_modules)
        recs += [(doc, k, t) for k, t in md_text(md)]
    js = sorted(glob.glob(os.path.join(a.node_modules, "*", "lib", "*.js")) + glob.glob(os.path.join(a.node_modules, "*", "*.js")))
    random.Random(5).shuffle(js)
    for f in js[:3000]:
        try:
            lines = open(f, encoding="utf-8", errors="replace").read(60_000).splitlines()
        except OSError:
            continue
        doc = "npmjs:" + os.path.relpath(f, a.node_modules).split(os.sep)[0]
        recs += [(doc, "code", l.rstrip()) for l in lines if 3 <= len(l.strip()) <= 100]
    deb = sorted(glob.glob("/usr/share/common-licenses/*") + glob.glob("/usr/share/doc/*/copyright")
                 + glob.glob("/usr/share/doc/*/README*") + glob.glob("/usr/share/doc/*/NEWS*") + glob.glob("/usr/share/doc/*/changelog*"))
    for f in deb:
        if os.path.isdir(f):
            continue
        try:
            raw = gzip.open(f).read(300_000) if f.endswith(".gz") else open(f, "rb").read(300_000)
            txt = raw.decode("utf-8", errors="replace")
        except (OSError, EOFError):
            continue
        doc = "deb:" + os.path.relpath(f, "/usr/share")
        if f.endswith((".md", ".md.gz")):
            recs += [(doc, k, t) for k, t in md_text(txt)]
        else:
            recs += [(doc, k, t) for k, t in plain_text(txt)]
    seen, kept, chars = set(), [], 0
    for doc, k, t in recs:
        t = t.replace("\t", "    ").replace("\ufffd", "")
        if not t.strip() or not PRINTABLE.match(t) or (k, t) in seen:
            continue
        seen.add((k, t))
        kept.append((doc, k, t))
        chars += len(t)
    random.Random(7).shuffle(kept)
    total = 0
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w", encoding="utf-8") as fh:
        for doc, k, t in kept:
            if total > a.max_chars:
                break
            fh.write(f"{doc}\t{k}\t{t}\n")
            total += len(t)
    kinds = {}
    for _, k, t in kept:
        kinds[k] = kinds.get(k, 0) + 1
    print(f"{len(kept)} records, {chars} chars ({total} written), docs {len({d for d, _, _ in kept})}, kinds {kinds}")


if __name__ == "__main__":
    main()
