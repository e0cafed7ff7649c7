"""Formulas out of LaTeX sources: the math of a `.tex`/`.ltx`/`.dtx` file, its user macros expanded.

Real documents write math the grammar does not: their own macros, `align` blocks, `\\displaystyle`, labels.
This module turns a source file into the formulas a reader of the typeset page sees, in the forms the model
is trained on (one formula per view, canonical spelling):

- comments, verbatim-like environments (`verbatim`, `lstlisting`, any `...code`/`...example`/`...listing`
  environment: LaTeX manuals show math *source* there) and `\\verb` are removed first;
- user macros (`\\newcommand`, `\\renewcommand`, `\\providecommand`, `\\DeclareMathOperator`, argument-free
  `\\def`) are collected and expanded; a formula that still holds a `#`, `@` or an expansion loop is dropped;
- math is taken from `$...$`, `\\(...\\)` (inline), `$$...$$`, `\\[...\\]` and the display environments;
  `align`-like blocks become one `aligned` formula, `gather`/`multline` rows and `equation` rows without `&`
  become one formula each; `\\label`, `\\tag`, `\\nonumber`, `\\displaystyle` go (they draw nothing, or
  nothing the view can tell apart in a display crop).

Nothing here decides what the renderer or KaTeX can draw: `real_corpus.py` checks each formula with both.
"""
from __future__ import annotations

import re

from latex import canonical, tokens

# Environments whose content is shown as source text, not typeset.
VERBATIM_WORDS = (r"verbatim|listing|minted|code|example|syntax|comment|alltt|filecontents|docCommand|docKey"
                  r"|Macros|sourcefile")
VERBATIM_ENV_RE = re.compile(r"\\begin\{([A-Za-z*]*(?:" + VERBATIM_WORDS + r")[A-Za-z*]*)\}.*?\\end\{\1\}", re.I | re.S)
ALIGN_ENVS = {"align", "align*", "eqnarray", "eqnarray*", "flalign", "flalign*", "alignat", "alignat*",
              "split", "aligned", "alignedat"}
ROW_ENVS = {"gather", "gather*", "multline", "multline*", "gathered"}
DISPLAY_ENVS = {"equation", "equation*", "displaymath", "math", "dmath", "dmath*"} | ALIGN_ENVS | ROW_ENVS
# Control words that draw nothing in a crop of one formula.
DROP_WORDS = {"\\nonumber", "\\notag", "\\displaystyle", "\\textstyle", "\\protect", "\\xspace", "\\relax",
              "\\allowbreak"}
DROP_WITH_ARG = {"\\label", "\\tag", "\\tag*", "\\index"}
# Wrappers that only mean "math here": their argument is the formula.
UNWRAP = {"\\ensuremath"}
MAX_EXPANSIONS = 200
OPEN, CLOSE = "\x01", "\x02"  # where an expansion starts and ends, until `_unmark`
# Control words that take an argument: an expansion right after one of them is that argument and keeps braces.
ARG_WORDS = {"\\" + w for w in (
    "frac dfrac tfrac cfrac sqrt binom dbinom tbinom text textrm textbf textit mbox operatorname mathrm mathbf "
    "mathit mathsf mathtt mathcal mathbb mathfrak mathscr boldsymbol bm pmb hat bar vec tilde dot ddot overline "
    "underline widehat widetilde acute grave breve check overbrace underbrace overset underset stackrel "
    "overrightarrow overleftarrow mathring xrightarrow xleftarrow boxed color textcolor").split()}


def strip_comments(text: str) -> str:
    """Drop `%` comments (an escaped `\\%` stays)."""
    out = []
    for line in text.split("\n"):
        m = re.search(r"(?<!\\)(?:\\\\)*%", line)
        out.append(line[:m.start() + (len(m.group(0)) - 1)] if m else line)
    return "\n".join(out)


def dtx_to_tex(text: str) -> str:
    """A `.dtx` file's documentation: the lines of its comment part with the leading `%` taken off, code
    (`macrocode`) left out."""
    text = re.sub(r"%\s*\\begin\{macrocode\*?\}.*?%\s*\\end\{macrocode\*?\}", "\n", text, flags=re.S)
    return "\n".join(l[1:] if l.startswith("%") else "" for l in text.split("\n"))


