import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPages } from '../../../bench/decode/run.ts';
import { canonicalLatex, MATH_MODEL, MATH_VIEWS, renderEqual } from '../../../bench/math/index.ts';
import { decode } from '../../../inference/onnx/decode.ts';
import { loadModel } from '../../../inference/onnx/load.ts';

const HELD_OUT = fileURLToPath(new URL('../../../training/formula/data/heldout-synthetic.tsv', import.meta.url));

describe('bench math', () => {
  describe('canonicalLatex', () => {
    it('should drop spaces outside text groups and keep the one a control word needs', () => {
      assert.equal(canonicalLatex(' \\frac {a} { b } + x ^ 2 '), '\\frac{a}{b}+x^2');
      assert.equal(canonicalLatex('\\alpha   x'), '\\alpha x');
      assert.equal(canonicalLatex('\\alpha\\beta'), '\\alpha\\beta');
      assert.equal(canonicalLatex('f = \\begin{cases} 1 & \\text{ if  x } \\end{cases}'), 'f=\\begin{cases}1&\\text{ if x}\\end{cases}');
    });

    it('should leave every held-out formula as written (the Python canonical form the model was trained on)', async () => {
      const lines = (await readFile(HELD_OUT, 'utf8'))
        .split('\n')
        .slice(1)
        .filter((l) => l !== '');
      assert.equal(lines.length, 600);
      const changed = lines.map((l) => l.split('\t')[0]!).filter((latex) => canonicalLatex(latex) !== latex);
      assert.deepEqual(changed, []);
    });
  });

  describe('renderEqual', () => {
    it('should compare KaTeX renderings, not spellings', () => {
      assert.equal(renderEqual('x^{2}', 'x^2'), true);
      assert.equal(renderEqual('\\frac{a}{b}', '\\frac a b'), true);
      assert.equal(renderEqual('x^2', 'x_2'), false);
      assert.equal(renderEqual('\\epsilon', '\\varepsilon'), false);
      assert.equal(renderEqual('x^2', '\\frac{'), false);
    });
  });

  describe('folio-ocr-math through the engine', function () {
    this.timeout(120_000);
    it("should read held-out formula views, speculative decoding giving greedy decoding's ids", async () => {
      const dir = join(MATH_VIEWS, 'synthetic');
      const truth = (await readFile(join(dir, 'truth.tsv'), 'utf8'))
        .split('\n')
        .slice(1, 9)
        .map((l) => l.split('\t')[2]!);
      const pages = (await loadPages(dir)).slice(0, truth.length);
      const model = await loadModel({ modelDir: MATH_MODEL, threads: 1 });
      try {
        const greedy = await decode(model, pages, { draftK: 0 });
        const speculative = await decode(model, pages, { draftK: 3 });
        for (let i = 0; i < pages.length; i++) assert.deepEqual(speculative[i]!.ids, greedy[i]!.ids, `view ${i}`);
        const equal = greedy.filter((g, i) => renderEqual(truth[i]!, g.text.trim())).length;
        // 35% of held-out views render equal (bench/results/math.md); a broken export or preprocessing reads none.
        assert.ok(equal >= 2, `only ${equal} of ${pages.length} views read right: ${greedy.map((g) => g.text).join(' | ')}`);
        assert.ok(
          speculative.some((s) => s.stats.tau > 1.5),
          'the draft head proposes tokens the model accepts',
        );
      } finally {
        await model.release();
      }
    });
  });
});
