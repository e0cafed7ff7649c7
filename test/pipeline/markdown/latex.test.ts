import assert from 'node:assert/strict';
import { latexToText, makeFormula } from '../../../pipeline/markdown/index.ts';

describe('makeFormula', () => {
  it('should validate with KaTeX and report the error', () => {
    assert.deepEqual(makeFormula({ latex: ' \\frac{a}{b} ', display: true }), { latex: '\\frac{a}{b}', display: true, valid: true, text: 'a/b' });
    const broken = makeFormula({ latex: '\\frac{a}{', display: false });
    assert.equal(broken.valid, false);
    assert.match(broken.error!, /KaTeX parse error/u);
    assert.equal(makeFormula({ latex: '', display: false }).valid, false);
    assert.equal(makeFormula({ latex: '\\left( x', display: false }).valid, false);
  });
});

describe('latexToText', () => {
  it('should turn LaTeX into searchable plain text', () => {
    assert.equal(latexToText('\\alpha \\rightarrow \\beta'), 'α → β');
    assert.equal(latexToText('\\mathrm{Re} = \\frac{\\rho v L}{\\mu}'), 'Re = (ρ v L)/(μ)');
    assert.equal(latexToText('10\\%'), '10%');
    assert.equal(latexToText('\\sqrt{x} \\leq \\sum_{i=1}^{n} x_i'), '√x ≤ ∑_(i=1)^n x_i');
  });
});
