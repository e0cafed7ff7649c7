import assert from 'node:assert/strict';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import type { TextLayerPage } from '../../../pipeline/text-layer/index.ts';
import { blocks, firstPage } from '../../support/text-layer.ts';

const page1 = (bytes: Uint8Array) => firstPage(bytes, 'sideways.pdf');

const HEIGHT = 792;

/** Text at (x, baseline y from the top) in 10 pt Helvetica, turned `angle` degrees counter-clockwise (pdf-lib's sense). */
type Placed = readonly [text: string, x: number, y: number, angle?: number];

async function pagePdf(texts: readonly Placed[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, HEIGHT]);
  for (const [text, x, y, angle] of texts) page.drawText(text, { x, y: HEIGHT - y, size: 10, font, rotate: degrees(angle ?? 0) });
  return doc.save();
}

const COLUMNS = [200, 260, 320];
const HEADERS = ['Precision', 'Recall', 'Coverage'];
const STUBS = ['Baseline', 'Lexicon', 'Neural', 'Ensemble'];

/** Body rows under a `Method` stub header: figures starting at each column's left edge. */
function body(): Placed[] {
  const texts: Placed[] = [['Method', 72, 185]];
  STUBS.forEach((stub, r) => {
    const y = 200 + 14 * r;
    texts.push([stub, 72, y]);
    COLUMNS.forEach((x, c) => texts.push([`0.${(r * 3 + c + 11) % 90}`, x, y]));
  });
  return texts;
}

/** The head row's cells of the page's one table. */
function headCells(page: TextLayerPage): string[] {
  const tables = blocks(page.markdown, 'table');
  assert.equal(tables.length, 1, page.markdown);
  const head = /<thead>(.*?)<\/thead>/.exec(tables[0]!)?.[1] ?? '';
  return [...head.matchAll(/<th[^>]*>(.*?)<\/th>/g)].map((m) => m[1]!);
}

describe('text layer: sideways column headers', () => {
  it('reads headers set bottom to top as the head cells of their columns', async () => {
    // Turned a quarter counter-clockwise, a glyph's box lies left of its origin: the origin
    // goes right of the column's middle so the header stands over its figures.
    const texts = [...body(), ...HEADERS.map((h, c): Placed => [h, COLUMNS[c]! + 12, 185, 90])];
    const page = await page1(await pagePdf(texts));
    assert.deepEqual(headCells(page), ['Method', ...HEADERS]);
  });

  it('reads headers set top to bottom in their own order, not reversed', async () => {
    const tops = HEADERS.map((h) => 185 - h.length * 5.5);
    const texts = [...body(), ...HEADERS.map((h, c): Placed => [h, COLUMNS[c]! + 4, tops[c]!, -90])];
    const page = await page1(await pagePdf(texts));
    assert.deepEqual(headCells(page), ['Method', ...HEADERS]);
  });

  it('reads headers set at a slant, each over the column its foot stands on', async () => {
    // Slanted headers lean over the next columns: their boxes overlap, their baselines do not.
    const texts = [...body(), ...HEADERS.map((h, c): Placed => [h, COLUMNS[c]! + 2, 185, 45])];
    const page = await page1(await pagePdf(texts));
    assert.deepEqual(headCells(page), ['Method', ...HEADERS]);
  });

  it('keeps a sideways stamp in the margin out of the table and out of the body', async () => {
    const stamp = 'arXiv:2101.00001v1 [cs.CL] 1 Jan 2021';
    const texts: Placed[] = [
      ['Results on the test set are given below for each method and measure.', 72, 150],
      ...body(),
      ['Precision', 200, 185],
      ['Recall', 260, 185],
      ['Coverage', 320, 185],
      [stamp, 30, 500, 90],
    ];
    const page = await page1(await pagePdf(texts));
    assert.ok(!page.markdown.includes('arXiv'), page.markdown);
    assert.deepEqual(headCells(page), ['Method', ...HEADERS]);
  });
});
