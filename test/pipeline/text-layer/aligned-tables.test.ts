import assert from 'node:assert/strict';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { readSimpleTable } from '../../../pipeline/markdown/html-table.ts';
import { buildTable } from '../../../pipeline/markdown/table.ts';
import { blocks, firstPage } from '../../support/text-layer.ts';

const page1 = (bytes: Uint8Array) => firstPage(bytes, 'aligned.pdf');

const HEIGHT = 792;

/** Text at (x, baseline y from the top) in 10 pt Helvetica, and horizontal rules only (booktabs). */
async function tablePdf(texts: readonly [string, number, number][], rules: readonly [x0: number, x1: number, y: number][] = []): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, HEIGHT]);
  for (const [text, x, y] of texts) page.drawText(text, { x, y: HEIGHT - y, size: 10, font });
  for (const [x0, x1, y] of rules) page.drawLine({ start: { x: x0, y: HEIGHT - y }, end: { x: x1, y: HEIGHT - y }, thickness: 0.6 });
  return doc.save();
}

/** The structural problems the Markdown reader finds in a table (ragged rows: spans that do not fit). */
const problemsOf = (html: string): readonly string[] => buildTable({ rows: readSimpleTable(html) ?? [] }).issues ?? [];

/** Rows of `[stub, ...values]` at 18 pt pitch from `top`, values in columns from x 250, 80 pt apart. */
function body(rows: readonly (readonly string[])[], top: number): [string, number, number][] {
  return rows.flatMap((row, r) => row.map((text, c): [string, number, number] => [text, c === 0 ? 72 : 250 + 80 * (c - 1), top + 18 * r]));
}

/** The body of the two group-header tables below (`Accuracy` and `Speed` over two columns each), at y 336. */
const GROUPED_BODY = body(
  [
    ['Baseline', '71.2', '70.4', '12', '3'],
    ['Ours', '75.9', '74.8', '15', '4'],
    ['Ensemble', '77.1', '76.0', '41', '9'],
  ],
  336,
);
/** Their booktabs rules: top, short rules under the two groups, under the header, bottom. */
const GROUPED_RULES: [number, number, number][] = [
  [70, 520, 288],
  [250, 360, 304],
  [410, 520, 304],
  [70, 520, 322],
  [70, 520, 376],
];

