import assert from 'node:assert/strict';
import type { OcrEngine } from '../../../inference/engine.ts';
import { createPaddleEngine } from '../../../inference/paddle/index.ts';
import { layoutOcrPage, ocrPositionedPage, withLayout } from '../../../pipeline/layout/index.ts';
import type { DrawnRule, DrawnText } from '../../support/ocr-pages.ts';
import { drawnPdf, renderedPage } from '../../support/ocr-pages.ts';
import { blocks } from '../../support/text-layer.ts';

const identity = (box: readonly [number, number, number, number]) => box;

/** The cell texts of the first `<table>` in the Markdown, row by row (header cells too). */
function tableRows(markdown: string): string[][] {
  const table = /<table>[\s\S]*?<\/table>/.exec(markdown)?.[0] ?? '';
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => [...row[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => c[1]!.trim()));
}

/** A five-row table at the top of a page: a bold header row, then figures; ruled or not. */
function tablePage(ruled: boolean): { texts: DrawnText[]; rules: DrawnRule[] } {
  const cols = [72, 220, 340, 460];
  const rows = [
    ['Region', 'Revenue', 'Margin', 'Staff'],
    ['North', '1204', '12.5%', '310'],
    ['South', '987', '9.1%', '254'],
    ['East', '1530', '14.2%', '402'],
    ['West', '762', '7.8%', '198'],
  ];
  const texts = rows.flatMap((r, i) => r.map((text, j) => ({ text, x: cols[j]! + 4, y: 60 + i * 22, bold: i === 0 })));
  const body = Array.from({ length: 8 }, (_, i) => ({
    text: `The figures above are given per region for the last year, line ${i + 1}.`,
    x: 72,
    y: 220 + i * 15,
  }));
  const rules = ruled
    ? [
        ...[0, 1, 2, 3, 4, 5].map((i) => ({ x0: 72, y0: 45 + i * 22, x1: 560, y1: 45 + i * 22 })),
        ...[...cols, 560].map((x) => ({ x0: x, y0: 45, x1: x, y1: 155 })),
      ]
    : [];
  return { texts: [...texts, ...body], rules };
}

