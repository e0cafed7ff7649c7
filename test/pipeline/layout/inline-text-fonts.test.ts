import assert from 'node:assert/strict';
import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import { sameRendering } from '../../../bench/olmocr/math.ts';
import { inlineFormulas } from '../../../pipeline/layout/formula/index.ts';
import type { Fragment } from '../../../pipeline/layout/types.ts';
import { firstPage } from '../../support/text-layer.ts';

const page1 = (bytes: Uint8Array) => firstPage(bytes, 'inline-text-fonts.pdf');

const HEIGHT = 792;

const inlineLatex = (markdown: string): string[] => [...markdown.matchAll(/(?<!\$)\$([^$\n]+)\$(?!\$)/g)].map((m) => m[1]!);

/**
 * Sentences set as Times papers set them (mathptmx, newtx): math letters in the text italic,
 * operators upright, scripts smaller and shifted; the superscript of the first line sorts above it.
 * A last sentence has italic words and a lone italic letter and no formula.
 */
async function timesPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, HEIGHT]);
  const roman = await doc.embedFont(StandardFonts.TimesRoman);
  const italic = await doc.embedFont(StandardFonts.TimesRomanItalic);
  let x = 72;
  const put = (s: string, font: PDFFont, baseline: number, size = 10, shift = 0): void => {
    // A positive shift lowers the text (a subscript), a negative one raises it.
    page.drawText(s, { x, y: HEIGHT - baseline - shift, size, font });
    x += font.widthOfTextAtSize(s, size);
  };
  const line = (baseline: number, parts: [string, PDFFont, number?, number?][]): void => {
    x = 72;
    for (const [s, font, size, shift] of parts) put(s, font, baseline, size, shift);
  };
  line(300, [
    ['We then find, where ', roman],
    ['x', italic],
    ['2', roman, 7, -3.5],
    [' + ', roman],
    ['y', italic],
    ['i', italic, 7, 1.5],
    [' = 1', roman],
    [' is given, the bound.', roman],
  ]);
  line(314, [['The same holds for every sample that we have collected in the study so far.', roman]]);
  line(340, [
    ['This is a ', roman],
    ['very', italic],
    [' important remark about plan ', roman],
    ['B', italic],
    [' of the committee.', roman],
  ]);
  return doc.save();
}

describe('inline formulas in text fonts', () => {
  it('reads italic letters with scripts and upright operators as one formula', async () => {
    const page = await page1(await timesPdf());
    const found = inlineLatex(page.markdown);
    assert.equal(found.length, 1, page.markdown);
    assert.ok(sameRendering('x^{2}+y_{i}=1', found[0]!), found[0]);
    assert.ok(page.markdown.includes('is given, the bound.'), page.markdown);
  });

  it('leaves italic words and a lone italic letter of prose as text', async () => {
    const page = await page1(await timesPdf());
    assert.ok(page.markdown.includes('This is a very important remark about plan B of the committee.'), page.markdown);
  });
});

describe('inline formulas and the brackets of the sentence', () => {
  const piece = (text: string, x0: number, x1: number, font: string, y = 100, size = 10) => ({ text, x0, x1, y, size, font });

  it('keeps a closing bracket of the sentence, and the footnote mark after it, out of the formula', () => {
    const pieces = [
      piece('the subjects (94 percent,', 60, 170, 'Times-Roman'),
      piece('n', 173, 178, 'Times-Italic'),
      piece('= 254).', 181, 210, 'Times-Roman'),
      piece('31', 210, 217, 'Times-Roman', 96, 7),
    ];
    const f: Fragment = { text: 'the subjects (94 percent, n = 254).31', x0: 60, x1: 217, y: 100, top: 92, bottom: 103, size: 10, font: 'Times-Roman', pieces };
    const found = inlineFormulas(f);
    assert.ok(found === undefined || found.latex.every((l) => !l.includes(')')), JSON.stringify(found));
  });
});
