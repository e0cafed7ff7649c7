import assert from 'node:assert/strict';
import { mergeContinuedTables, parsePage } from '../../../pipeline/markdown/index.ts';
import { runFixture } from './fixture-run.ts';

const table = (rows: string, head = ''): string => `<table>${head}${rows}</table>`;
const parse = (markdown: string, pageNumber: number) => parsePage({ markdown, pageNumber, width: 100, height: 100 });

describe('mergeContinuedTables', () => {
  it('should merge a continuation without header and one repeating the header, recording both pages and boxes', () => {
    const elements = runFixture('table-continued').elements;
    const tables = elements.filter((element) => element.kind === 'table');
    assert.equal(tables.length, 2);
    assert.deepEqual(tables[0]!.pages, [1, 2]);
    assert.deepEqual(
      tables[0]!.table!.cells.map((row) => row[0]),
      ['Sample', 'A1', 'A2', 'A3', 'A4'],
    );
    assert.deepEqual(
      tables[0]!.bboxes?.map((entry) => entry.page),
      [1, 2],
    );
    assert.deepEqual(tables[1]!.pages, [2, 3]);
    assert.deepEqual(
      tables[1]!.table!.cells.map((row) => row[0]),
      ['Sample', 'B1', 'B2'],
      'the repeated header is dropped',
    );
    assert.equal(tables[1]!.table!.rowsText[1], 'Sample: B2; Mass (g): 3; Volume (ml): 4');
    assert.match(tables[1]!.table!.html, /<td>B2<\/td><td>3<\/td><td>4<\/td><\/tr><\/tbody><\/table>$/u);
  });

  it('should not merge tables with other columns, another header, or text between them', () => {
    const head = '<thead><tr><th>A</th><th>B</th></tr></thead>';
    const other = '<thead><tr><th>C</th><th>D</th></tr></thead>';
    const cases: [string, string][] = [
      [table('<tr><td>1</td><td>2</td></tr>', head), table('<tr><td>1</td><td>2</td><td>3</td></tr>')],
      [table('<tr><td>1</td><td>2</td></tr>', head), table('<tr><td>1</td><td>2</td></tr>', other)],
      [table('<tr><td>1</td><td>2</td></tr>', head), `Some text first.\n\n${table('<tr><td>1</td><td>2</td></tr>')}`],
    ];
    for (const [first, second] of cases) {
      const merged = mergeContinuedTables([parse(first, 1), parse(second, 2)]);
      assert.equal(merged.filter((element) => element.kind === 'table').length, 2, second);
    }
  });

  it('should only merge across consecutive pages and recompute heading paths across pages', () => {
    const merged = mergeContinuedTables([parse('# One\n\ntext', 1), parse('more text\n\n## Two\n\nend', 2)]);
    assert.deepEqual(
      merged.map((element) => element.headingPath),
      [[], ['One'], ['One'], ['One'], ['One', 'Two']],
    );
    const skipped = mergeContinuedTables([parse(table('<tr><td>1</td></tr>'), 1), parse(table('<tr><td>2</td></tr>'), 3)]);
    assert.equal(skipped.length, 2);
  });
});

describe('assignHeadingPaths', () => {
  it('should nest headings by level and give a heading its parents only', async () => {
    const { assignHeadingPaths } = await import('../../../pipeline/markdown/index.ts');
    const elements = parse('## A\n\n### B\n\ntext\n\n#### C\n\n### D\n\nmore\n\n# New part', 1);
    // The path carried in counts as level 1, 2, …: a level-1 heading replaces it.
    assert.deepEqual(
      assignHeadingPaths(elements, ['Book']).map((element) => element.headingPath),
      [['Book'], ['Book', 'A'], ['Book', 'A', 'B'], ['Book', 'A', 'B'], ['Book', 'A'], ['Book', 'A', 'D'], []],
    );
  });
});
