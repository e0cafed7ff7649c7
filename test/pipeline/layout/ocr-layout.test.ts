/**
 * The layout stage on OCR line boxes (pixels, margins included): the cases the paddle engine's
 * own line layout was tested on, now laid out by the stage every route shares.
 */
import assert from 'node:assert/strict';
import type { FrameBox } from '../../../core/ocr-frame.ts';
import type { OcrPositionedLine } from '../../../core/types.ts';
import { layoutOcrPage, layoutOcrPages } from '../../../pipeline/layout/index.ts';
import { FurnitureModel } from '../../../pipeline/text-layer/furniture.ts';

const frag = (text: string, x1: number, y1: number, x2: number, y2: number): OcrPositionedLine => ({ text, box: [x1, y1, x2, y2], confidence: 0.99 });

function laid(lines: readonly OcrPositionedLine[], gutters: readonly number[] = []) {
  const { blocks, markdown } = layoutOcrPage({ pageNumber: 1, width: 1200, height: 1600, lines, gutters, toGrid: (b) => b });
  return { blocks, markdown, texts: blocks.map((b) => b.lines.map((l) => l.text).join(' ')) };
}

describe('layoutOcrPage: reading order', () => {
  it('should read a full-width title, then the left column, then the right one', () => {
    const lines = [frag('A Title Across the Page', 50, 20, 950, 60)];
    for (let r = 0; r < 6; r++) lines.push(frag(`left column words number ${r} go on here and on`, 50, 100 + r * 30, 470, 125 + r * 30));
    for (let r = 0; r < 6; r++) lines.push(frag(`right column words number ${r} go on here too`, 530, 100 + r * 30, 950, 125 + r * 30));
    const { texts } = laid(lines);
    const all = texts.join(' | ');
    assert.ok(all.indexOf('A Title') < all.indexOf('left column words number 0'), all);
    assert.ok(all.indexOf('left column words number 5') < all.indexOf('right column words number 0'), all);
    assert.ok(
      texts.every((t) => !/left.*right|right.*left/.test(t)),
      all,
    );
  });

  it('should keep two columns apart across a gutter of a third of a line height', () => {
    // Box heights 40 (DB margin included); the gutter between the boxes is 14 px.
    const lines: OcrPositionedLine[] = [];
    for (let r = 0; r < 6; r++) {
      lines.push(frag(`left words ${r} of a sentence going on`, 50, 100 + r * 36, 486, 140 + r * 36));
      lines.push(frag(`right words ${r} of a sentence going on`, 500, 104 + r * 36, 950, 144 + r * 36));
    }
    const { texts } = laid(lines, [493]);
    assert.deepEqual(texts, [
      [0, 1, 2, 3, 4, 5].map((r) => `left words ${r} of a sentence going on`).join(' '),
      [0, 1, 2, 3, 4, 5].map((r) => `right words ${r} of a sentence going on`).join(' '),
    ]);
  });

  it('should read a column to its end before the next where the boxes touch across the gutter', () => {
    const f = (text: string, x1: number, y1: number, x2: number) => frag(text, x1, y1, x2, y1 + 36);
    const lines = [0, 1, 2, 3, 4, 5].flatMap((i) => [
      f(`Left line ${i} of the first column`, 100, 200 + 40 * i, 597),
      f(`Right line ${i} of the next column`, 603, 200 + 40 * i, 1100),
    ]);
    const all = laid(lines, [600]).texts.join(' ');
    assert.ok(all.indexOf('Left line 5') < all.indexOf('Right line 0'), all);
  });
});

describe('layoutOcrPage: tables and gutters', () => {
  const f = (text: string, x1: number, y1: number, x2: number) => frag(text, x1, y1, x2, y1 + 36);
  // Two columns of short lines (a reference list): every row splits into two short fragments.
  const lines = [0, 1, 2, 3, 4].flatMap((i) => [f(`left ${i} ref`, 100, 200 + 40 * i, 420), f(`right ${i} ref`, 620, 200 + 40 * i, 940)]);

  it('should not take two columns of short lines parted by a gutter for a table', () => {
    const { blocks, texts } = laid(lines, [600]);
    assert.ok(
      blocks.every((b) => b.label !== 'table'),
      JSON.stringify(blocks.map((b) => b.label)),
    );
    const all = texts.join(' ');
    assert.ok(all.indexOf('left 4 ref') < all.indexOf('right 0 ref'), all);
  });
});