def strip_verbatim(text: str) -> str:
    text = VERBATIM_ENV_RE.sub("\n", text)
    text = re.sub(r"\\(?:verb|lstinline)\*?([^A-Za-z\s{])(.*?)\1", " ", text)
    text = re.sub(r"\\(?:lstinline|mintinline\{\w+\})\{[^}]*\}", " ", text)
    return text


def group(s: str, i: int) -> tuple[str, int] | None:
    """The braced group starting at s[i] == '{' -> (content, index after '}'), or None if unbalanced."""
    if i >= len(s) or s[i] != "{":
        return None
    d = 0
    j = i
    while j < len(s):
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == "{":
            d += 1
        elif c == "}":
            d -= 1
            if d == 0:
                return s[i + 1:j], j + 1
        j += 1
    return None


def skip_space(s: str, i: int) -> int:
    while i < len(s) and s[i].isspace():
        i += 1
    return i


class Macro:
    def __init__(self, nargs: int, body: str, default: str | None = None):
        self.nargs, self.body, self.default = nargs, body, default


def collect_macros(text: str) -> dict[str, Macro]:
    """User macros defined in a source: `\\newcommand{\\x}[n][default]{body}` (and `\\renewcommand`,
    `\\providecommand`, starred or not, name braced or not), `\\DeclareMathOperator*?{\\x}{text}` and
    `\\def\\x{body}` without parameters."""
    macros: dict[str, Macro] = {}
    for m in re.finditer(r"\\(?:re)?newcommand\*?|\\providecommand\*?|\\DeclareRobustCommand\*?", text):
        i = skip_space(text, m.end())
        if text.startswith("{", i):
            g = group(text, i)
            if not g:
                continue
            name, i = g[0].strip(), g[1]
        else:
            n = re.match(r"\\[A-Za-z]+", text[i:])
            if not n:
                continue
            name, i = n.group(0), i + n.end()
        if not re.fullmatch(r"\\[A-Za-z]+", name):
            continue
        i = skip_space(text, i)
        nargs, default = 0, None
        a = re.match(r"\[(\d)\]", text[i:])
        if a:
            nargs, i = int(a.group(1)), i + a.end()
            i = skip_space(text, i)
            d = re.match(r"\[([^\]]*)\]", text[i:])
            if d:
                default, i = d.group(1), i + d.end()
        i = skip_space(text, i)
        g = group(text, i)
        if g and name not in macros:
            macros[name] = Macro(nargs, g[0].strip(), default)
    for m in re.finditer(r"\\DeclareMathOperator(\*?)\s*\{?\s*(\\[A-Za-z]+)\s*\}?\s*", text):
        g = group(text, m.end())
        if g:
            macros.setdefault(m.group(2), Macro(0, f"\\operatorname{m.group(1)}{{{g[0].strip()}}}"))
    for m in re.finditer(r"\\def\s*(\\[A-Za-z]+)\s*(?=\{)", text):
        g = group(text, m.end())
        if g:
            macros.setdefault(m.group(1), Macro(0, g[0].strip()))
    return macros


def _arg(s: str, i: int) -> tuple[str, int] | None:
    """One macro argument at s[i:]: a braced group or a single token."""
    i = skip_space(s, i)
    if i >= len(s):
        return None
    if s[i] == "{":
        return group(s, i)
    t = re.match(r"\\[A-Za-z]+|\\.|.", s[i:], re.S)
    return (t.group(0), i + t.end()) if t and t.group(0) != "}" else None


