"""pytest training/tests/test_formula_data.py -q   (the real-formula extractor, the GPU-side views, the lists)"""
import os
import random
import sys

import numpy as np
import pytest
import torch

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "training", "formula"))
sys.path.insert(0, os.path.join(ROOT, "training"))
from tex_math import collect_macros, expand, formulas_of, math_spans  # noqa: E402
from gpu_views import MaskPool, compose, to_canvas  # noqa: E402
from render import render_mask  # noqa: E402

DATA = os.path.join(ROOT, "training", "formula", "data")

DOC = r"""
\documentclass{article}
\newcommand{\R}{\mathbb{R}}
\newcommand\norm[1]{\left\| #1 \right\|}
\newcommand{\pd}[2][x]{\frac{\partial #2}{\partial #1}}
\DeclareMathOperator{\tr}{tr}
\def\eps{\varepsilon}
\begin{document}
Let $f\colon \R \to \R$ and $\norm{v}$ be given, 100\$ is no formula. % $x^2$ is a comment
\begin{verbatim}
$y = 2$ shown as source
\end{verbatim}
\begin{equation}\label{eq:1}
  \pd{u} = \tr A + \eps \nonumber
\end{equation}
\begin{align*}
  a &= b \\
  c &= d
\end{align*}
\[ \pd[t]{v} \]
\begin{tabular}{ll} a & b \\[2pt] c & d \end{tabular}
$$ \sum_{i=1}^n i $$ and \( e^{i\pi} \) and $x$.
\end{document}
"""


def test_extracts_math_and_expands_macros():
    got = formulas_of(DOC)
    texts = [s for s, _ in got]
    # expansions add no braces that the image could not show
    assert "f\\colon\\mathbb{R}\\to\\mathbb{R}" in texts
    assert "\\left\\|v\\right\\|" in texts
    # optional argument default, \DeclareMathOperator, \def, label and \nonumber dropped
    assert "\\frac{\\partial u}{\\partial x}=\\operatorname{tr}A+\\varepsilon" in texts
    assert "\\frac{\\partial v}{\\partial t}" in texts
    assert "\\begin{aligned}a&=b\\\\c&=d\\end{aligned}" in texts
    assert ("\\sum_{i=1}^{n}i", True) in got and ("e^{i\\pi}", False) in got
    # a lone letter, the comment, the verbatim source and the escaped dollar are not formulas
    assert not any("x^2" in s or "y=2" in s or "100" in s for s in texts)
    assert "x" not in texts


def test_expand_refuses_loops_and_missing_arguments():
    m = collect_macros(r"\newcommand{\a}{\a x} \newcommand{\b}[2]{#1+#2}")
    assert expand(r"\a", m) is None
    assert expand(r"\b{1}", m) is None
    assert expand(r"\b{1}{2}", m) == "1+2"
    # an expansion that is an argument keeps its braces
    assert expand(r"x^\b{1}{2}", m) == "x^{1+2}"


def test_rows_and_dollar_edge_cases():
    spans = math_spans(r"\begin{gather} a=1 \\ b=2 \end{gather} cost \$5 and $a$ $$b$$")
    assert spans == [(" a=1 ", True), (" b=2 ", True), ("a", False), ("b", True)]


def _mask():
    m = render_mask(r"\frac{a}{b}+x^2", random.Random(1), reach=1.25)
    assert m is not None and m.dtype == np.uint8
    return m


def test_compose_places_ink_inside_the_view_with_a_margin():
    m = _mask()
    c, hw = to_canvas(m, 128, 512)
    masks = torch.from_numpy(np.stack([c] * 64))
    hws = torch.tensor([hw] * 64)
    g = torch.Generator().manual_seed(0)
    v = compose(masks, hws, g)
    assert v.shape == (64, 1, 128, 512) and v.min() >= 0 and v.max() <= 255
    ink = v[:, 0] < 150
    assert ink.flatten(1).any(1).all()  # every view has ink
    ys = ink.any(2)
    xs = ink.any(1)
    for i in range(64):
        y = torch.nonzero(ys[i]).flatten()
        x = torch.nonzero(xs[i]).flatten()
        assert y.min() >= 1 and x.min() >= 1 and y.max() <= 126 and x.max() <= 510
        h = y.max() - y.min() + 1
        assert 0.7 * hw[0] <= h <= 1.35 * hw[0]  # the GPU rescale stays in its range
    # views differ (position, scale, tone) although the mask is the same
    assert (v[0] != v[1]).any()


