/**
 * KaTeX's verdict on a list of formulas, for the training data of folio-ocr-math
 * (`training/formula/corpus.py` calls it): one LaTeX formula per input line, one JSON line
 * out per formula, `{"ok":true}` or `{"ok":false,"error":"…"}`. The check is the pipeline's own
 * (`makeFormula`, display mode, `throwOnError`), so a formula kept for training is one the pipeline
 * would accept.
 *
 *     node bench/math/katex-check.ts < formulas.txt > verdicts.jsonl
 */
import { createInterface } from 'node:readline';
import { makeFormula } from '../../pipeline/markdown/latex.ts';

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
const out: string[] = [];
for await (const line of lines) {
  const formula = makeFormula({ latex: line, display: true });
  out.push(JSON.stringify(formula.valid ? { ok: true } : { ok: false, error: formula.error }));
  if (out.length >= 1000) process.stdout.write(`${out.splice(0).join('\n')}\n`);
}
if (out.length) process.stdout.write(`${out.join('\n')}\n`);
