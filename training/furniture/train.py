"""Train the furniture classifier and export it for the TypeScript evaluator.

Reads the rows `dump.ts` wrote (JSON lines: `x` features, `label`, `doc`, `set`, `weak`, `rules`),
fits small gradient-boosted trees (scikit-learn), reports precision and recall beside the hand rules
on documents held out by document, then refits on every row and writes
`core/furniture-model/model.json`: the trees as parallel arrays, the prior, the learning rate, the
threshold, and a few feature vectors with the probability scikit-learn gives them (the TS test
checks it gives the same).

    training/furniture/.venv/bin/python training/furniture/train.py .cache/furniture/*.jsonl
"""

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier

FEATURES_TS = Path(__file__).resolve().parents[2] / "core" / "furniture-model" / "features.ts"
MODEL_JSON = Path(__file__).resolve().parents[2] / "core" / "furniture-model" / "model.json"


def feature_names():
    """The names, in order, from `FEATURE_NAMES` in features.ts: one list for both languages."""
    text = FEATURES_TS.read_text()
    block = text[text.index("FEATURE_NAMES = [") : text.index("] as const")]
    return [line.strip().strip(",").strip("'") for line in block.splitlines()[1:] if line.strip()]


def load(paths):
    rows = []
    for p in paths:
        with open(p) as f:
            rows.extend(json.loads(line) for line in f if line.strip())
    return rows


def scores(y, pred):
    tp = int(np.sum((pred == 1) & (y == 1)))
    fp = int(np.sum((pred == 1) & (y == 0)))
    fn = int(np.sum((pred == 0) & (y == 1)))
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return p, r, tp, fp, fn


def masked(x, names):
    """The rows as an OCR route measures them: no type size, no weight (`sizeRatio` undefined)."""
    out = x.copy()
    out[:, names.index("size_known")] = 0
    out[:, names.index("size_ratio")] = 1
    out[:, names.index("bold")] = 0
    return out


def alone(x, names):
    """The rows as if their page were the whole document (a one-page PDF, or the first page of a
    stream before the next ones are read): no repetition, no sequence. The label stays, so what
    repetition found must be learnt again from the page alone: position, gaps, size, text shape."""
    out = x.copy()
    for name in ("repeats", "repeat_share", "sequence", "sequence_share", "last_page", "number_is_page"):
        out[:, names.index(name)] = 0
    out[:, names.index("pages")] = np.log1p(1)
    out[:, names.index("first_page")] = 1
    return out


def augment(x, names):
    """Every row four times: as the text layer and as OCR boxes measure it (no size), each within
    its document and alone, so one model serves both routes and one-page documents."""
    both = np.concatenate([x, alone(x, names)])
    return np.concatenate([both, masked(both, names)])


def fit(x, y, w, args, names):
    x = augment(x, names)
    y = np.tile(y, 4)
    w = np.tile(w, 4)
    model = GradientBoostingClassifier(
        n_estimators=args.trees, max_depth=args.depth, learning_rate=args.rate, subsample=0.8, min_samples_leaf=5, random_state=0
    )
    model.fit(x, y, sample_weight=w)
    return model