describe('layoutOcrPage: blocks', () => {
  it('should stack lines into a paragraph and mark a large line as a heading', () => {
    const { blocks, texts } = laid([
      frag('A Big Title', 100, 40, 600, 100),
      frag('first line of the body text that', 100, 150, 700, 180),
      frag('wraps onto a second line', 100, 185, 500, 215),
      frag('and a third line of the same', 100, 220, 650, 250),
    ]);
    assert.ok(blocks[0]?.label === 'title' || blocks[0]?.label === 'sub_title', JSON.stringify(blocks.map((b) => b.label)));
    assert.equal(blocks[1]?.label, 'text');
    assert.equal(texts[1], 'first line of the body text that wraps onto a second line and a third line of the same');
  });

  it('should turn rows of aligned short cells into a table, its first row the header', () => {
    const rows = [
      ['Name', 'Qty', 'Price'],
      ['Apple', '3', '1.20'],
      ['Pear', '10', '0.80'],
      ['Plum', '7', '2.10'],
    ];
    const lines = rows.flatMap((cells, r) => cells.map((c, k) => frag(c, 100 + k * 250, 100 + r * 40, 100 + k * 250 + 80, 125 + r * 40)));
    const { blocks, markdown } = laid(lines);
    assert.equal(blocks.length, 1, markdown);
    assert.equal(blocks[0]?.label, 'table');
    assert.deepEqual(blocks[0]?.cells, rows);
    assert.match(markdown, /<th>Name<\/th><th>Qty<\/th><th>Price<\/th>/);
  });

  it('should not take two columns of running text for a table', () => {
    const lines: OcrPositionedLine[] = [];
    for (let r = 0; r < 6; r++) {
      lines.push(frag(`left column words number ${r} go on here`, 50, 100 + r * 30, 470, 125 + r * 30));
      lines.push(frag(`right column words number ${r} go on too`, 530, 100 + r * 30, 950, 125 + r * 30));
    }
    const { blocks } = laid(lines);
    assert.ok(
      blocks.every((b) => b.label === 'text'),
      JSON.stringify(blocks.map((b) => b.label)),
    );
  });

  it('should join the pieces of a line DB broke at a wide space', () => {
    const { texts } = laid([frag('the first half', 50, 100, 400, 140), frag('and the rest', 395, 101, 700, 141)]);
    assert.deepEqual(texts, ['the first half and the rest']);
  });

  it('should never take the header row of a table at the top of the page for a running head', () => {
    const rows = [
      ['Region', 'Revenue', 'Margin'],
      ['North', '1204', '12.5%'],
      ['South', '987', '9.1%'],
      ['East', '1530', '14.2%'],
    ];
    const lines = rows.flatMap((cells, r) =>
      cells.map((c, k) => frag(c, 100 + k * 300, 20 + r * 40 + (r === 0 ? 0 : 60), 100 + k * 300 + 120, 45 + r * 40 + (r === 0 ? 0 : 60))),
    );
    for (let r = 0; r < 20; r++) lines.push(frag(`Body text line ${r} under the table, long enough to be prose.`, 100, 400 + r * 40, 1000, 430 + r * 40));
    const { markdown } = laid(lines);
    // Set apart by a gap of a line and a half, it stays body text above its table.
    assert.doesNotMatch(markdown, /page_header/, markdown);
    assert.match(markdown, /Region Revenue Margin[\s\S]*<table>/, markdown);
  });

  it("should keep a form's title a size bigger than the body at the top, and take a small footer out", () => {
    const lines = [frag('Invoice', 100, 40, 400, 76)];
    for (let r = 0; r < 20; r++) lines.push(frag(`Body text line ${r} of the form, long enough to read as prose.`, 100, 200 + r * 40, 1000, 230 + r * 40));
    lines.push(frag('Acme Ltd, 1 Main Street, registered in Nowhere', 100, 1540, 700, 1563));
    const { blocks } = laid(lines);
    assert.notEqual(blocks[0]?.label, 'page_header', JSON.stringify(blocks[0]));
    assert.equal(blocks[0]?.lines[0]?.text, 'Invoice');
    assert.equal(blocks.at(-1)?.label, 'page_footer', JSON.stringify(blocks.at(-1)));
  });
});