def expand(formula: str, macros: dict[str, Macro]) -> str | None:
    """The formula with user macros and wrappers expanded, label-like commands removed; None when it cannot be
    expanded (an argument missing, a loop)."""
    s = formula
    n = 0
    i = 0
    while i < len(s):
        m = re.compile(r"\\([A-Za-z]+\*?|.)").search(s, i)
        if not m:
            break
        name = m.group(0)
        base = re.sub(r"\*$", "", name)
        if name in macros or base in macros:
            mac = macros[name] if name in macros else macros[base]
            end = m.start() + len(base if base in macros and name not in macros else name)
            args = []
            j = end
            if mac.default is not None:
                k = skip_space(s, j)
                if s.startswith("[", k):
                    close = s.find("]", k)
                    if close < 0:
                        return None
                    args.append(s[k + 1:close])
                    j = close + 1
                else:
                    args.append(mac.default)
            while len(args) < mac.nargs:
                a = _arg(s, j)
                if a is None:
                    return None
                args.append(a[0])
                j = a[1]
            body = mac.body
            for k, v in enumerate(args, 1):
                body = body.replace(f"#{k}", v)
            # marked, not braced: braces that draw nothing cannot be read off the image (`_unmark` decides);
            # a space keeps `\foo x` from fusing into `\foox` after expansion
            s = s[:m.start()] + OPEN + body + CLOSE + (" " if re.match(r"[A-Za-z]", s[j:j + 1]) else "") + s[j:]
            n += 1
            if n > MAX_EXPANSIONS:
                return None
            i = m.start()
            continue
        if name in DROP_WORDS:
            s = s[:m.start()] + " " + s[m.end():]
            i = m.start()
            continue
        if name in DROP_WITH_ARG or name in UNWRAP:
            a = _arg(s, m.end())
            if a is None:
                return None
            s = s[:m.start()] + ((OPEN + a[0] + CLOSE) if name in UNWRAP else " ") + s[a[1]:]
            i = m.start()
            continue
        i = m.end()
    return _unmark(s)


def _unmark(s: str) -> str:
    """Expansion marks become braces where the expansion is an argument (after `^`, `_` or a control word,
    which may take it), and vanish elsewhere."""
    out: list[str] = []
    stack: list[bool] = []
    for ch in s:
        if ch == OPEN:
            prev = "".join(out).rstrip()
            w = re.search(r"(\\[A-Za-z]+|[\^_])$", prev)
            keep = bool(w) and (w.group(1) in "^_" or w.group(1) in ARG_WORDS)
            stack.append(keep)
            if keep:
                out.append("{")
        elif ch == CLOSE:
            if stack and stack.pop():
                out.append("}")
        else:
            out.append(ch)
    return "".join(out)


def strip_outer_braces(s: str) -> str:
    """`{x+y}` -> `x+y`: a group around the whole formula draws nothing."""
    while s.startswith("{") and s.endswith("}"):
        g = group(s, 0)
        if g is None or g[1] != len(s):
            break
        s = g[0].strip()
    return s


def split_rows(body: str) -> list[str]:
    """Rows of an environment body at top-level `\\\\` (not inside braces or nested environments)."""
    rows, depth, env, start, i = [], 0, 0, 0, 0
    while i < len(body):
        if body.startswith("\\begin{", i):
            env += 1
        elif body.startswith("\\end{", i):
            env -= 1
        if body.startswith("\\\\", i):
            if depth == 0 and env == 0:
                rows.append(body[start:i])
                i += 2
                opt = re.match(r"\s*\[[^\]]*\]", body[i:])  # `\\[2pt]`
                if opt:
                    i += opt.end()
                start = i
                continue
            i += 2
            continue
        if body[i] == "\\":
            i += 2
            continue
        if body[i] == "{":
            depth += 1
        elif body[i] == "}":
            depth -= 1
        i += 1
    rows.append(body[start:])
    return [r for r in rows if r.strip()]


def display_forms(env: str, body: str) -> list[str]:
    """The formulas a display environment shows, in the model's forms."""
    env_base = env.rstrip("*")
    if env_base == "alignat" or env_base == "alignedat":
        body = re.sub(r"^\s*\{\d+\}", "", body)
    rows = split_rows(body)
    if env in ALIGN_ENVS:
        if len(rows) == 1:
            return [rows[0].replace("&", " ")]
        return ["\\begin{aligned}" + "\\\\".join(rows) + "\\end{aligned}"]
    if env in ROW_ENVS or (len(rows) > 1 and not any("&" in r for r in rows)):
        return [r.replace("&", " ") for r in rows]
    return [body]