def export(model, names, threshold, checks, trained_on):
    trees = []
    for est in model.estimators_[:, 0]:
        t = est.tree_
        trees.append(
            {
                "feature": [int(v) for v in t.feature],
                "threshold": [float(v) for v in t.threshold],
                "left": [int(v) for v in t.children_left],
                "right": [int(v) for v in t.children_right],
                "value": [round(float(v), 10) for v in t.value[:, 0, 0]],
            }
        )
    # The prior's log-odds: what decision_function gives before the trees.
    zero = model._raw_predict_init(np.zeros((1, len(names)), dtype=np.float32))[0, 0]
    probs = model.predict_proba(np.asarray(checks, dtype=np.float32))[:, 1]
    return {
        "version": 1,
        "features": names,
        "init": float(zero),
        "learningRate": float(model.learning_rate),
        "threshold": threshold,
        "trees": trees,
        "checks": [{"x": [float(v) for v in c], "p": float(p)} for c, p in zip(checks, probs)],
        "trainedOn": trained_on,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows", nargs="+")
    ap.add_argument("--trees", type=int, default=120)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--rate", type=float, default=0.1)
    ap.add_argument("--threshold", type=float, default=0.5)
    ap.add_argument("--weak-weight", type=float, default=0.5, help="weight of rows labelled by repetition")
    ap.add_argument("--holdout", type=float, default=0.25, help="share of documents held out for the report")
    ap.add_argument("--no-export", action="store_true")
    args = ap.parse_args()

    names = feature_names()
    rows = load(args.rows)
    bad = [r for r in rows if len(r["x"]) != len(names)]
    if bad:
        sys.exit(f"{len(bad)} rows have {len(bad[0]['x'])} features, features.ts names {len(names)}: dump again")
    x = np.asarray([r["x"] for r in rows], dtype=np.float32)
    y = np.asarray([r["label"] for r in rows])
    w = np.asarray([args.weak_weight if r["weak"] else 1.0 for r in rows])
    rules = np.asarray([1 if r["rules"] else 0 for r in rows])

    docs = sorted({(r["set"], r["doc"]) for r in rows})
    random.Random(0).shuffle(docs)
    held = set(docs[: int(len(docs) * args.holdout)])
    test = np.asarray([(r["set"], r["doc"]) in held for r in rows])
    model = fit(x[~test], y[~test], w[~test], args, names)
    prob = model.predict_proba(x[test])[:, 1]
    pred = (prob >= args.threshold).astype(int)
    ocr_pred = (model.predict_proba(masked(x[test], names))[:, 1] >= args.threshold).astype(int)
    alone_pred = (model.predict_proba(alone(x[test], names))[:, 1] >= args.threshold).astype(int)
    print(f"{len(rows)} rows, {len(docs)} documents, {int(y.sum())} furniture; held out {len(held)} documents")
    groups = sorted({(r["set"], r["weak"]) for r in rows})
    for group in [None, *groups]:
        m = test & (np.ones(len(rows), bool) if group is None else np.asarray([(r["set"], r["weak"]) == group for r in rows]))
        mt = m[test]
        if not mt.any():
            continue
        label = "all" if group is None else f"{group[0]}{' (weak)' if group[1] else ''}"
        mp, mr, *_ = scores(y[test][mt], pred[mt])
        op, orr, *_ = scores(y[test][mt], ocr_pred[mt])
        ap_, ar, *_ = scores(y[test][mt], alone_pred[mt])
        rp, rr, *_ = scores(y[test][mt], rules[test][mt])
        print(f"  {label:40s} rows {int(mt.sum()):5d}  model P {mp:.3f} R {mr:.3f}  (no size P {op:.3f} R {orr:.3f}; alone P {ap_:.3f} R {ar:.3f})  rules P {rp:.3f} R {rr:.3f}")
    order = np.argsort(-model.feature_importances_)
    print("  top features:", ", ".join(f"{names[i]} {model.feature_importances_[i]:.2f}" for i in order[:10]))
    if args.no_export:
        return

    final = fit(x, y, w, args, names)
    rng = random.Random(1)
    checks = [list(map(float, x[i])) for i in rng.sample(range(len(rows)), min(8, len(rows)))]
    trained_on = {
        "rows": len(rows),
        "documents": len(docs),
        "sets": sorted({r["set"] for r in rows}),
        "trees": args.trees,
        "depth": args.depth,
        "command": "training/furniture/train.py " + " ".join(sys.argv[1:]),
    }
    MODEL_JSON.write_text(json.dumps(export(final, names, args.threshold, checks, trained_on), separators=(",", ":")) + "\n")
    print(f"wrote {MODEL_JSON} ({MODEL_JSON.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
