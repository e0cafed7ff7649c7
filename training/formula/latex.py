"""LaTeX formula text: split into tokens and write back in one canonical spelling.

The image of a formula does not show the spaces of its source, so the model is trained on (and scored
against) one canonical spelling: no whitespace except where TeX needs it (a control word followed by a
letter) and inside text-mode groups (`\\text{...}`, `\\mathrm{...}`, `\\operatorname{...}`), where a space is
visible. `canonical` is idempotent; the TypeScript side compares renderings, not spellings.
"""
from __future__ import annotations

import re

TOKEN_RE = re.compile(r"\\[A-Za-z]+|\\.|\s+|.", re.S)
# Groups whose content is typeset as text: spaces in them show.
TEXT_GROUPS = {"\\text", "\\mathrm", "\\operatorname", "\\textrm", "\\textbf", "\\textit", "\\mbox"}


def tokens(s: str) -> list[str]:
    """LaTeX tokens: control words (`\\frac`), control symbols (`\\{`, `\\,`), whitespace runs, characters."""
    return TOKEN_RE.findall(s)


def canonical(s: str) -> str:
    """One spelling per formula: whitespace dropped outside text groups (collapsed to one space inside),
    a single space kept after a control word that a letter follows."""
    out: list[str] = []
    toks = tokens(s.strip())
    depth = 0            # brace depth
    text_depth = []      # brace depths at which a text group opened
    pending_text = False
    for t in toks:
        in_text = bool(text_depth)
        if t.isspace():
            if in_text and out and out[-1] != " ":
                out.append(" ")
            continue
        if t == "{":
            depth += 1
            if pending_text:
                text_depth.append(depth)
            pending_text = False
        elif t == "}":
            if text_depth and text_depth[-1] == depth:
                text_depth.pop()
                if out and out[-1] == " ":
                    out.pop()
            depth -= 1
        else:
            pending_text = t in TEXT_GROUPS
        if out and re.match(r"\\[A-Za-z]+$", out[-1]) and re.match(r"[A-Za-z]", t):
            out.append(" ")
        out.append(t)
    return "".join(out).strip()


def control_words(s: str) -> set[str]:
    return {t for t in tokens(s) if re.match(r"\\[A-Za-z]+$", t)}


def balanced(s: str) -> bool:
    d = 0
    for t in tokens(s):
        if t == "{":
            d += 1
        elif t == "}":
            d -= 1
            if d < 0:
                return False
    return d == 0
