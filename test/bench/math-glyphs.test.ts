import assert from 'node:assert/strict';
import type { GlyphBook } from '../../bench/olmocr/glyphs/index.ts';
import { glyphBook, renderGlyphs, sameArrangement } from '../../bench/olmocr/glyphs/index.ts';
import { findMath, mathGlyphBook, sameRendering } from '../../bench/olmocr/math.ts';
import { ensureChromium } from '../support/browser.ts';

// Every formula the tests compare, rendered once in one real Chromium page.
const FORMULAS = [
  'x^2',
  'x^{2}',
  'x_2',
  'x^2+y',
  '\\left(a\\right)',
  '(a)',
  '\\frac12',
  '\\frac{1}{2}',
  'a+b',
  'a-b',
  'ab',
  '5',
  '345',
  '3+5',
  'u\\in\\left(R/\\operatorname{Ann}_R(x_i)\\right)^\\times',
  'u\\in(R/\\operatorname{Ann}_R(x_i))^\\times',
  '\\mathbf{x}',
  'x',
  '\\frac{a}{b}',
  '{a \\atop b}',
  '\\frac{',
  '\\left\\|\\frac{\\frac{a}{b}}{\\frac{c}{d}}\\right\\|',
  '\\|\\frac{\\frac{a}{b}}{\\frac{c}{d}}\\|',
  '\\left(\\frac{\\frac{a}{b}}{\\frac{c}{d}}\\right)',
  '\\left[\\frac{\\frac{a}{b}}{\\frac{c}{d}}\\right]',
];

describe('math glyph test (KaTeX in Chromium)', function () {
  this.timeout(300_000);
  let book: Map<string, ReturnType<GlyphBook['get']>>;

  before(async () => {
    await ensureChromium();
    const { glyphs } = await renderGlyphs(FORMULAS);
    book = new Map(FORMULAS.map((f, i) => [f, glyphs[i] ?? null]));
  });

  const same = (reference: string, candidate: string): boolean => {
    const r = book.get(reference);
    const c = book.get(candidate);
    assert.ok(r && c, `${reference} and ${candidate} should both render`);
    return sameArrangement(r, c);
  };

  it('should find formulas that draw the same glyphs in the same places', () => {
    assert.equal(same('x^2', 'x^{2}'), true);
    assert.equal(same('\\left(a\\right)', '(a)'), true);
    assert.equal(same('(a)', '\\left(a\\right)'), true);
    assert.equal(same('\\frac12', '\\frac{1}{2}'), true);
    assert.equal(same('u\\in\\left(R/\\operatorname{Ann}_R(x_i)\\right)^\\times', 'u\\in(R/\\operatorname{Ann}_R(x_i))^\\times'), true);
  });

  it('should count a tall delimiter drawn as a stack as its normal character', () => {
    const tall = (open: string, close: string): string => `${open}\\frac{\\frac{a}{b}}{\\frac{c}{d}}${close}`;
    assert.equal(same(tall('\\left\\|', '\\right\\|'), tall('\\|', '\\|')), true);
    assert.equal(same(tall('\\left(', '\\right)'), tall('\\left[', '\\right]')), false);
  });

  it('should find the reference inside a longer candidate', () => {
    assert.equal(same('x^2', 'x^2+y'), true);
    assert.equal(same('5', '3+5'), true);
  });

  it('should tell apart scripts, operators, typefaces and rules', () => {
    assert.equal(same('x^2', 'x_2'), false);
    assert.equal(same('x_2', 'x^2'), false);
    assert.equal(same('a+b', 'a-b'), false);
    assert.equal(same('\\mathbf{x}', 'x'), false);
    assert.equal(same('\\frac{a}{b}', '{a \\atop b}'), false);
  });

  it('should not find glyphs split out of a longer run', () => {
    assert.equal(same('ab', 'a+b'), false);
    assert.equal(same('5', '345'), false);
  });

  it('should give no glyphs for a formula KaTeX rejects', () => {
    assert.equal(book.get('\\frac{'), null);
  });

  it('should pass a math test by glyphs where the MathML test fails', async () => {
    const reference = 'u\\in\\left(R/\\operatorname{Ann}_R(x_i)\\right)^\\times';
    const markdown = 'so $$u\\in(R/\\operatorname{Ann}_R(x_i))^\\times$$ holds';
    assert.equal(sameRendering(reference, 'u\\in(R/\\operatorname{Ann}_R(x_i))^\\times'), false, 'MathML alone tells them apart');
    const prepared = await mathGlyphBook([{ reference, markdown }]);
    assert.match(prepared.note, /^glyphs/);
    assert.equal(findMath(reference, markdown, true, prepared.book).passed, true);
    assert.equal(findMath('x^2', '$x_2$', true, prepared.book).passed, false);
  });

  it('should fall back to MathML, and say so, when the browser cannot start', async () => {
    const { book: none, note } = await glyphBook(['x^2'], '/nonexistent/chromium');
    assert.equal(none, undefined);
    assert.match(note, /MathML only.*\/nonexistent\/chromium/);
  });
});
