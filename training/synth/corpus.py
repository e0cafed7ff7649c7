"""Build a small real-prose corpus from Debian packages (run on the dev machine; output is carried).

English: /usr/share/common-licenses/* and /usr/share/doc/*/copyright (licence and copyright prose).
Chinese: the zh_CN manual pages of the Debian package manpages-zh (roff macros stripped).

    python3 training/synth/corpus.py --out .dev/corpus
"""
from __future__ import annotations

import argparse
import glob
import gzip
import os
import re

CJK = re.compile(r"[\u4e00-\u9fff]")


def clean_para(p):
    p = re.sub(r"\s+", " ", p).strip()
    p = p.replace("\t", " ")
    return p


def english_paragraphs():
    files = sorted(glob.glob("/usr/share/common-licenses/*")) + sorted(glob.glob("/usr/share/doc/*/copyright"))
    seen, out = set(), []
    for f in files:
        if os.path.isdir(f):
            continue
        try:
            txt = open(f, encoding="utf-8", errors="ignore").read()
        except OSError:
            continue
        for para in re.split(r"\n\s*\n", txt):
            p = clean_para(para)
            if len(p) < 60 or p in seen:
                continue
            if not all(32 <= ord(ch) < 127 for ch in p):
                continue
            letters = sum(ch.isalpha() for ch in p)
            if letters < 0.6 * len(p) or p.count("*") > 3 or "http" in p[:8] or p.startswith(("Files:", "Copyright:")):
                continue
            seen.add(p)
            out.append(p)
    return out


def roff_to_text(src):
    lines = []
    for ln in src.splitlines():
        if ln.startswith(('.', "'")):
            m = re.match(r"\.(SH|SS|B|I|BI|BR|IR|IP|TP)\s+(.*)", ln)
            if m and m.group(1) in ("B", "I", "BI", "BR", "IR") and m.group(2):
                ln = m.group(2)
            else:
                lines.append("")
                continue
        ln = re.sub(r"\\f[BIRP]|\\f\(..|\\/|\\,|\\&|\\\(..|\\[*][a-zA-Z(]*", "", ln)
        ln = ln.replace("\\-", "-").replace("\\ ", " ").replace("\\e", "\\").replace('"', "")
        lines.append(ln)
    return "\n".join(lines)


def chinese_paragraphs():
    out, seen = [], set()
    for f in sorted(glob.glob("/usr/share/man/zh_CN/man*/*.gz")):
        try:
            src = gzip.open(f).read().decode("utf-8", errors="ignore")
        except Exception:
            continue
        for para in re.split(r"\n\s*\n", roff_to_text(src)):
            p = clean_para(para)
            if len(CJK.findall(p)) < 12 or p in seen or "\\" in p:
                continue
            seen.add(p)
            out.append(p)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=".dev/corpus")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    en, zh = english_paragraphs(), chinese_paragraphs()
    with open(os.path.join(a.out, "en.txt"), "w") as f:
        f.write("\n".join(en) + "\n")
    with open(os.path.join(a.out, "zh.txt"), "w") as f:
        f.write("\n".join(zh) + "\n")
    print(f"en paragraphs {len(en)} ({sum(map(len, en))} chars); zh paragraphs {len(zh)} ({sum(map(len, zh))} chars)")


if __name__ == "__main__":
    main()