describe('layoutOcrPage on pages read by the paddle engine', function () {
  this.timeout(600_000);
  let engine: OcrEngine;
  before(async () => {
    engine = withLayout(await createPaddleEngine({ threads: 2 }));
  });
  after(async () => engine.close());

  for (const ruled of [true, false]) {
    it(`should keep the header row of a${ruled ? ' ruled' : 'n unruled'} table at the top of the page, in the table`, async () => {
      const { texts, rules } = tablePage(ruled);
      const [result] = await engine.recognize([await renderedPage(await drawnPdf(texts, rules), `table-${ruled}.pdf`)]);
      const markdown = result!.markdown;
      assert.equal(blocks(markdown, 'page_header').length, 0, markdown);
      const rows = tableRows(markdown);
      assert.ok(rows.length >= 5, markdown);
      assert.deepEqual(rows[0], ['Region', 'Revenue', 'Margin', 'Staff'], markdown);
      assert.equal(rows.at(-1)?.[0], 'West', markdown);
      if (ruled) assert.ok((result!.stats.rules ?? 0) >= 8, `rules found: ${result!.stats.rules}`);
      // The paragraph under the table is no table.
      assert.match(blocks(markdown, 'text').join('\n'), /figures above/);
    });
  }

  it('should read two columns one after the other', async () => {
    const left = Array.from({ length: 14 }, (_, i) => ({ text: `Left column sentence number ${i + 1} goes on.`, x: 72, y: 120 + i * 15 }));
    const right = Array.from({ length: 14 }, (_, i) => ({ text: `Right column sentence number ${i + 1} too.`, x: 330, y: 120 + i * 15 }));
    const title = { text: 'Two Columns of Text', x: 72, y: 80, size: 20, bold: true };
    const [result] = await engine.recognize([await renderedPage(await drawnPdf([title, ...left, ...right]), 'columns.pdf')]);
    const text = result!.markdown;
    const at = (s: string): number => text.indexOf(s);
    for (const s of ['Left column sentence number 1 ', 'number 14 goes', 'Right column sentence number 1 ', 'number 14 too'])
      assert.ok(at(s) >= 0, `${s}: ${text}`);
    // Every line of the left column comes before the first line of the right one.
    assert.ok(at('number 14 goes') < at('Right column sentence number 1 '), text);
    assert.match(text, /^#{1,2} Two Columns of Text$/m);
  });

  it('should read a page that is all table rules without failing', async () => {
    const rules: DrawnRule[] = [];
    for (let y = 20; y <= 772; y += 12) rules.push({ x0: 20, y0: y, x1: 592, y1: y, thickness: 0.8 });
    for (let x = 20; x <= 592; x += 12) rules.push({ x0: x, y0: 20, x1: x, y1: 772, thickness: 0.8 });
    const [result] = await engine.recognize([await renderedPage(await drawnPdf([], rules), 'grid.pdf')]);
    assert.equal(typeof result!.markdown, 'string');
    assert.ok((result!.stats.rules ?? 0) <= 2000);
  });
});

describe('ocrPositionedPage', () => {
  it('should scale a page so its body text is 10 points and keep the confidences', () => {
    const lines = Array.from({ length: 5 }, (_, i) => ({ text: `line ${i}`, box: [100, 100 + i * 50, 900, 140 + i * 50] as const, confidence: 0.9 }));
    const page = ocrPositionedPage({ pageNumber: 2, width: 1700, height: 2200, lines, toGrid: identity });
    assert.equal(page.origin, 'ocr');
    assert.equal(page.fragments.length, 5);
    for (const f of page.fragments) {
      assert.ok(Math.abs(f.size - 10) < 1e-9, String(f.size));
      assert.equal(f.confidence, 0.9);
      assert.ok(f.top < f.y && f.y < f.bottom);
    }
  });

  it('should leave out empty and degenerate lines', () => {
    const lines = [
      { text: '  ', box: [0, 0, 10, 10] as const, confidence: 1 },
      { text: 'flat', box: [0, 10, 50, 10] as const, confidence: 1 },
      { text: 'kept', box: [0, 20, 50, 40] as const, confidence: 1 },
    ];
    assert.deepEqual(
      ocrPositionedPage({ pageNumber: 1, width: 100, height: 100, lines, toGrid: identity }).fragments.map((f) => f.text),
      ['kept'],
    );
  });
});

describe('layoutOcrPage on bad pages', () => {
  const line = (text: string, x0: number, top: number, x1: number, h = 30) => ({ text, box: [x0, top, x1, top + h] as const, confidence: 0.95 });

  it('should lay out a page of 10,000 lines', () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => line(`Line ${i + 1} of a very long page of text.`, 100, 40 * i, 900));
    const { markdown } = layoutOcrPage({ pageNumber: 1, width: 1000, height: 400_000, lines, toGrid: identity });
    assert.match(markdown, /Line 1 of a very long page/);
    assert.match(markdown, /Line 10000 of a very long page/);
  });

  it('should lay out 200 one-character columns', () => {
    const lines = [];
    for (let row = 0; row < 30; row++)
      for (let col = 0; col < 200; col++) lines.push(line(String.fromCharCode(65 + ((row + col) % 26)), 10 + col * 20, 100 + row * 40, 22));
    const { markdown } = layoutOcrPage({ pageNumber: 1, width: 4020, height: 1400, lines, toGrid: identity });
    assert.ok(markdown.length > 0);
  });

  it('should lay out lines outside the page and a page of rules alone', () => {
    const lines = [line('Inside the page.', 100, 100, 600), line('Far outside.', -5000, -4000, -4500), line('Below the page.', 100, 9000, 600)];
    const rules = {
      horizontal: Array.from({ length: 1000 }, (_, i) => ({ at: 2 * i, from: 0, to: 1000 })),
      vertical: Array.from({ length: 500 }, (_, i) => ({ at: 2 * i, from: 0, to: 2000 })),
    };
    const { markdown } = layoutOcrPage({ pageNumber: 1, width: 1000, height: 2000, lines, rules, toGrid: identity });
    assert.match(markdown, /Inside the page\./);
  });
});