def test_compose_never_lets_a_wide_formula_overflow():
    m = np.full((40, 508), 255, np.uint8)  # as wide as a fitted mask gets
    c, hw = to_canvas(m, 128, 512)
    v = compose(torch.from_numpy(c)[None].repeat(16, 1, 1), torch.tensor([hw] * 16), torch.Generator().manual_seed(3))
    assert (v[:, 0, :, -1] > 200).all()  # the last column stays paper/white


def test_mask_pool_reuses_each_mask_about_reuse_times():
    pool = MaskPool(512, 8, 8, "cpu")
    g = torch.Generator().manual_seed(0)
    uses = {}
    batch, reuse = 64, 4
    for step in range(400):
        k = batch // reuse
        texts = [f"{step}-{i}" for i in range(k)]
        pool.add(torch.zeros(k, 8, 8, dtype=torch.uint8), torch.ones(k, 2, dtype=torch.long), texts)
        _, _, got = pool.sample(batch, g)
        for t in got:
            uses[t] = uses.get(t, 0) + 1
    steady = [uses.get(f"{s}-{i}", 0) for s in range(100, 300) for i in range(batch // reuse)]
    assert 3.0 < sum(steady) / len(steady) < 5.0


@pytest.mark.skipif(not os.path.exists(os.path.join(DATA, "tex-train.tsv")), reason="lists not built")
def test_real_lists_are_disjoint_and_sourced():
    def rows(name):
        lines = open(os.path.join(DATA, name), encoding="utf-8").read().splitlines()
        head = lines[0].split("\t")
        return [dict(zip(head, l.split("\t"))) for l in lines[1:]]
    train, held = rows("tex-train.tsv"), rows("tex-heldout.tsv")
    assert len(train) > 1000 and len(held) > 100
    tr = {r["latex"] for r in train}
    assert not tr & {r["latex"] for r in held}
    assert len(tr) == len(train)
    # no held-out CTAN package's manual is trained on, and each formula names its source and licence
    only_train_pk = {r["ctan_package"] for r in train if r["n_sources"] == "1"}
    assert not only_train_pk & {r["ctan_package"] for r in held}
    assert all(r["debian_package"].startswith("texlive-") and r["licence"] for r in train + held)
    syn = {l.split("\t")[0] for l in open(os.path.join(DATA, "heldout-synthetic.tsv"), encoding="utf-8")}
    assert not tr & syn


def test_house_style_gives_one_spelling_per_picture():
    from tex_math import house_style
    assert house_style("z_k+\\sin^2\\theta") == "z_{k}+\\sin^{2}\\theta"
    assert house_style("f'(x)+g''") == "f^{\\prime}(x)+g^{\\prime\\prime}"
    assert house_style("x^\\alpha_i") == "x^{\\alpha}_{i}"
    # a command with arguments after a script, and text, are left as written
    assert house_style("x^\\mathbf{A}") == "x^\\mathbf{A}"
    assert house_style("\\text{don't}") == "\\text{don't}"
    assert house_style("e^{i\\pi}") == "e^{i\\pi}"


def test_split_holds_out_whole_packages_and_is_stable():
    from real_corpus import split
    found = {f"x_{{{i}}}": {"display": False, "sources": {("texlive-x-doc", f"pk{i % 40}", "lppl")}} for i in range(400)}
    found["shared"] = {"display": False, "sources": {("texlive-x-doc", p, "lppl") for p in ("pk0", "pk1", "pk2", "pk3")}}
    train, held, held_pk = split(found, 1, 0.3)
    assert held and train and not set(train) & set(held)
    assert all(all(c in held_pk for _, c, _ in found[s]["sources"]) for s in held)
    assert all(any(c not in held_pk for _, c, _ in found[s]["sources"]) for s in train)
    # removing packages does not move the others between the sides
    fewer = {s: e for s, e in found.items() if not any(c == "pk5" for _, c, _ in e["sources"])}
    _, _, held_pk2 = split(fewer, 1, 0.3)
    assert held_pk2 == held_pk - {"pk5"}