describe("layoutOcrPage: furniture across a document's pages", () => {
  /** A page whose running head sits a little over half a line above the body, at body size. */
  const page = (n: number, head: string, first = `Body text line 0 of page ${n}, long enough to read as prose.`) => {
    const lines = [frag(head, 100, 60, 900, 90), frag(first, 100, 108, 1000, 138)];
    for (let r = 1; r < 20; r++) lines.push(frag(`Body text line ${r} of page ${n}, long enough to read as prose.`, 100, 108 + r * 40, 1000, 138 + r * 40));
    return lines;
  };
  const layOut = (n: number, lines: readonly OcrPositionedLine[], furniture?: FurnitureModel) => {
    const input = { pageNumber: n, width: 1200, height: 1600, lines, toGrid: (b: FrameBox) => b };
    return furniture === undefined ? layoutOcrPage(input) : layoutOcrPages([input], furniture)[0]!;
  };

  it('should take a running head out once an earlier page had it, and judge each row as on its own page', () => {
    const furniture = new FurnitureModel('ocr');
    const judged: number[] = [];
    FurnitureModel.trace = (t) => judged.push(t.page);
    try {
      const first = layOut(1, page(1, 'Acme Corp | Quarterly Review'), furniture);
      // Alone, the head reads as the page's first line: nothing says otherwise yet.
      assert.doesNotMatch(first.markdown, /page_header/, first.markdown);
      for (const n of [2, 3]) {
        const later = layOut(n, page(n, 'Acme Corp | Quarterly Review'), furniture);
        assert.match(later.markdown, /<\|ref\|>page_header<\|\/ref\|>.*\nAcme Corp \| Quarterly Review/, later.markdown);
        assert.doesNotMatch(later.markdown, /page_header[^\n]*\nBody text/, later.markdown);
      }
      // Each page's rows were judged on their own page (an adjusted copy of a row keeps its page).
      assert.deepEqual([...new Set(judged)], [1, 2, 3]);
    } finally {
      FurnitureModel.trace = undefined;
    }
    // A page judged alone keeps the same head: the earlier pages are what took it out.
    assert.doesNotMatch(layOut(2, page(2, 'Acme Corp | Quarterly Review')).markdown, /page_header/);
  });

  it("should take the first page's head out once the pages after it were shown first, matching heads OCR read apart", () => {
    const furniture = new FurnitureModel('ocr');
    // The same running head as OCR reads it on three pages: a dash doubled, a space lost.
    const heads = ['Acme Corp — Quarterly Review', 'Acme Corp —- Quarterly Review', 'Acme Corp —Quarterly Review'];
    const pages = heads.map((head, i) => ({ pageNumber: i + 1, width: 1200, height: 1600, lines: page(i + 1, head), toGrid: (b: FrameBox) => b }));
    // One batch: every page's margin rows are shown to the judge before the first is laid out.
    layoutOcrPages(pages, furniture).forEach((laid, i) => assert.match(laid.markdown, /page_header[^\n]*\nAcme Corp/, `page ${i + 1}`));
  });

  it('should keep a top line that no other page has, however many pages came before', () => {
    const furniture = new FurnitureModel('ocr');
    for (const n of [1, 2, 3]) layOut(n, page(n, 'Acme Corp | Quarterly Review'), furniture);
    const { markdown } = layOut(4, page(4, 'A section opening the fourth page only'), furniture);
    assert.doesNotMatch(markdown, /page_header/, markdown);
  });
});
