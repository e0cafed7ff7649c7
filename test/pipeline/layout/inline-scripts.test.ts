import assert from 'node:assert/strict';
import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import { sameRendering } from '../../../bench/olmocr/math.ts';
import { layoutLatex } from '../../../pipeline/layout/formula/index.ts';
import { firstPage } from '../../support/text-layer.ts';

const HEIGHT = 792;

const inlineLatex = (markdown: string): string[] => [...markdown.matchAll(/(?<!\$)\$([^$\n]+)\$(?!\$)/g)].map((m) => m[1]!);

/**
 * The last line of a paragraph with an inline sum whose limits are set beside it (text style),
 * `λ_g = ∑_{i=1}^{k} c(g, R/Ann_R(x_i))`, in Times with the Greek and the sum from Symbol: the
 * upper limit sorts above the line, the lower one and the subscripts below its baseline.
 */
async function sumPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, HEIGHT]);
  const roman = await doc.embedFont(StandardFonts.TimesRoman);
  const italic = await doc.embedFont(StandardFonts.TimesRomanItalic);
  const symbol = await doc.embedFont(StandardFonts.Symbol);
  let x = 72;
  const put = (s: string, font: PDFFont, baseline: number, size = 12, shift = 0, advance = true): number => {
    // A positive shift lowers the text (a subscript), a negative one raises it.
    const at = x;
    page.drawText(s, { x, y: HEIGHT - baseline - shift, size, font });
    if (advance) x += font.widthOfTextAtSize(s, size);
    return at;
  };
  put('Here we recall the map and the notation of the previous section. We conclude', roman, 300);
  x = 72;
  put('that ', roman, 317);
  put('λ', symbol, 317);
  put('g', italic, 317, 9, 2);
  put(' = ', roman, 317);
  put('∑', symbol, 317);
  // Limits beside the sign: the upper one raised, the lower one lowered, both from the same x.
  put('k', italic, 317, 9, -5, false);
  put('i', italic, 317, 9, 3.5);
  put('=1', roman, 317, 9, 3.5);
  put(' c', italic, 317);
  put('(', roman, 317);
  put('g', italic, 317);
  put(', ', roman, 317);
  put('R', italic, 317);
  put('/Ann', roman, 317);
  put('R', italic, 317, 9, 2);
  put('(', roman, 317);
  put('x', italic, 317);
  put('i', italic, 317, 9, 2);
  put(')).', roman, 317);
  x = 72;
  put('The following corollary is simple yet important for our future work.', roman, 345);
  return doc.save();
}

/** An inline formula TeX broke after its relation: `σ_g =` ends one line, `∑ a_i` starts the next. */
async function brokenPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, HEIGHT]);
  const roman = await doc.embedFont(StandardFonts.TimesRoman);
  const italic = await doc.embedFont(StandardFonts.TimesRomanItalic);
  const symbol = await doc.embedFont(StandardFonts.Symbol);
  let x = 72;
  const put = (s: string, font: PDFFont, baseline: number, size = 12, shift = 0): void => {
    page.drawText(s, { x, y: HEIGHT - baseline - shift, size, font });
    x += font.widthOfTextAtSize(s, size);
  };
  put('The quantity we study in the remainder of this section is the sum where ', roman, 300);
  put('σ', symbol, 300);
  put('g', italic, 300, 9, 2);
  put(' =', roman, 300);
  x = 72;
  put('∑', symbol, 317);
  put('a', italic, 317);
  put('i', italic, 317, 9, 2);
  put(' is bounded on the whole interval that we consider in this note.', roman, 317);
  return doc.save();
}

describe('inline formulas with scripts', () => {
  it('joins an inline formula broken after its relation at the end of a line', async () => {
    const page = await firstPage(await brokenPdf(), 'inline-broken.pdf');
    const found = inlineLatex(page.markdown);
    assert.equal(found.length, 1, page.markdown);
    assert.ok(sameRendering('\\sigma_{g}=\\sum a_{i}', found[0]!), found[0]);
  });

  it('keeps the limits of a text-style sum and the subscripts on their line', async () => {
    const page = await firstPage(await sumPdf(), 'inline-scripts.pdf');
    const found = inlineLatex(page.markdown);
    assert.equal(found.length, 1, page.markdown);
    assert.ok(sameRendering('\\lambda_{g}=\\sum_{i=1}^{k} c(g, R / \\operatorname{Ann}_{R}(x_{i}))', found[0]!), found[0]);
    // Nothing of the formula is left over after the sentence that ends the paragraph.
    assert.match(page.markdown, /\$\.\n/, page.markdown);
  });

  it('writes Unicode symbols KaTeX rejects in math as their commands', () => {
    const atom = (text: string, x0: number) => ({ text, x0, x1: x0 + 6, y: 100, size: 10, font: 'CMSY10' });
    const { latex, doubts } = layoutLatex([atom('℘', 0), atom('=', 8), atom('℧', 16), atom('ℶ', 24)], []);
    assert.deepEqual(doubts, []);
    assert.equal(latex, '\\wp=\\mho\\beth');
  });
});
