import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { formulaLatex, formulaLike } from '../../../pipeline/layout/formula/index.ts';
import type { Line } from '../../../pipeline/layout/types.ts';
import { openPdf } from '../../../pipeline/pdf/index.ts';
import type { TextLayerPage } from '../../../pipeline/text-layer/index.ts';
import { extractTextLayer } from '../../../pipeline/text-layer/index.ts';
import type { PageSpec } from './make-pdf.ts';
import { makePdf, paragraph } from './make-pdf.ts';

const TAG = /^<\|ref\|>(\w+)<\|\/ref\|>/;

async function pages(bytes: Uint8Array): Promise<TextLayerPage[]> {
  const pdf = await openPdf(bytes, { source: 'test.pdf' });
  try {
    const out: TextLayerPage[] = [];
    for await (const page of extractTextLayer(pdf)) out.push(page);
    return out;
  } finally {
    await pdf.close();
  }
}

const labelled = (markdown: string, label: string): string[] =>
  markdown
    .split('\n\n')
    .filter((b) => TAG.exec(b)?.[1] === label)
    .map((b) => b.split('\n').slice(1).join('\n'));

/** A line made of pieces `[text, baseline y, size, x0]`, as `toLines` builds it. */
function line(pieces: readonly [string, number, number, number][], y = 200, size = 14): Line {
  const fragment = {
    text: pieces.map((p) => p[0]).join(' '),
    x0: pieces[0]![3],
    x1: pieces.at(-1)![3] + 8,
    y,
    top: y - 11,
    bottom: y + 3,
    size,
    font: 'F',
    pieces: pieces.map(([text, py, ps, x0]) => ({ text, y: py, size: ps, x0, x1: x0 + 6 * text.length })),
  };
  return { fragments: [fragment], text: fragment.text, x0: fragment.x0, x1: fragment.x1, y, top: fragment.top, bottom: fragment.bottom, size, font: 'F' };
}

describe('text layer: formulas from glyph geometry', () => {
  it('writes raised small pieces as superscripts and lowered ones as subscripts', () => {
    const l = line([
      ['e', 200, 14, 100],
      ['iπ', 194, 10, 108],
      ['+', 200, 14, 124],
      ['x', 200, 14, 136],
      ['0', 203, 10, 143],
      ['= 1', 200, 14, 152],
    ]);
    assert.ok(formulaLike(l));
    assert.equal(formulaLatex(l)?.latex, 'e^{i\\pi}+x_0=1');
  });

  it('stacks a fraction and takes integral limits from the lines over and under the sign', () => {
    const l = line([
      ['∫', 200, 14, 100],
      ['f(x) dx = −', 200, 14, 112],
      ['∂B', 193, 14, 190],
      ['∂t', 207, 14, 190],
    ]);
    const above = line([['b', 188, 10, 104]], 188, 10);
    const below = line([['a', 214, 10, 102]], 214, 10);
    const found = formulaLatex(l, above, below);
    assert.deepEqual(
      { latex: found?.latex, above: found?.above, below: found?.below, unsure: found?.unsure },
      { latex: '\\int_a^b f(x)dx=-\\frac{\\partial B}{\\partial t}', above: true, below: true, unsure: false },
    );
  });

  it('leaves prose with an equals sign alone', () => {
    assert.ok(!formulaLike(line([['where the value of x = 5 holds for every sample', 200, 14, 100]])));
  });

  it('keeps the text when KaTeX rejects what comes out', () => {
    // A stray superscript `^` with nothing to raise cannot parse.
    assert.equal(
      formulaLatex(
        line([
          ['=', 200, 14, 100],
          ['^', 194, 10, 108],
        ]),
      ),
      undefined,
    );
  });

  it('writes a display formula on a synthetic page as $$…$$', async () => {
    const spec: PageSpec = {
      texts: [
        ...paragraph(
          [
            'The theorem of Pythagoras says that the squares of the legs add up to the',
            'square of the hypotenuse in every right triangle we care to draw here.',
          ],
          72,
          100,
        ),
        { text: 'a', x: 250, y: 160, size: 14 },
        { text: '2', x: 258, y: 154, size: 9 },
        { text: '+ b', x: 266, y: 160, size: 14 },
        { text: '2', x: 290, y: 154, size: 9 },
        { text: '= c', x: 298, y: 160, size: 14 },
        { text: '2', x: 322, y: 154, size: 9 },
        ...paragraph(['and that is all the text on this page, which goes on a little longer.'], 72, 200),
      ],
    };
    const [page] = await pages(makePdf([spec]));
    assert.deepEqual(labelled(page!.markdown, 'equation'), ['$$a^2+b^2=c^2$$']);
  });
});