def math_spans(text: str) -> list[tuple[str, bool]]:
    """(math source, display?) in document order: display environments, `$$`, `\\[`, `\\(`, `$`."""
    out: list[tuple[int, str, bool]] = []
    names = "|".join(re.escape(e) for e in sorted(DISPLAY_ENVS, key=len, reverse=True))
    env_re = re.compile(r"\\begin\{(" + names + r")\}(.*?)\\end\{\1\}", re.S)

    def take_env(m):
        for f in display_forms(m.group(1), m.group(2)):
            out.append((m.start(), f, True))
        return " " * (m.end() - m.start())
    text = env_re.sub(take_env, text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            nxt = text[i + 1:i + 2]
            if nxt in ("[", "("):
                close = "\\]" if nxt == "[" else "\\)"
                j = text.find(close, i + 2)
                if j < 0:
                    break
                out.append((i, text[i + 2:j], nxt == "["))
                i = j + 2
                continue
            i += 2
            continue
        if c == "$":
            display = text.startswith("$$", i)
            k = 2 if display else 1
            j = i + k
            while j < n:
                if text[j] == "\\":
                    j += 2
                    continue
                if text[j] == "$":
                    break
                j += 1
            if j >= n:
                break
            if display and not text.startswith("$$", j):
                i = j + 1
                continue
            body = text[i + k:j]
            if not display and text[i - 1:i] == "(" and text[j + 1:j + 2] == ")":
                i = j + 1  # TikZ's coordinate calculation `($(a)!.5!(b)$)`, not math
                continue
            if not display and ("\n\n" in body or len(body) > 500):
                i += 1  # a stray `$`: resynchronise on the next one
                continue
            out.append((i, body, display))
            i = j + k
            continue
        i += 1
    out.sort(key=lambda t: t[0])
    return [(s, d) for _, s, d in out]


TEXT_SPAN_RE = re.compile(r"\\(?:text|textrm|textbf|textit|mbox|operatorname\*?)\{[^{}]*\}")


def _house_math(seg: str) -> str:
    seg = re.sub(r"('+)(?![\^'])", lambda m: "^{" + "\\prime" * len(m.group(1)) + "}", seg)
    toks = tokens(seg)
    out = []
    for i, t in enumerate(toks):
        prev = out[-1] if out else ""
        if prev in ("^", "_") and t not in ("{", "}") and not t.isspace() and t not in ARG_WORDS:
            out.append("{" + t + "}")
        else:
            out.append(t)
    return "".join(out)


def house_style(s: str) -> str:
    """The grammar's spelling of what the image cannot tell apart, so that one picture has one label:
    scripts braced (`z_k` -> `z_{k}`, `x^\\alpha` -> `x^{\\alpha}`) and primes as `^{\\prime}` (TeX's own
    meaning of `'`), outside text groups; a script whose argument is a command with arguments is left."""
    out, pos = [], 0
    for m in TEXT_SPAN_RE.finditer(s):
        out.append(_house_math(s[pos:m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(_house_math(s[pos:]))
    return canonical("".join(out))


def clean(formula: str) -> str | None:
    """Canonical spelling of an extracted formula, or None when it is not one formula the model could read:
    empty, a lone symbol, non-ASCII (the renderer's fonts lack most scripts), leftovers of macros."""
    s = strip_outer_braces(canonical(formula))
    s = re.sub(r"(\\[,;:! ]|~|\\quad|\\qquad)+$", "", s).strip()   # trailing spacing draws nothing
    s = re.sub(r"^(\\[,;:! ]|~|\\quad|\\qquad)+", "", s).strip()
    s = house_style(canonical(s))
    if not s or any(ord(ch) > 126 or ord(ch) < 32 for ch in s):
        return None
    if "#" in s or "@" in s or "\\begin{document}" in s:
        return None
    toks = [t for t in tokens(s) if not t.isspace()]
    if len(toks) < 2:
        return None
    return s


def formulas_of(text: str, macros: dict[str, Macro] | None = None, dtx: bool = False) -> list[tuple[str, bool]]:
    """(canonical formula, display?) for every formula of a LaTeX source, macros expanded."""
    if dtx:
        text = dtx_to_tex(text)
    text = strip_verbatim(strip_comments(text))
    macros = {**(macros or {}), **collect_macros(text)}  # the file's own definitions win over its folder's
    out = []
    for body, display in math_spans(text):
        e = expand(body, macros)
        if e is None:
            continue
        s = clean(e)
        if s is not None:
            out.append((s, display))
    return out
