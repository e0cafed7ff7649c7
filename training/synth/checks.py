"""olmOCR-Bench-style unit tests on a Markdown page (present, absent, order, table, math).

A Python re-implementation of the test semantics for our synthetic pages (simplified: fuzzy matching is
edit distance of the test text to the best-matching substring, after whitespace/quote normalisation).
"""
from __future__ import annotations

import re
from html.parser import HTMLParser

import numpy as np


def norm(s):
    s = s.replace("\u201c", '"').replace("\u201d", '"').replace("\u2018", "'").replace("\u2019", "'")
    s = re.sub(r"<\|ref\|>.*?<\|/ref\|><\|det\|>.*?<\|/det\|>", " ", s)
    s = re.sub(r"[*_#]+", "", s)
    return re.sub(r"\s+", " ", s).strip()


def best_substring(pattern, text):
    """(min edit distance of pattern to any substring of text, end index)."""
    if not pattern:
        return 0, 0
    if not text:
        return len(pattern), 0
    t = np.array([ord(c) for c in text])
    prev = np.zeros(len(text) + 1, dtype=np.int64)
    idx = np.arange(len(text) + 1)
    for i, ch in enumerate(pattern, 1):
        cur = np.empty_like(prev)
        cur[0] = i
        cur[1:] = np.minimum(prev[1:] + 1, prev[:-1] + (t != ord(ch)))
        cur = np.minimum.accumulate(cur - idx) + idx
        prev = cur
    end = int(prev.argmin())
    return int(prev[end]), end


class _Tables(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables, self.row, self.cell, self.span = [], None, None, (1, 1)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.row = []
            self.tables[-1].append(self.row)
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""
            self.span = (int(a.get("colspan", 1) or 1), int(a.get("rowspan", 1) or 1))

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append((norm(self.cell), self.span))
            self.cell = None

    def handle_data(self, d):
        if self.cell is not None:
            self.cell += d


def parse_tables(md):
    p = _Tables()
    try:
        p.feed(md)
    except Exception:
        return []
    grids = []
    for t in p.tables:
        grid = {}
        for r, row in enumerate(t):
            c = 0
            for text, (cs, rs) in row:
                while (r, c) in grid:
                    c += 1
                for dr in range(rs):
                    for dc in range(cs):
                        grid[(r + dr, c + dc)] = text
                c += cs
        grids.append(grid)
    return grids


def run_test(md, t):
    text = norm(md)
    ty = t["type"]
    md_ = t.get("max_diffs", 0)
    if ty in ("present", "absent"):
        d, _ = best_substring(norm(t["text"]), text)
        found = d <= md_
        return found if ty == "present" else not found
    if ty == "order":
        d1, e1 = best_substring(norm(t["before"]), text)
        d2, e2 = best_substring(norm(t["after"]), text)
        return d1 <= md_ and d2 <= md_ and e1 < e2
    if ty == "math":
        want = re.sub(r"\s+", "", t["math"])
        got = [re.sub(r"\s+", "", m) for m in re.findall(r"\$\$(.+?)\$\$|\$(.+?)\$", md, flags=re.S) for m in m if m]
        return any(want in g for g in got)
    if ty == "table":
        cell = norm(t["cell"])
        for g in parse_tables(md):
            for (r, c), v in g.items():
                if v != cell:
                    continue
                ok = True
                if "left" in t:
                    ok &= g.get((r, c - 1)) == norm(t["left"])
                if "right" in t:
                    ok &= g.get((r, c + 1)) == norm(t["right"])
                if "up" in t:
                    ok &= g.get((r - 1, c)) == norm(t["up"])
                if "down" in t:
                    ok &= g.get((r + 1, c)) == norm(t["down"])
                if "top_heading" in t:
                    ok &= g.get((0, c)) == norm(t["top_heading"])
                if ok:
                    return True
        return False
    raise ValueError(ty)


def pass_rate(md_by_page, tests):
    res = {}
    for t in tests:
        res[t["id"]] = bool(run_test(md_by_page.get(t["pdf"], ""), t))
    by_type = {}
    for t in tests:
        k = t["type"]
        p, n = by_type.get(k, (0, 0))
        by_type[k] = (p + res[t["id"]], n + 1)
    total = sum(res.values()) / max(1, len(res))
    return total, {k: p / n for k, (p, n) in by_type.items()}, res