describe('text layer: page furniture on one page', () => {
  it('takes a contact line set apart at the foot of the page out of the body', async () => {
    const spec: PageSpec = {
      texts: [
        { text: 'A Study of Things', x: 72, y: 80, size: 16, bold: true },
        ...paragraph(
          Array.from({ length: 20 }, (_, i) => `Body line ${i + 1} of the article says something worth reading here.`),
          72,
          120,
        ),
        { text: 'Corresponding author: jane.doe@example.org', x: 72, y: 600, size: 8 },
      ],
    };
    const [page] = await pages(makePdf([spec]));
    assert.deepEqual(labelled(page!.markdown, 'page_footer'), ['Corresponding author: jane.doe@example.org']);
    assert.ok(!labelled(page!.markdown, 'text').join(' ').includes('jane.doe'));
  });

  it('keeps a body line with an address in it that is not set apart', async () => {
    const spec: PageSpec = {
      texts: paragraph(
        Array.from({ length: 40 }, (_, i) =>
          i === 39 ? 'Write to us at office@example.org with questions.' : `Line ${i + 1} of plain body text on this page goes on.`,
        ),
        72,
        100,
      ),
    };
    const [page] = await pages(makePdf([spec]));
    assert.deepEqual(labelled(page!.markdown, 'page_footer'), []);
  });
});

describe('text layer: right-to-left documents', () => {
  it('reads the Arabic page in reading order with lam-alef ligatures whole', async () => {
    const [page] = await pages(await readFile('../shared/data/docling-dev/pdf/right_to_left_01.pdf'));
    const text = page!.markdown;
    assert.match(text, /المشكلات/u);
    assert.match(text, /الإنتاجية/u);
    assert.match(text, /البرمجة بلغة R و ?Python/u);
  });

  it('reads our pango-rendered Hebrew page with its numbers and Latin word in place', async () => {
    const [page] = await pages(await readFile('bench/quality/rtl/pdf/rtl-hebrew-notes.pdf'));
    assert.match(page!.markdown, /מסד הנתונים PostgreSQL לפני ההעברה/u);
    assert.match(page!.markdown, /בשעה 10:00/u);
  });
});

/**
 * A one-page PDF whose only font draws codes 1–3 under glyph names no Unicode map knows, and has
 * no ToUnicode: PDFium can only hand out the codes (as with a subset font that lost its map).
 */
