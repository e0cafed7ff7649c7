"""Seeded random LaTeX formulas: a small grammar over the constructs of display and inline math.

Kinds (`KINDS`): arithmetic and polynomials, fractions, sub/superscripts, roots, sums/products/integrals and
limits with their bounds, functions, Greek letters, relations, accents, font commands, `\\left...\\right`
pairs, binomials, matrices (`matrix`, `pmatrix`, `bmatrix`, `vmatrix`), `cases` and `aligned`. Every
formula is written in the canonical spelling of `latex.canonical`.

    python3 training/formula/grammar.py --n 5 --seed 1
"""
from __future__ import annotations

import argparse
import random

from latex import canonical, tokens

GREEK = ["\\alpha", "\\beta", "\\gamma", "\\delta", "\\epsilon", "\\varepsilon", "\\zeta", "\\eta", "\\theta",
         "\\vartheta", "\\iota", "\\kappa", "\\lambda", "\\mu", "\\nu", "\\xi", "\\pi", "\\rho", "\\sigma", "\\tau",
         "\\phi", "\\varphi", "\\chi", "\\psi", "\\omega", "\\Gamma", "\\Delta", "\\Theta", "\\Lambda", "\\Xi",
         "\\Pi", "\\Sigma", "\\Phi", "\\Psi", "\\Omega"]
UPPER = list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
LATIN = list("abcdefghijklmnopqrstuvwxyz") + UPPER
COMMON = list("xyzabcnkmijtpqrfgsuvw") + ["x", "x", "y", "n", "k"]
BINOPS = ["+", "-", "+", "-", "\\pm", "\\cdot", "\\times", "\\mp", "/", "\\circ", "\\cup", "\\cap", "\\oplus",
          "\\otimes", "\\wedge", "\\setminus"]
RELS = ["=", "=", "=", "<", ">", "\\leq", "\\geq", "\\neq", "\\approx", "\\equiv", "\\sim", "\\simeq",
        "\\propto", "\\in", "\\subset", "\\subseteq", "\\to", "\\rightarrow", "\\Rightarrow", "\\leftarrow",
        "\\Leftrightarrow", "\\mapsto", "\\ll", "\\gg", "\\cong", "\\notin", "\\perp", "\\mid"]
FUNCS = ["\\sin", "\\cos", "\\tan", "\\log", "\\ln", "\\exp", "\\det", "\\arctan", "\\sinh", "\\cosh",
         "\\max", "\\min", "\\sup", "\\inf", "\\arg", "\\deg", "\\dim", "\\ker", "\\Pr", "\\gcd"]
ACCENTS = ["\\hat", "\\bar", "\\vec", "\\tilde", "\\dot", "\\ddot", "\\overline", "\\widehat", "\\widetilde",
           "\\acute", "\\grave", "\\breve", "\\check"]
FONTS = ["\\mathbf", "\\mathrm", "\\mathcal", "\\mathbb", "\\mathit", "\\mathsf", "\\mathtt"]
SYMBOLS = ["\\infty", "\\partial", "\\nabla", "\\hbar", "\\ell", "\\emptyset", "\\forall", "\\exists",
           "\\cdots", "\\ldots", "\\prime", "\\Re", "\\Im", "\\aleph", "\\angle", "\\neg", "\\dagger"]
BIGOPS = ["\\sum", "\\sum", "\\prod", "\\int", "\\int", "\\oint", "\\iint", "\\bigcup", "\\bigcap", "\\coprod",
          "\\bigoplus"]
LIMOPS = ["\\lim", "\\limsup", "\\liminf", "\\max", "\\min", "\\sup", "\\inf"]
DELIMS = [("(", ")"), ("(", ")"), ("[", "]"), ("|", "|"), ("\\{", "\\}"), ("\\|", "\\|"), ("\\langle", "\\rangle"),
          ("\\lfloor", "\\rfloor"), ("\\lceil", "\\rceil")]
MATRICES = ["pmatrix", "bmatrix", "vmatrix", "matrix", "Bmatrix", "Vmatrix"]
TEXT_WORDS = ["if", "otherwise", "for", "and", "else", "where", "for all", "if not", "when", "sonst"]
KINDS = ["arith", "fraction", "script", "root", "bigop", "limit", "function", "greek", "accent", "font",
         "delim", "binom", "matrix", "cases", "aligned"]


