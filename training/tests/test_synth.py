"""pytest training/tests -q   (needs .dev/ocr assets: python3 training/synth/corpus.py + fonts)"""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "training", "synth"))
ASSETS = os.path.join(ROOT, ".dev", "ocr")

pytestmark = pytest.mark.skipif(not os.path.exists(os.path.join(ASSETS, "corpus", "en.txt")),
                                reason="assets missing (.dev/ocr)")


def test_generate_pages_and_tests(tmp_path):
    out = tmp_path / "synth"
    subprocess.run([sys.executable, os.path.join(ROOT, "training/synth/generate.py"), "--out", str(out),
                    "--n", "4", "--seed", "3", "--assets", ASSETS], check=True)
    tests = [json.loads(l) for l in open(out / "dataset.jsonl")]
    assert tests and {"present", "absent"} <= {t["type"] for t in tests}
    from checks import pass_rate
    pages = sorted(p for p in os.listdir(out / "pages") if p.endswith(".png"))
    assert len(pages) == 4
    md = {p: open(out / "pages" / p.replace(".png", ".md")).read() for p in pages}
    for p in pages:
        g = open(out / "pages" / p.replace(".png", ".grounded.md")).read()
        assert "<|ref|>" in g and "<|det|>[[" in g
        meta = json.load(open(out / "pages" / p.replace(".png", ".json")))
        assert meta["blocks"] and all(len(b["bbox"]) == 4 for b in meta["blocks"])
    # the target Markdown passes all of its own tests; an empty page passes only the absent tests
    total, by_type, _ = pass_rate(md, tests)
    assert total == 1.0, by_type
    total_empty, by_type_empty, _ = pass_rate({}, tests)
    assert by_type_empty["absent"] == 1.0 and by_type_empty.get("present", 0) == 0.0


def test_deterministic(tmp_path):
    for d in ("a", "b"):
        subprocess.run([sys.executable, os.path.join(ROOT, "training/synth/generate.py"), "--out",
                        str(tmp_path / d), "--n", "2", "--seed", "5", "--assets", ASSETS], check=True)
    assert open(tmp_path / "a" / "dataset.jsonl").read() == open(tmp_path / "b" / "dataset.jsonl").read()