function unmappedFontPdf(): Uint8Array {
  const ops = Array.from(
    { length: 30 },
    (_, i) => `BT /F1 10 Tf 1 0 0 1 72 ${700 - i * 14} Tm (\\001\\002\\003\\001\\002\\003\\001 \\002\\003\\001\\002 \\003\\001) Tj ET`,
  ).join('\n');
  const objects = [
    '',
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Type /Encoding /Differences [1 /g0x1 /g0x2 /g0x3] >> >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n${offsets
    .slice(1)
    .map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)
    .join('')}trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

describe('text layer: bad inputs end in output or a clear verdict', function () {
  this.timeout(60_000);

  it('writes a table of 1,000 rows as one HTML table', async () => {
    const texts = Array.from({ length: 1000 }, (_, i) => [
      { text: `item ${i + 1}`, x: 72, y: 40 + i * 12, size: 9 },
      { text: String((i * 37) % 1000), x: 220, y: 40 + i * 12, size: 9 },
      { text: `${(i % 7) + 1}.5`, x: 320, y: 40 + i * 12, size: 9 },
    ]).flat();
    const [page] = await pages(makePdf([{ texts, height: 12_100 }]));
    const tables = labelled(page!.markdown, 'table');
    assert.equal(tables.length, 1);
    assert.equal((tables[0]!.match(/<tr>/g) ?? []).length, 1000);
    assert.match(tables[0]!, /<td>item 1000<\/td>/);
  });

  it('reads a page of 5,000 tiny glyphs without hanging', async () => {
    const texts = Array.from({ length: 5000 }, (_, i) => ({
      text: String.fromCharCode(97 + (i % 26)),
      x: 20 + (i % 100) * 5.7,
      y: 20 + Math.floor(i / 100) * 15,
      size: 2,
    }));
    const started = performance.now();
    const [page] = await pages(makePdf([{ texts }]));
    assert.ok(page!.assessment.reason.length > 0);
    assert.ok(page!.markdown.length > 0 || !page!.assessment.usable);
    // Not a speed target: only that a pathological page does not run away (seconds, not minutes).
    assert.ok(performance.now() - started < 30_000);
  });

  it('judges a text layer in a font without a Unicode map unusable, so the page goes to OCR', async () => {
    const [page] = await pages(unmappedFontPdf());
    assert.equal(page!.assessment.usable, false);
    assert.match(page!.assessment.reason, /garbage-text|too-little-text|no-text-layer/);
  });

  it('judges an image-only PDF with an invisible text layer unusable, with the reason', async () => {
    const [page] = await pages(await readFile('../shared/data/docling-dev/pdf/invisible_text_layer.pdf'));
    assert.equal(page!.assessment.usable, false);
    assert.equal(page!.assessment.reason, 'invisible-text');
  });
});

describe('text layer: tables from alignment', () => {
  const row = (y: number, cells: readonly (readonly [string, number])[], size = 9) => cells.map(([text, x]) => ({ text, x, y, size }));

  it('spans a header over its columns, merges wrapped header lines and drops dot leaders', async () => {
    const texts = [
      ...row(100, [['Threshold for releases of listed pollutants', 210]]),
      ...row(114, [
        ['to air', 200],
        ['to water', 280],
        ['to land', 360],
      ]),
      ...row(123, [
        ['kg/year', 200],
        ['kg/year', 280],
        ['kg/year', 360],
      ]),
      ...row(140, [
        ['Methane ..........', 72],
        ['100', 200],
        ['10', 280],
        ['1', 360],
      ]),
      ...row(154, [
        ['Ammonia', 72],
        ['200', 200],
        ['20', 280],
        ['2', 360],
      ]),
      ...row(168, [
        ['Benzene', 72],
        ['300', 200],
        ['30', 280],
        ['3', 360],
      ]),
    ];
    const [page] = await pages(makePdf([{ texts }]));
    const [table] = labelled(page!.markdown, 'table');
    assert.ok(table !== undefined, page!.markdown);
    assert.match(table, /<th colspan="3">Threshold for releases of listed pollutants<\/th>/);
    // The row naming the sub-columns under the spanning header is a header row too.
    assert.match(table, /<thead>.*<th>to air kg\/year<\/th><th>to water kg\/year<\/th>.*<\/thead>/);
    assert.match(table, /<td>Methane<\/td><td>100<\/td>/);
  });

  it('ends a table at the caption of the next one', async () => {
    const body = (y0: number, tag: string) =>
      [0, 1, 2, 3].flatMap((i) =>
        row(y0 + i * 14, [
          [`${tag} ${i}`, 72],
          [String(i * 10), 200],
          [String(i * 7), 300],
        ]),
      );
    const texts = [...body(100, 'alpha'), ...row(160, [['Table 2. The second table', 72]]), ...body(176, 'beta')];
    const [page] = await pages(makePdf([{ texts }]));
    const tables = labelled(page!.markdown, 'table');
    assert.equal(tables.length, 2, page!.markdown);
    assert.ok(!tables.some((t) => t.includes('Table 2')));
  });
});
