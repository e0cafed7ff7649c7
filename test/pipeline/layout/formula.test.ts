import assert from 'node:assert/strict';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { sameRendering } from '../../../bench/olmocr/math.ts';
import type { Atom } from '../../../pipeline/layout/formula/index.ts';
import { inlineFormulas, layoutLatex } from '../../../pipeline/layout/formula/index.ts';
import type { Fragment } from '../../../pipeline/layout/types.ts';
import { blocks, firstPage } from '../../support/text-layer.ts';

const page1 = (bytes: Uint8Array) => firstPage(bytes, 'formula.pdf');

const HEIGHT = 792;

const latexOf = (block: string): string => block.replace(/^\$\$\n?|\n?\$\$$/g, '').trim();

/** A page of prose with two numbered display formulas drawn by code: a fraction over a rule, and a superscript. */
async function formulaPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, HEIGHT]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const text = (s: string, x: number, baseline: number, size = 10): void => {
    page.drawText(s, { x, y: HEIGHT - baseline, size, font });
  };
  text('We consider the following quantities, which are used throughout the rest of this section.', 72, 100);
  // x = (a + b) / (2c): the bar is a drawn rule on the axis, numerator over it, denominator under.
  text('x =', 250, 150);
  text('a + b', 272, 143);
  page.drawLine({ start: { x: 270, y: HEIGHT - 146.5 }, end: { x: 298, y: HEIGHT - 146.5 }, thickness: 0.4, color: rgb(0, 0, 0) });
  text('2c', 278, 158);
  text('(1)', 520, 150);
  text('The second relation is the familiar one between the energy and the mass of a body.', 72, 190);
  text('E = mc', 260, 225);
  text('2', 292, 221, 7);
  text('(2)', 520, 225);
  text('The value x = y holds for every sample in the set that we have collected so far.', 72, 260);
  return doc.save();
}

describe('formulas from the text layer', () => {
  it('reads a fraction over a drawn rule and a superscript, equation numbers kept out', async () => {
    const page = await page1(await formulaPdf());
    const equations = blocks(page.markdown, 'equation').map(latexOf);
    assert.equal(equations.length, 2, page.markdown);
    assert.ok(sameRendering('x=\\frac{a+b}{2c}', equations[0]!), equations[0]);
    assert.ok(sameRendering('E=mc^{2}', equations[1]!), equations[1]);
    assert.doesNotMatch(page.markdown, /\(1\)|\(2\)/);
  });

  it("lists the page's display formulas with their boxes, numbers and verdicts", async () => {
    const page = await page1(await formulaPdf());
    const formulas = page.formulas ?? [];
    assert.deepEqual(
      formulas.map((f) => [f.number, f.unsure]),
      [
        ['1', false],
        ['2', false],
      ],
    );
    const [x0, top, x1, bottom] = formulas[0]!.box;
    // Around `x = (a + b) / 2c` (x 250–298, baselines 143–158), the number at x 520 left out.
    assert.ok(x0 >= 249 && x0 <= 251 && x1 < 320 && top < 143 && bottom > 158, String(formulas[0]!.box));
    assert.ok(formulas[0]!.confidence === 1);
  });

  it('leaves a relation inside a sentence in its paragraph', async () => {
    const page = await page1(await formulaPdf());
    assert.ok(
      blocks(page.markdown, 'text').some((b) => b.includes('The value x = y holds')),
      page.markdown,
    );
  });
});

const atom = (text: string, x0: number, x1: number, y: number, size: number, font: string): Atom => ({ text, x0, x1, y, size, font });

