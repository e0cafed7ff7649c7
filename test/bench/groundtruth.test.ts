import assert from 'node:assert/strict';
import { compareDocument } from '../../bench/groundtruth/compare.ts';
import { levenshtein, normalizedEditDistance } from '../../bench/groundtruth/edit-distance.ts';
import { digestMarkdown, htmlTables } from '../../bench/groundtruth/markdown.ts';
import { readingOrder } from '../../bench/groundtruth/order.ts';
import { teds } from '../../bench/groundtruth/teds.ts';

const cell = (text: string, rowspan = 1, colspan = 1) => ({ text, rowspan, colspan, header: false });

describe('levenshtein', () => {
  it('should count edits', () => {
    assert.equal(levenshtein('kitten', 'sitting'), 3);
    assert.equal(levenshtein('', 'abc'), 3);
    assert.equal(normalizedEditDistance('abc', 'abc'), 0);
    assert.equal(normalizedEditDistance('abcd', 'abxd'), 0.25);
  });
});

describe('teds', () => {
  const table = [
    [cell('a'), cell('b')],
    [cell('1'), cell('2')],
  ];
  it('should be 1 for identical tables and lower for changed text or structure', () => {
    assert.equal(teds(table, table), 1);
    const text = teds(table, [
      [cell('a'), cell('b')],
      [cell('1'), cell('3')],
    ]);
    // One of 7 nodes renamed at cost 1 (one character of one differs).
    assert.ok(Math.abs(text - (1 - 1 / 7)) < 1e-12, String(text));
    assert.equal(
      teds(
        table,
        [
          [cell('a'), cell('b')],
          [cell('1'), cell('3')],
        ],
        { structureOnly: true },
      ),
      1,
    );
  });
  it('should charge a span change and a missing row', () => {
    const merged = [[cell('a', 1, 2)], [cell('1'), cell('2')]];
    assert.ok(teds(table, merged, { structureOnly: true }) < 1);
    assert.ok(Math.abs(teds(table, [[cell('a'), cell('b')]]) - (1 - 3 / 7)) < 1e-12);
  });
});

describe('htmlTables', () => {
  it('should keep spans and header cells', () => {
    const [t] = htmlTables('<table><tr><th colspan="2">h</th></tr><tr><td>1</td><td>2</td></tr></table>');
    assert.deepEqual(t?.[0], [{ text: 'h', rowspan: 1, colspan: 2, header: true }]);
    assert.equal(t?.[1]?.length, 2);
  });
});

describe('digestMarkdown', () => {
  it('should collect headings, blocks, pipe and HTML tables, and drop grounding tags', () => {
    const d = digestMarkdown(
      '<|ref|>title<|/ref|><|det|>[[1,2,3,4]]<|/det|>\n# Title\n\nSome text.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<table><tr><td>x</td></tr></table>\n',
    );
    assert.deepEqual(d.headings, ['Title']);
    assert.equal(d.tables.length, 2);
    assert.ok(!d.text.includes('det'));
    assert.ok(d.text.includes('Some text.'));
  });
});

describe('readingOrder', () => {
  const blocks = [
    'The first block of text that is long enough.',
    'The second block of text that is long enough.',
    'The third block of text that is long enough too.',
  ];
  it('should be 1 in order and 0 fully reversed', () => {
    assert.equal(readingOrder(blocks, blocks.join(' ')).agreement, 1);
    assert.equal(readingOrder(blocks, blocks.toReversed().join(' ')).agreement, 0);
  });
  it('should match the k-th copy of a repeated block with the k-th occurrence', () => {
    const same = 'Lorem ipsum dolor sit amet, consetetur sadipscing elitr, sed diam.';
    const r = readingOrder(
      [same, 'A different paragraph that sits between the copies.', same],
      `${same} A different paragraph that sits between the copies. ${same}`,
    );
    assert.equal(r.found, 3);
    assert.equal(r.agreement, 1);
  });
});

describe('compareDocument', () => {
  it('should report heading recall, TEDS and edit distance', () => {
    const reference = '# Intro\n\nSome body text for the comparison.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';
    const same = compareDocument({ reference, candidate: reference });
    assert.equal(same.editDistance, 0);
    assert.equal(same.headingRecall, 1);
    assert.equal(same.teds, 1);
    const flat = compareDocument({ reference, candidate: 'Intro Some body text for the comparison. a b 1 2' });
    assert.equal(flat.headingRecall, 0);
    assert.equal(flat.teds, 0);
  });
});

describe('compareDocument table pairing', () => {
  it('should pair a reference table with its best match, past a spurious extra table', () => {
    const reference = '| a | b |\n|---|---|\n| 1 | 2 |\n';
    const candidate = '| x |\n|---|\n| y |\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';
    assert.equal(compareDocument({ reference, candidate }).teds, 1);
  });
});
