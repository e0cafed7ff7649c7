import assert from 'node:assert/strict';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { blocks, firstPage } from '../../support/text-layer.ts';

const page1 = (bytes: Uint8Array) => firstPage(bytes, 'ruled.pdf');

const HEIGHT = 792;

/** Lines from top-left coordinates (y down), as the text layer reads them. */
type Segment = readonly [x0: number, y0: number, x1: number, y1: number];

async function ruledPdf(texts: readonly [string, number, number][], segments: readonly Segment[], boxes: readonly Segment[] = []): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, HEIGHT]);
  for (const [text, x, y] of texts) page.drawText(text, { x, y: HEIGHT - y, size: 10, font });
  for (const [x0, y0, x1, y1] of segments) {
    page.drawLine({ start: { x: x0, y: HEIGHT - y0 }, end: { x: x1, y: HEIGHT - y1 }, thickness: 0.5 });
  }
  for (const [x0, y0, x1, y1] of boxes) {
    page.drawRectangle({ x: x0, y: HEIGHT - y1, width: x1 - x0, height: y1 - y0, borderWidth: 0.75 });
  }
  return doc.save();
}

describe('text layer: ruled tables', () => {
  it('builds the cells from the drawn grid, with a merged header as colspan and a tall stub as rowspan', async () => {
    // Columns at x 72, 192, 312, 432; rows at y 100, 120, 140, 160, 180.
    const segments: Segment[] = [];
    // Outer frame and the full inner rules.
    for (const y of [100, 140, 160, 180]) segments.push([72, y, 432, y]);
    for (const x of [72, 192, 432]) segments.push([x, 100, x, 180]);
    // Under `Sales` only (the stub column has no rule there: `Item` spans two rows).
    segments.push([192, 120, 432, 120]);
    // Between the two year columns below the header only (`Sales` spans both).
    segments.push([312, 120, 312, 180]);
    const texts: [string, number, number][] = [
      ['Item', 76, 124],
      ['Sales', 240, 114],
      ['2023', 196, 134],
      ['2024', 316, 134],
      ['Apples', 76, 154],
      ['10', 196, 154],
      ['12', 316, 154],
      ['Pears', 76, 174],
      ['7', 196, 174],
      ['9', 316, 174],
    ];
    const page = await page1(await ruledPdf(texts, segments));
    const tables = blocks(page.markdown, 'table');
    assert.equal(tables.length, 1, page.markdown);
    assert.equal(
      tables[0],
      '<table><thead><tr><th rowspan="2">Item</th><th colspan="2">Sales</th></tr><tr><th>2023</th><th>2024</th></tr></thead>' +
        '<tbody><tr><td>Apples</td><td>10</td><td>12</td></tr><tr><td>Pears</td><td>7</td><td>9</td></tr></tbody></table>',
    );
  });

  it('cuts a run of justified header text where a rule passes through its space', async () => {
    const segments: Segment[] = [];
    for (const y of [100, 120, 140, 160]) segments.push([72, y, 432, y]);
    for (const x of [72, 192, 312, 432]) segments.push([x, 100, x, 160]);
    // One run across the rule at x 192: `Count of` set flush right in the first cell, `Pct` flush
    // left in the second, one space between (Helvetica 10 pt: `Count of ` is 40.6 pt wide).
    const texts: [string, number, number][] = [
      ['Count of Pct', 192 - 39.2, 114],
      ['Share', 316, 114],
      ['Apples', 76, 134],
      ['10', 196, 134],
      ['12%', 316, 134],
      ['Pears', 76, 154],
      ['7', 196, 154],
      ['9%', 316, 154],
    ];
    const [table] = blocks((await page1(await ruledPdf(texts, segments))).markdown, 'table');
    assert.ok(table, 'a table');
    assert.match(table, /<tr><th>Count of<\/th><th>Pct<\/th><th>Share<\/th><\/tr>/);
    assert.match(table, /<tr><td>Pears<\/td><td>7<\/td><td>9%<\/td><\/tr>/);
  });

  it('reads a table of long definitions when every cell is ruled off, and leaves two ruled columns of prose alone', async () => {
    // Cells of four lines each: far more than the 60 characters a cell of a table by alignment holds.
    const segments: Segment[] = [];
    for (const y of [100, 120, 170, 220, 270]) segments.push([72, y, 540, y]);
    for (const x of [72, 160, 540]) segments.push([x, 100, x, 270]);
    const texts: [string, number, number][] = [
      ['Type', 76, 114],
      ['Description', 164, 114],
    ];
    for (const [r, name] of ['Likert', 'Rating', 'Checklist'].entries()) {
      texts.push([name, 76, 134 + 50 * r]);
      texts.push([`An ordered set of ${name.toLowerCase()} statements and more words`, 164, 134 + 50 * r]);
      texts.push(['which patients choose from to describe their state', 164, 145 + 50 * r]);
      texts.push(['or their experience of it, anchored with words at', 164, 156 + 50 * r]);
      texts.push(['both ends of the scale and numbered in between', 164, 167 + 50 * r]);
    }
    const [table] = blocks((await page1(await ruledPdf(texts, segments))).markdown, 'table');
    assert.ok(table, 'a table');
    assert.match(table, /<tr><td>Rating<\/td><td>An ordered set of rating statements and more words which patients choose/);
    // The same text in two framed columns of one row each: a layout, not a table.
    const columns: Segment[] = [
      [72, 100, 540, 100],
      [72, 400, 540, 400],
      [72, 100, 72, 400],
      [306, 100, 306, 400],
      [540, 100, 540, 400],
    ];
    const prose: [string, number, number][] = [];
    for (let k = 0; k < 12; k++) {
      prose.push(['This column of ordinary prose runs on and on here', 76, 120 + 20 * k]);
      prose.push(['and the other column of prose does just the same', 310, 120 + 20 * k]);
    }
    assert.equal(blocks((await page1(await ruledPdf(prose, columns))).markdown, 'table').length, 0);
  });

  it('puts a cell of two lines together and keeps text outside the grid out of it', async () => {
    const segments: Segment[] = [];
    for (const y of [200, 220, 250]) segments.push([72, y, 312, y]);
    for (const x of [72, 192, 312]) segments.push([x, 200, x, 250]);
    const texts: [string, number, number][] = [
      ['A table of two columns follows.', 72, 180],
      ['Name', 76, 214],
      ['Note', 196, 214],
      ['Oak', 76, 234],
      ['grows', 196, 234],
      ['slowly', 196, 246],
    ];
    const page = await page1(await ruledPdf(texts, segments));
    const tables = blocks(page.markdown, 'table');
    assert.equal(tables.length, 1, page.markdown);
    assert.equal(tables[0], '<table><thead><tr><th>Name</th><th>Note</th></tr></thead><tbody><tr><td>Oak</td><td>grows slowly</td></tr></tbody></table>');
    assert.ok(blocks(page.markdown, 'text').some((b) => b.includes('A table of two columns follows.')));
  });

  it('reads rows set apart by space inside one ruled band as rows, where they hold figures', async () => {
    const segments: Segment[] = [];
    // Rules around the header and the body only: the body rows have none between them.
    for (const y of [300, 320, 370]) segments.push([72, y, 312, y]);
    for (const x of [72, 192, 312]) segments.push([x, 300, x, 370]);
    const texts: [string, number, number][] = [
      ['Cohort', 76, 314],
      ['Count', 196, 314],
      ['Three', 76, 334],
      ['1,530', 196, 334],
      ['Four', 76, 348],
      ['1,253', 196, 348],
      ['Total', 76, 362],
      ['2,783', 196, 362],
    ];
    const page = await page1(await ruledPdf(texts, segments));
    assert.deepEqual(blocks(page.markdown, 'table'), [
      '<table><thead><tr><th>Cohort</th><th>Count</th></tr></thead><tbody><tr><td>Three</td><td>1,530</td></tr><tr><td>Four</td><td>1,253</td></tr><tr><td>Total</td><td>2,783</td></tr></tbody></table>',
    ]);
  });

  it('leaves a chart to alignment whose labels run through its grid lines', async () => {
    const segments: Segment[] = [];
    for (const y of [400, 430, 460, 490]) segments.push([72, y, 372, y]);
    for (const x of [72, 172, 272, 372]) segments.push([x, 400, x, 490]);
    const texts: [string, number, number][] = [
      ['300', 76, 418],
      ['Czech Republic share', 130, 418],
      ['200', 76, 448],
      ['United Kingdom share', 230, 448],
      ['100', 76, 478],
      ['Slovakia', 180, 478],
    ];
    // The grid is refused: the page reads as it does without its lines (alignment alone).
    const page = await page1(await ruledPdf(texts, segments));
    const unruled = await page1(await ruledPdf(texts, []));
    assert.equal(page.markdown, unruled.markdown);
    assert.match(page.markdown, /Czech Republic share/);
  });

  it('invents no table from underlines and a box around a paragraph', async () => {
    const texts: [string, number, number][] = [
      ['A heading with a rule under it', 72, 100],
      ['The first line of a boxed paragraph runs on here,', 80, 150],
      ['and the second line of it ends the paragraph.', 80, 164],
      ['An underlined phrase in running text.', 72, 220],
    ];
    const segments: Segment[] = [
      [72, 104, 260, 104],
      [72, 224, 240, 224],
    ];
    const page = await page1(await ruledPdf(texts, segments, [[74, 138, 360, 172]]));
    assert.deepEqual(blocks(page.markdown, 'table'), [], page.markdown);
    const text = blocks(page.markdown, 'text').join('\n');
    assert.match(text, /boxed paragraph runs on here/);
    assert.match(text, /underlined phrase/);
  });
});