describe('formula layout', () => {
  it('puts limits over and under a sum (cmex glyph), scripts after a base', () => {
    const { latex, doubts } = layoutLatex(
      [
        atom('X', 100, 112, 104, 10, 'CMEX10'),
        atom('n', 103, 108, 88, 7, 'CMMI7'),
        atom('i', 99, 102, 114, 7, 'CMMI7'),
        atom('=1', 102, 113, 114, 7, 'CMR7'),
        atom('x', 114, 119, 100, 10, 'CMMI10'),
        atom('i', 119, 122, 102, 7, 'CMMI7'),
      ],
      [],
    );
    assert.deepEqual(doubts, []);
    assert.ok(sameRendering('\\sum_{i=1}^{n}x_{i}', latex), latex);
  });

  it('reads alphabets from font names and upright function names', () => {
    const { latex } = layoutLatex(
      [
        atom('M', 100, 108, 100, 10, 'CMBX10'),
        atom('∈', 110, 116, 100, 10, 'CMSY10'),
        atom('A', 118, 125, 100, 10, 'CMSY10'),
        atom('+', 127, 133, 100, 10, 'CMR10'),
        atom('R', 135, 142, 100, 10, 'MSBM10'),
        atom('+ sin', 144, 160, 100, 10, 'CMR10'),
        atom('x', 161, 166, 100, 10, 'CMMI10'),
        atom('′', 166, 169, 96, 7, 'CMSY7'),
      ],
      [],
    );
    assert.ok(sameRendering("\\mathbf{M}\\in\\mathcal{A}+\\mathbb{R}+\\sin x'", latex), latex);
  });

  it('pairs sized delimiters of the extension font as \\left … \\right, by character code', () => {
    const { latex, doubts } = layoutLatex(
      [
        atom('f', 100, 105, 100, 10, 'CMMI10'),
        atom('\u0000', 106, 111, 93, 10, 'CMEX10'),
        atom('x', 112, 117, 100, 10, 'CMMI10'),
        atom('\u0001', 118, 123, 93, 10, 'CMEX10'),
        atom('2', 124, 128, 94, 7, 'CMR7'),
      ],
      [],
    );
    assert.deepEqual(doubts, []);
    assert.ok(sameRendering('f\\left(x\\right)^{2}', latex), latex);
  });

  it('reads rows that each hold a relation as an aligned display', () => {
    const { latex } = layoutLatex(
      [
        atom('a', 100, 105, 100, 10, 'CMMI10'),
        atom('=', 108, 115, 100, 10, 'CMR10'),
        atom('b', 118, 123, 100, 10, 'CMMI10'),
        atom('=', 108, 115, 115, 10, 'CMR10'),
        atom('c', 118, 123, 115, 10, 'CMMI10'),
      ],
      [],
    );
    assert.ok(sameRendering('\\begin{aligned}a&=b\\\\&=c\\end{aligned}', latex), latex);
  });

  it('reads a matrix between sized parentheses, columns at the gaps every row leaves', () => {
    const { latex, doubts } = layoutLatex(
      [
        atom('A', 80, 87, 107, 10, 'CMMI10'),
        atom('=', 90, 97, 107, 10, 'CMR10'),
        atom('\u0012', 100, 106, 95, 10, 'CMEX10'),
        atom('a', 110, 115, 100, 10, 'CMMI10'),
        atom('b', 130, 135, 100, 10, 'CMMI10'),
        atom('c', 110, 115, 114, 10, 'CMMI10'),
        atom('d', 130, 135, 114, 10, 'CMMI10'),
        atom('\u0013', 139, 145, 95, 10, 'CMEX10'),
      ],
      [],
    );
    assert.deepEqual(doubts, []);
    assert.ok(sameRendering('A=\\begin{pmatrix}a&b\\\\c&d\\end{pmatrix}', latex), latex);
  });

  it('reads cases after a sized left brace, conditions past the wide gap', () => {
    const { latex } = layoutLatex(
      [
        atom('f', 80, 85, 107, 10, 'CMMI10'),
        atom('=', 88, 95, 107, 10, 'CMR10'),
        atom('\u001a', 98, 104, 95, 10, 'CMEX10'),
        atom('1', 108, 113, 100, 10, 'CMR10'),
        atom('x', 130, 135, 100, 10, 'CMMI10'),
        atom('>', 137, 144, 100, 10, 'CMMI10'),
        atom('0', 146, 151, 100, 10, 'CMR10'),
        atom('0', 108, 113, 114, 10, 'CMR10'),
        atom('otherwise', 130, 170, 114, 10, 'CMR10'),
      ],
      [],
    );
    assert.ok(sameRendering('f=\\begin{cases}1&x>0\\\\0&\\text{otherwise}\\end{cases}', latex), latex);
  });

  it('doubts rows of full-size text that nothing explains (a matrix)', () => {
    const { doubts } = layoutLatex(
      [
        atom('a', 100, 105, 100, 10, 'CMMI10'),
        atom('b', 120, 125, 100, 10, 'CMMI10'),
        atom('c', 100, 105, 114, 10, 'CMMI10'),
        atom('d', 120, 125, 114, 10, 'CMMI10'),
      ],
      [],
    );
    assert.ok(doubts.length > 0);
  });
});

describe('inline formulas', () => {
  const piece = (text: string, x0: number, x1: number, y: number, size: number, font: string) => ({ text, x0, x1, y, size, font });
  const fragment = (pieces: ReturnType<typeof piece>[]): Fragment => ({
    text: pieces.map((p) => p.text).join(' '),
    x0: pieces[0]!.x0,
    x1: pieces.at(-1)!.x1,
    y: 100,
    top: 92,
    bottom: 103,
    size: 10,
    font: 'CMR10',
    pieces,
  });

  it('writes the math-font runs of a sentence, operators between them, as one formula', () => {
    const found = inlineFormulas(
      fragment([
        piece('where', 60, 84, 100, 10, 'CMR10'),
        piece('x', 87, 92, 100, 10, 'CMMI10'),
        piece('2', 92, 96, 96, 7, 'CMR7'),
        piece('=', 99, 106, 100, 10, 'CMR10'),
        piece('y', 109, 114, 100, 10, 'CMMI10'),
        piece('is given.', 117, 150, 100, 10, 'CMR10'),
      ]),
    );
    assert.ok(found !== undefined);
    assert.equal(found.latex.length, 1);
    assert.ok(sameRendering('x^{2}=y', found.latex[0]!), found.latex[0]);
    assert.equal(found.text, 'where \uE0000\uE001 is given.');
  });

  it('leaves a sentence without a math font alone', () => {
    assert.equal(inlineFormulas(fragment([piece('Figure', 60, 90, 100, 10, 'Times-Roman'), piece('12', 92, 100, 100, 10, 'Times-Bold')])), undefined);
  });
});
