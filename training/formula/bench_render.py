"""Renders per CPU worker: the old CPU-only view (`render_view`) against the new CPU half (`render_mask` +
`to_canvas`, placed later on the GPU by `gpu_views.compose`), on the same formulas as the training stream,
timed in CPU seconds of this process (the machine's cores are shared: wall time would measure the
neighbours), plus where the time goes (cProfile, by module).

    python3 training/formula/bench_render.py --n 300 --reuse 4 [--baseline OLD/render.py]

`--baseline` times another render.py's `render_view` beside this one's (e.g. the last commit's:
`git show HEAD~1:training/formula/render.py > /tmp/old/render.py`), in the same run.
"""
from __future__ import annotations

import argparse
import cProfile
import importlib.util
import collections
import json
import os
import pstats
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from grammar import Gen  # noqa: E402
from gpu_views import to_canvas  # noqa: E402
from render import render_mask, render_view  # noqa: E402


def per_cpu_second(fn, formulas, seed):
    rng = random.Random(seed)
    t = time.process_time()
    ok = sum(fn(s, rng) is not None for s in formulas)
    return len(formulas) / (time.process_time() - t), ok


def where_time_goes(fn, formulas):
    pr = cProfile.Profile()
    rng = random.Random(3)
    pr.enable()
    for s in formulas:
        fn(s, rng)
    pr.disable()
    st = pstats.Stats(pr)
    by = collections.Counter()
    for (path, _, _), (_, _, tt, _, _) in st.stats.items():
        p = path.replace("\\", "/")
        key = ("pyparsing (mathtext's TeX parser)" if "/pyparsing/" in p else
               "matplotlib mathtext layout" if "_mathtext" in p or "mathtext.py" in p else
               "matplotlib fonts/ft2font" if "font_manager" in p or "ft2font" in p else
               "numpy/PIL (masks, placement)" if "/numpy/" in p or "/PIL/" in p or p.endswith("render.py") else "other")
        by[key] += tt
    tot = sum(by.values())
    return {k: round(v / tot, 3) for k, v in by.most_common()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--reuse", type=int, default=4)
    ap.add_argument("--baseline", default=None, help="another render.py whose render_view is timed too")
    a = ap.parse_args()
    g = Gen(random.Random(11))
    formulas = [g.formula()[0] for _ in range(a.n)]
    render_view(formulas[0], random.Random(0))  # mathtext's parser is built on first use
    out = {"formulas": a.n}
    if a.baseline:
        spec = importlib.util.spec_from_file_location("render_baseline", a.baseline)
        base = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(base)
        base.render_view(formulas[0], random.Random(0))
        b, _ = per_cpu_second(lambda s, r: base.render_view(s, r), formulas, 5)
        out["baseline_render_view_per_cpu_s"] = round(b, 1)
    old, ok_old = per_cpu_second(lambda s, r: render_view(s, r), formulas, 5)
    new, ok_new = per_cpu_second(lambda s, r: (lambda m: None if m is None else to_canvas(m, 128, 512))(render_mask(s, r, reach=1.25)), formulas, 5)
    tex = os.path.join(HERE, "data", "tex-train.tsv")
    if os.path.exists(tex):  # the real formulas (30% of the stream) are shorter: their own rate
        real = [l.split("\t")[0] for l in open(tex, encoding="utf-8")][1:]
        random.Random(13).shuffle(real)
        r, _ = per_cpu_second(lambda s, r: render_mask(s, r, reach=1.25), real[:a.n], 5)
        out["render_mask_real_tex_per_cpu_s"] = round(r, 1)
    out.update({"render_view_per_cpu_s": round(old, 1), "render_mask_per_cpu_s": round(new, 1),
                "reuse": a.reuse, "views_per_cpu_s_after": round(new * a.reuse, 1),
                "ok": [ok_old, ok_new], "profile_render_view": where_time_goes(lambda s, r: render_view(s, r), formulas[:150])})
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