describe('text layer: tables by alignment', () => {
  it('joins a stub cell wrapped onto lines set tighter than the rows into one cell of its row', async () => {
    const texts: [string, number, number][] = [
      ['Sector', 72, 300],
      ['2023', 250, 300],
      ['2024', 330, 300],
      ['2025', 410, 300],
      ...body([['Mining', '1.5', '2.5', '3.5']], 318),
      // The stub wraps: its second and third lines sit 11 pt below, rows are 18 pt apart.
      ...body([['Manufacturing of', '4.5', '5.5', '6.5']], 336),
      ['machinery and', 72, 347],
      ['equipment', 72, 358],
      ...body(
        [
          ['Retail', '7.5', '8.5', '9.5'],
          ['Transport', '1.2', '2.2', '3.2'],
        ],
        376,
      ),
    ];
    const [table] = blocks((await page1(await tablePdf(texts))).markdown, 'table');
    assert.ok(table, 'a table');
    assert.match(table, /<tr><td>Manufacturing of machinery and equipment<\/td><td>4.5<\/td><td>5.5<\/td><td>6.5<\/td><\/tr>/);
    assert.match(table, /<tr><td>Retail<\/td><td>7.5<\/td>/);
    assert.equal((table.match(/<tr>/g) ?? []).length, 5, table);
  });

  it('keeps lines apart that are set as far apart as the rows (no way to tell a wrap)', async () => {
    const texts = body(
      [
        ['Sector', '2023', '2024', '2025'],
        ['Mining', '1.5', '2.5', '3.5'],
        ['Manufacturing', '4.5', '5.5', '6.5'],
        ['Retail', '7.5', '8.5', '9.5'],
      ],
      300,
    );
    texts.push(['services', 72, 372]);
    texts.push(...body([['Transport', '1.2', '2.2', '3.2']], 390));
    const [table] = blocks((await page1(await tablePdf(texts))).markdown, 'table');
    assert.ok(table, 'a table');
    assert.doesNotMatch(table, /Retail services/);
  });

  it('joins prose cells wrapped at the same pitch as the rows by their words, and keeps one-word rows apart', async () => {
    // Every line 12 pt below the last: only the words tell a wrapped cell (lower case after an
    // unfinished phrase) from a new row.
    const lines: (readonly string[])[] = [
      ['Source', 'Definition', 'Examples'],
      ['Major', 'Emissions of ten tons per year or', 'Utilities, refineries, steel'],
      ['', 'more of any one air toxic', 'manufacturers and chemical plants'],
      ['Area', 'Emissions of less than ten tons', 'Dry cleaners and heavy-'],
      ['', 'per year of any one air toxic', 'duty trucks'],
      ['Mobile', 'Cars', 'yes'],
      ['', 'buses', 'no'],
    ];
    const texts = lines.flatMap((row, r) => row.map((text, c): [string, number, number] => [text, [72, 160, 360][c] as number, 300 + 12 * r]));
    const [table] = blocks((await page1(await tablePdf(texts.filter(([t]) => t !== '')))).markdown, 'table');
    assert.ok(table, 'a table');
    assert.match(
      table,
      /<td>Major<\/td><td>Emissions of ten tons per year or more of any one air toxic<\/td><td>Utilities, refineries, steel manufacturers and chemical plants<\/td>/,
    );
    assert.match(table, /<td>Dry cleaners and heavy-duty trucks<\/td>/);
    assert.match(table, /<tr><td>Mobile<\/td><td>Cars<\/td><td>yes<\/td><\/tr><tr><td><\/td><td>buses<\/td><td>no<\/td><\/tr>/);
  });

  it('reads a table of terms beside wrapped prose whose rows are set apart, and leaves margin notes beside running text alone', async () => {
    // Lines inside a cell 12 pt apart, rows 20 pt: the term column wraps too (`Focus` / `group`).
    const prose = [
      ['Rating', ['An ordered set of categories from which people', 'choose the one that best describes their state.']],
      ['Focus', ['A small group discussion led by a moderator, with', 'answers recorded and coded afterwards by two']],
      ['Event log', ['Specific events recorded as they happen, in a', 'diary or with another reporting system.']],
    ] as const;
    const texts: [string, number, number][] = [
      ['Type', 72, 300],
      ['Description', 180, 300],
    ];
    let y = 320;
    for (const [term, lines] of prose) {
      texts.push([term, 72, y]);
      if (term === 'Focus') texts.push(['group', 72, y + 12]);
      lines.forEach((line, k) => texts.push([line, 180, y + 12 * k]));
      y += 12 * lines.length + 8;
    }
    const [table] = blocks((await page1(await tablePdf(texts))).markdown, 'table');
    assert.ok(table, 'a table');
    assert.match(
      table,
      /<tr><td>Focus group<\/td><td>A small group discussion led by a moderator, with answers recorded and coded afterwards by two<\/td><\/tr>/,
    );
    // The same columns on the text's own leading: a margin column of notes beside a text column.
    const notes: [string, number, number][] = [];
    for (let k = 0; k < 6; k++) notes.push(['the running text of the page goes on in its own column, line after line', 180, 300 + 12 * k]);
    notes.push(['Received', 72, 300], ['Helsinki office', 72, 312], ['Accepted', 72, 336], ['Revised draft', 72, 348]);
    assert.equal(blocks((await page1(await tablePdf(notes))).markdown, 'table').length, 0);
  });

  it('spans a booktabs group header over its sub-columns (colspan) and the stub header down the header rows (rowspan)', async () => {
    const texts: [string, number, number][] = [
      ['Method', 72, 300],
      // Centred over its two sub-columns each: x 250–330 and 410–490.
      ['Accuracy', 272, 300],
      ['Speed', 440, 300],
      ['Train', 250, 316],
      ['Test', 330, 316],
      ['CPU', 410, 316],
      ['GPU', 490, 316],
      ...GROUPED_BODY,
    ];
    const [table] = blocks((await page1(await tablePdf(texts, GROUPED_RULES))).markdown, 'table');
    assert.ok(table, 'a table');
    assert.match(
      table,
      /^<table><thead><tr><th rowspan="2">Method<\/th><th colspan="2">Accuracy<\/th><th colspan="2">Speed<\/th><\/tr><tr><th>Train<\/th><th>Test<\/th><th>CPU<\/th><th>GPU<\/th><\/tr><\/thead>/,
    );
    assert.match(table, /<tr><td>Ours<\/td><td>75.9<\/td><td>74.8<\/td><td>15<\/td><td>4<\/td><\/tr>/);
    assert.deepEqual(problemsOf(table), []);
  });

  it('lets a spanning header reach down only where every column it spans is empty below (no ragged rows)', async () => {
    const texts: [string, number, number][] = [
      ['Method', 72, 300],
      ['Accuracy', 272, 300],
      ['Speed', 440, 300],
      // No sub-header under the first of Accuracy's columns.
      ['Test', 330, 316],
      ['CPU', 410, 316],
      ['GPU', 490, 316],
      ...GROUPED_BODY,
    ];
    const [table] = blocks((await page1(await tablePdf(texts, GROUPED_RULES))).markdown, 'table');
    assert.ok(table, 'a table');
    assert.match(table, /<th colspan="2">Accuracy<\/th>/);
    assert.deepEqual(problemsOf(table), []);
  });

  it("takes a group header's span from the short rule under it where the label does not sit over the middle", async () => {
    // Sub-columns at x 250, 310, 370 (group `Acc`, its label set left) and 430, 490 (`Speed`, centred).
    const at = (x: number, y: number, text: string): [string, number, number] => [text, x, y];
    const texts: [string, number, number][] = [
      at(72, 300, 'Model'),
      at(250, 300, 'Acc'),
      at(455, 300, 'Speed'),
      ...['Top-1', 'Top-5', 'Mean', 'CPU', 'GPU'].map((t, k) => at(250 + 60 * k, 316, t)),
      ...[
        ['Small', '61.0', '82.5', '71.7', '12', '3'],
        ['Large', '70.2', '89.9', '80.0', '40', '8'],
        ['Huge', '75.8', '92.4', '84.1', '95', '19'],
      ].flatMap((row, r) => row.map((t, k) => at(k === 0 ? 72 : 250 + 60 * (k - 1), 336 + 18 * r, t))),
    ];
    const rules: [number, number, number][] = [
      [70, 520, 288],
      [250, 400, 304],
      [430, 520, 304],
      [70, 520, 322],
      [70, 520, 380],
    ];
    const [table] = blocks((await page1(await tablePdf(texts, rules))).markdown, 'table');
    assert.ok(table, 'a table');
    assert.match(table, /<th colspan="3">Acc<\/th><th colspan="2">Speed<\/th>/);
  });

  it('takes in a row of group labels set apart above the table and spans each over the value columns under it', async () => {
    // Labels centred over value columns 250/290/330 and 390/430/470; their sub-headers were set
    // sideways (no text-layer line), leaving a gap of two lines under the labels.
    const texts: [string, number, number][] = [
      ['ReACT', 283, 300],
      ['Planner', 424, 300],
      ['#', 72, 330],
      ['Task', 100, 330],
      ...[
        ['1', 'Easy', '0.87', '0.20', '0.20', '0.80', '0.00', '0.10'],
        ['2', 'Normal', '0.88', '0.40', '0.40', '0.68', '0.20', '0.30'],
        ['3', 'Hard', '0.85', '0.30', '0.60', '0.58', '0.20', '0.40'],
      ].flatMap((row, r) =>
        row.map((t, k): [string, number, number] => [t, k === 0 ? 72 : k === 1 ? 100 : k < 5 ? 250 + 40 * (k - 2) : 390 + 40 * (k - 5), 346 + 16 * r]),
      ),
    ];
    const [table] = blocks((await page1(await tablePdf(texts))).markdown, 'table');
    assert.ok(table, 'a table');
    assert.match(table, /<th colspan="3">ReACT<\/th><th colspan="3">Planner<\/th>/);
    assert.deepEqual(problemsOf(table), []);
  });

  it('splits two stacked tables of one layout where the first line of the first comes again', async () => {
    const part = (top: number, years: readonly string[]): [string, number, number][] => [
      ['Design effect', 320, top],
      ...body(
        [
          ['Proportion', ...years],
          ['0.99', '800', '880', '960'],
          ['0.95', '160', '176', '192'],
          ['0.90', '80', '88', '96'],
        ],
        top + 16,
      ),
    ];
    const texts = [...part(300, ['1.0', '1.1', '1.2']), ...part(390, ['1.7', '1.8', '1.9'])];
    const tables = blocks((await page1(await tablePdf(texts))).markdown, 'table');
    assert.equal(tables.length, 2, tables.join('\n'));
    assert.match(tables[1]!, /Design effect/);
    assert.match(tables[1]!, /<td>1.7<\/td>|<th>1.7<\/th>/);
  });
});
