import assert from 'node:assert/strict';
import { ConfigurationError } from '../../../core/errors.ts';
import { stableId } from '../../../core/hash.ts';
import type { Element } from '../../../core/types.ts';
import { chunkDocument, countTokens } from '../../../pipeline/chunk/index.ts';
import { mergeContinuedTables, parsePage, renderMarkdown } from '../../../pipeline/markdown/index.ts';
import { expected, fixtureNames, runFixture } from '../markdown/fixture-run.ts';

const base = { docId: 'doc', source: 'file:///doc.md', contentHash: 'hash', engine: 'markdown' } as const;

function elementsOf(...pages: string[]): Element[] {
  return mergeContinuedTables(pages.map((markdown, i) => parsePage({ markdown, pageNumber: i + 1, width: 612, height: 792 })));
}

describe('chunkDocument', () => {
  for (const name of fixtureNames()) {
    it(`should chunk the ${name} fixture as expected`, () => {
      const result = runFixture(name);
      assert.deepEqual(JSON.parse(JSON.stringify(result.chunks)), expected(name, result).chunks);
      for (const chunk of result.chunks) {
        assert.equal(chunk.id, stableId(name, chunk.index));
        assert.ok(chunk.text.trim() !== '', 'no empty chunk');
      }
    });
  }

  it('should start chunk text with the heading path and keep headings in the path', () => {
    const chunks = chunkDocument(
      elementsOf(`# Guide\n\n## Install\n\nRun the installer.\n\n## Use\n\n${Array.from({ length: 60 }, (_v, i) => `Open app ${i} and work.`).join(' ')}`),
      { ...base, maxTokens: 128 },
    );
    assert.ok(
      chunks.every((chunk) => chunk.text.startsWith('Guide')),
      chunks.map((chunk) => chunk.text.slice(0, 30)).join(' / '),
    );
    assert.deepEqual(chunks[chunks.length - 1]!.headingPath, ['Guide', 'Use']);
    assert.ok(
      chunks.every((chunk) => chunk.tokens <= 128),
      chunks.map((chunk) => chunk.tokens).join(','),
    );
  });

  it('should merge a small section into its neighbour and write its heading inline', () => {
    const chunks = chunkDocument(elementsOf('# Guide\n\n## Install\n\nRun it.\n\n## Use\n\nOpen it.'), base);
    assert.equal(chunks.length, 1);
    assert.deepEqual(chunks[0]!.headingPath, ['Guide']);
    assert.equal(chunks[0]!.text, 'Guide\n\nInstall\n\nRun it.\n\nUse\n\nOpen it.');
  });

  it('should keep a fitting table whole and split a big one by rows with the header repeated', () => {
    const chunks = runFixture('table-large').chunks;
    assert.ok(chunks.length > 3);
    for (const chunk of chunks) {
      assert.ok(chunk.tokens <= 200, String(chunk.tokens));
      assert.deepEqual(chunk.table?.header, ['Year', 'Station', 'Level (m)', 'Note']);
      assert.match(chunk.text, /^Gauge readings\n\nYear \| Station \| Level \(m\) \| Note\nYear: \d{4}/u);
      assert.match(chunk.table!.html, /^<table><thead><tr><th>Year<\/th>/u);
    }
    const rows = chunks.flatMap((chunk) => chunk.table!.rowsText);
    assert.equal(rows.length, 40, 'every row once');
    const small = runFixture('table-spans').chunks;
    assert.equal(small.length, 1);
    assert.deepEqual(small[0]!.kinds, ['caption', 'table']);
  });

  it('should never split a formula, even one over the budget', () => {
    const latex = Array.from({ length: 120 }, (_v, i) => `x_{${i}}`).join(' + ');
    const chunks = chunkDocument(elementsOf(`Before.\n\n$$\n${latex}\n$$\n\nAfter.`), { ...base, maxTokens: 64 });
    const holding = chunks.filter((chunk) => chunk.formulas?.some((formula) => formula.latex === latex));
    assert.equal(holding.length, 1);
    assert.ok(holding[0]!.tokens > 64);
  });

  it('should repeat the tail of the previous chunk when overlap is asked for', () => {
    const text = Array.from({ length: 80 }, (_v, i) => `Sentence number ${i} is here.`).join(' ');
    const chunks = chunkDocument(elementsOf(text), { ...base, maxTokens: 64, overlapTokens: 12 });
    assert.ok(chunks.length > 2);
    const previousEnd = chunks[0]!.text.split(' ').slice(-3).join(' ');
    const overlap = chunks[1]!.text.split('\n\n')[0]!;
    assert.ok(overlap.endsWith(previousEnd) && countTokens(overlap) <= 12, `${previousEnd} | ${overlap}`);
    const none = chunkDocument(elementsOf(text), { ...base, maxTokens: 64 });
    assert.ok(!none[1]!.text.includes(previousEnd));
  });

  it('should carry pages, boxes, kinds, quality and the line range in the rendered Markdown', () => {
    const result = runFixture('table-continued');
    const markdown = result.markdown.split('\n');
    const table = result.chunks.find((chunk) => chunk.pages.includes(2) && chunk.kinds.includes('table'))!;
    assert.deepEqual(
      table.bboxes.map((entry) => entry.page),
      [1, 1, 2, 2],
      'intro paragraph, table on both pages, closing paragraph',
    );
    assert.equal(table.quality?.passed, true);
    assert.ok(table.lines);
    const covered = markdown.slice(table.lines.from - 1, table.lines.to);
    assert.equal(covered[0], 'The measurements are listed below.');
    assert.ok(covered.some((line) => line.startsWith('<table>')));
    assert.equal(covered[covered.length - 1], 'All samples were weighed twice.');
    assert.equal(renderMarkdown(result.elements), result.markdown);
    assert.ok(!result.chunks.some((chunk) => chunk.text.includes('Lab report 7')), 'page headers are not indexed');
    const lists = runFixture('nested-lists');
    assert.deepEqual(lists.chunks[0]!.lines, { from: 1, to: 12 }, 'the range starts at the section heading');
    assert.equal(lists.markdown.split('\n')[0], '## Requirements');
  });

  it('should use the given token counter and reject bad options with the option named', () => {
    const chunks = chunkDocument(elementsOf('one two three four five six'), { ...base, maxTokens: 1000, countTokens: (text) => text.split(' ').length * 100 });
    assert.equal(chunks[0]!.tokens, 600);
    for (const [options, name] of [
      [{ maxTokens: 4 }, 'maxTokens'],
      [{ overlapTokens: 400 }, 'overlapTokens'],
      [{ docId: 5 }, 'docId'],
    ] as const) {
      assert.throws(
        () => chunkDocument([], { ...base, ...(options as object) }),
        (error: unknown) => error instanceof ConfigurationError && error.message.includes(`\`${name}\``),
      );
    }
  });
});

describe('countTokens', () => {
  it('should approximate subword tokens: words, long words, digits, CJK and symbols', () => {
    assert.equal(countTokens('Hello, world!'), 4);
    assert.equal(countTokens('internationalization'), 4);
    assert.equal(countTokens('1234567'), 3);
    assert.equal(countTokens('文档解析'), 4);
    assert.equal(countTokens(''), 0);
  });
});