class Gen:
    def __init__(self, rng: random.Random):
        self.r = rng

    def pick(self, xs):
        return self.r.choice(xs)

    # -- atoms
    def number(self):
        r = self.r.random()
        if r < 0.6:
            return str(self.r.randint(0, 9))
        if r < 0.85:
            return str(self.r.randint(10, 999))
        return f"{self.r.randint(0, 99)}.{self.r.randint(0, 99)}"

    def var(self):
        r = self.r.random()
        if r < 0.55:
            return self.pick(COMMON)
        if r < 0.75:
            return self.pick(LATIN)
        return self.pick(GREEK)

    def atom(self):
        r = self.r.random()
        if r < 0.45:
            return self.var()
        if r < 0.75:
            return self.number()
        if r < 0.85:
            return self.pick(SYMBOLS) if self.r.random() < 0.3 else self.pick(GREEK)
        if r < 0.92:
            return f"{self.pick(ACCENTS)}{{{self.var()}}}"
        return f"{self.pick(FONTS)}{{{self.pick(UPPER)}}}"

    def script(self, base, depth):
        r = self.r.random()
        small = lambda: self.expr(depth + 1, terms=self.r.randint(1, 2)) if self.r.random() < 0.4 else self.atom()  # noqa: E731
        if r < 0.4:
            return f"{base}^{{{small()}}}"
        if r < 0.7:
            return f"{base}_{{{small()}}}"
        return f"{base}_{{{small()}}}^{{{small()}}}"

    # -- compound factors
    def factor(self, depth):
        if depth > 1 or (depth == 1 and self.r.random() < 0.5):
            a = self.atom()
            return self.script(a, depth) if self.r.random() < 0.3 else a
        r = self.r.random()
        if r < 0.30:
            a = self.atom()
            return self.script(a, depth) if self.r.random() < 0.5 else a
        if r < 0.47:
            return self.frac(depth)
        if r < 0.54:
            return self.root(depth)
        if r < 0.61:
            return self.func(depth)
        if r < 0.71:
            return self.delim(depth)
        if r < 0.75:
            return f"\\binom{{{self.expr(depth + 1, 1)}}}{{{self.expr(depth + 1, 1)}}}"
        if r < 0.82:
            return self.bigop(depth)
        if r < 0.86:
            return f"{self.pick(ACCENTS)}{{{self.expr(depth + 1, 1)}}}"
        if r < 0.90:
            return f"{self.pick(FONTS)}{{{self.pick(UPPER) + (self.pick(UPPER) if self.r.random() < 0.2 else '')}}}"
        return self.atom() + " " + self.atom()

    def frac(self, depth):
        cmd = "\\frac" if self.r.random() < 0.85 else self.pick(["\\dfrac", "\\tfrac"])
        return f"{cmd}{{{self.expr(depth + 1)}}}{{{self.expr(depth + 1)}}}"

    def root(self, depth):
        if self.r.random() < 0.25:
            return f"\\sqrt[{self.pick(['3', 'n', '4', 'k'])}]{{{self.expr(depth + 1)}}}"
        return f"\\sqrt{{{self.expr(depth + 1)}}}"

    def func(self, depth):
        f = self.pick(FUNCS)
        arg = self.atom() if self.r.random() < 0.4 else f"\\left({self.expr(depth + 1)}\\right)" if self.r.random() < 0.5 else f"({self.expr(depth + 1)})"
        if self.r.random() < 0.15 and f in ("\\sin", "\\cos", "\\tan", "\\log"):
            f = f"{f}^{{{self.pick(['2', '-1', 'n'])}}}"
        return f"{f} {arg}"

    def delim(self, depth):
        lo, hi = self.pick(DELIMS)
        inner = self.expr(depth + 1)
        if self.r.random() < 0.6:
            return f"\\left{lo} {inner} \\right{hi}"
        return f"{lo} {inner} {hi}"

    def bigop(self, depth):
        op = self.pick(BIGOPS)
        i = self.pick(["i", "k", "n", "j", "m"])
        body = self.expr(depth + 1)
        if op.startswith(("\\int", "\\oint", "\\iint")):
            d = self.pick(["x", "t", "s", "u", "\\theta", "r"])
            lims = "" if self.r.random() < 0.2 else f"_{{{self.bound()}}}^{{{self.bound()}}}"
            return f"{op}{lims} {body}\\,d {d}" if self.r.random() < 0.5 else f"{op}{lims} {body} d {d}"
        r = self.r.random()
        if r < 0.6:
            lo, hi = self.pick(['0', '1', '2']), self.pick(['n', 'N', '\\infty', 'k', 'm'])
            return f"{op}_{{{i}={lo}}}^{{{hi}}} {body}"
        if r < 0.85:
            return f"{op}_{{{i}}} {body}"
        dom = self.pick(['S', 'A', '\\mathbb{N}', '\\mathbb{Z}', 'I'])
        return f"{op}_{{{i}\\in {dom}}} {body}"

    def bound(self):
        return self.pick(["0", "1", "a", "b", "-\\infty", "\\infty", "\\pi", "2\\pi", "-1", "T", "x", "n"])

    def limit(self, depth):
        op = self.pick(LIMOPS)
        v = self.pick(["x", "n", "t", "h", "k", "\\epsilon"])
        to = self.pick(["0", "\\infty", "a", "1", "0^{+}", "-\\infty", "x_{0}"])
        return f"{op}_{{{v}\\to {to}}} {self.factor(depth + 1)}"

    def expr(self, depth=0, terms=None):
        n = terms or (self.r.randint(1, 3) if depth == 0 else self.r.randint(1, 2))
        parts = [self.factor(depth)]
        for _ in range(n - 1):
            if self.r.random() < 0.25:
                parts.append(self.factor(depth))  # implicit product
            else:
                parts.append(self.pick(BINOPS))
                parts.append(self.factor(depth))
        if self.r.random() < 0.1:
            parts.insert(0, "-")
        return " ".join(parts)

    def relation(self, depth=0, max_rhs=2):
        out = self.expr(depth)
        for _ in range(self.r.randint(0 if depth else 1, max_rhs)):
            out += " " + self.pick(RELS) + " " + self.expr(depth)
        return out

    # -- environments
    def matrix(self):
        env = self.pick(MATRICES)
        rows, cols = self.r.randint(2, 3), self.r.randint(2, 3)
        cell = lambda: self.atom() if self.r.random() < 0.6 else self.expr(2, terms=self.r.randint(1, 2))  # noqa: E731
        body = "\\\\".join(" & ".join(cell() for _ in range(cols)) for _ in range(rows))
        m = f"\\begin{{{env}}}{body}\\end{{{env}}}"
        r = self.r.random()
        if r < 0.5:
            name = self.pick(['A', 'M', 'B', 'R', '\\Sigma', 'J', 'H'])
            return f"{name}={m}"
        if r < 0.7:
            vec = self.pick(['\\begin{pmatrix}x\\\\y\\end{pmatrix}', 'v', '\\mathbf{x}'])
            return m + " " + vec
        return m

    def cases(self):
        n = self.r.randint(2, 3)
        rows = []
        for i in range(n):
            rel = self.pick(['<', '>', '\\geq', '\\leq', '=', '\\neq', '\\in'])
            cond = ("\\text{" + self.pick(TEXT_WORDS) + "}" if self.r.random() < 0.4 else self.var() + " " + rel + " " + self.atom())
            rows.append(f"{self.expr(2)} & {cond}")
        lhs = self.pick(['f(x)', 'y', 'g(t)', '|x|', 'u_{n}', 'F(s)'])
        return lhs + "=\\begin{cases}" + "\\\\".join(rows) + "\\end{cases}"

    def aligned(self):
        n = self.r.randint(2, 3)
        rows = [self.expr(1) + " &= " + self.expr(1)]
        rows += ["& " + self.pick(['=', '\\leq', '\\geq', '\\approx']) + " " + self.expr(1) for _ in range(n - 1)]
        return "\\begin{aligned}" + "\\\\".join(rows) + "\\end{aligned}"

    def formula(self, max_tokens=48):
        """(canonical LaTeX, kind); long draws are redrawn so that a formula stays readable in one view."""
        while True:
            s, kind = self._formula()
            n = len(tokens(s))
            if 1 <= n <= max_tokens or (kind in ("matrix", "cases", "aligned") and n <= max_tokens * 1.6):
                return s, kind

    def _formula(self):
        r = self.r.random()
        if r < 0.07:
            s, kind = self.matrix(), "matrix"
        elif r < 0.11:
            s, kind = self.cases(), "cases"
        elif r < 0.15:
            s, kind = self.aligned(), "aligned"
        elif r < 0.22:
            s, kind = self.limit(0) + (" " + self.pick(RELS) + " " + self.expr(1) if self.r.random() < 0.6 else ""), "limit"
        elif r < 0.35:
            s, kind = self.bigop(0) + (" " + self.pick(RELS) + " " + self.expr(1) if self.r.random() < 0.6 else ""), "bigop"
        elif r < 0.45:
            s, kind = self.expr(2, terms=self.r.randint(1, 3)), "short"
        else:
            s, kind = self.relation(0), "relation"
        return canonical(s), kind


def kinds_of(s: str) -> list[str]:
    """The constructs a formula uses (for the counts in the model card)."""
    k = []
    tests = [("fraction", ("\\frac", "\\dfrac", "\\tfrac")), ("root", ("\\sqrt",)), ("script", ("^", "_")),
             ("bigop", tuple(BIGOPS)), ("limit", tuple(LIMOPS[:3])), ("function", tuple(FUNCS)),
             ("greek", tuple(GREEK)), ("accent", tuple(ACCENTS)), ("font", tuple(FONTS)),
             ("delim", ("\\left",)), ("binom", ("\\binom",)), ("matrix", tuple(f"{{{m}}}" for m in MATRICES)),
             ("cases", ("{cases}",)), ("aligned", ("{aligned}",))]
    for name, keys in tests:
        if any(x in s for x in keys):
            k.append(name)
    return k


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    g = Gen(random.Random(a.seed))
    for _ in range(a.n):
        print(g.formula()[0])


if __name__ == "__main__":
    main()
