import assert from 'node:assert/strict';
import type { Fragment } from '../../../inference/paddle/index.ts';
import { layoutPage, readingOrder } from '../../../inference/paddle/index.ts';

function frag(text: string, x1: number, y1: number, x2: number, y2: number): Fragment {
  return { text, x1, y1, x2, y2, confidence: 0.99 };
}

describe('readingOrder', () => {
  it('should read a full-width title, then the left column, then the right one', () => {
    const blocks = [
      { id: 'title', x1: 50, y1: 20, x2: 950, y2: 60 },
      { id: 'L1', x1: 50, y1: 100, x2: 480, y2: 300 },
      { id: 'R1', x1: 520, y1: 100, x2: 950, y2: 250 },
      { id: 'L2', x1: 50, y1: 320, x2: 480, y2: 600 },
      { id: 'R2', x1: 520, y1: 270, x2: 950, y2: 600 },
      { id: 'footer', x1: 50, y1: 650, x2: 950, y2: 680 },
    ];
    assert.deepEqual(
      readingOrder(blocks, 20).map((b) => b.id),
      ['title', 'L1', 'L2', 'R1', 'R2', 'footer'],
    );
  });

  it('should keep a single column top to bottom', () => {
    const blocks = [
      { id: 'b', x1: 0, y1: 200, x2: 500, y2: 300 },
      { id: 'a', x1: 0, y1: 0, x2: 500, y2: 100 },
    ];
    assert.deepEqual(
      readingOrder(blocks, 20).map((b) => b.id),
      ['a', 'b'],
    );
  });
});

describe('layoutPage', () => {
  it('should stack lines into a paragraph and mark a large line as the title', () => {
    const blocks = layoutPage([
      frag('A Big Title', 100, 40, 600, 100),
      frag('first line of the body text that', 100, 150, 700, 180),
      frag('wraps onto a second line', 100, 185, 500, 215),
    ]);
    assert.deepEqual(
      blocks.map((b) => b.label),
      ['title', 'text'],
    );
    assert.deepEqual(blocks[1]?.lines, ['first line of the body text that', 'wraps onto a second line']);
  });

  it('should turn rows of aligned short cells into a table', () => {
    const rows = [
      ['Name', 'Qty', 'Price'],
      ['Apple', '3', '1.20'],
      ['Pear', '10', '0.80'],
      ['Plum', '7', '2.10'],
    ];
    const fragments = rows.flatMap((cells, r) => cells.map((c, k) => frag(c, 100 + k * 250, 100 + r * 40, 100 + k * 250 + 80, 125 + r * 40)));
    const blocks = layoutPage(fragments);
    assert.equal(blocks.length, 1);
    assert.equal(blocks[0]?.label, 'table');
    assert.deepEqual(blocks[0]?.rows, rows);
  });

  it('should not take two columns of running text for a table', () => {
    const fragments: Fragment[] = [];
    for (let r = 0; r < 6; r++) {
      fragments.push(frag(`left column words number ${r} go on here`, 50, 100 + r * 30, 470, 125 + r * 30));
      fragments.push(frag(`right column words number ${r} go on too`, 530, 100 + r * 30, 950, 125 + r * 30));
    }
    const blocks = layoutPage(fragments);
    assert.ok(blocks.every((b) => b.label === 'text'));
    assert.equal(blocks.length, 2);
    assert.match(blocks[0]?.lines[0] ?? '', /^left/);
  });

  it('should keep two columns apart across a gutter of a third of a line height', () => {
    // Box heights 40 (DB margin included); the gutter between the boxes is 14 px.
    const fragments: Fragment[] = [];
    for (let r = 0; r < 4; r++) {
      fragments.push(frag(`left ${r}`, 50, 100 + r * 36, 486, 140 + r * 36));
      fragments.push(frag(`right ${r}`, 500, 104 + r * 36, 950, 144 + r * 36));
    }
    const blocks = layoutPage(fragments);
    assert.deepEqual(
      blocks.map((b) => b.lines.join(' ')),
      ['left 0 left 1 left 2 left 3', 'right 0 right 1 right 2 right 3'],
    );
  });

  it('should join the pieces of a line DB broke at a wide space', () => {
    const blocks = layoutPage([frag('the first half', 50, 100, 400, 140), frag('and the rest', 395, 101, 700, 141)]);
    assert.deepEqual(
      blocks.map((b) => b.lines),
      [['the first half and the rest']],
    );
  });
});
