import assert from 'node:assert/strict';
import { ConfigurationError } from '../../../core/errors.ts';
import { parsePage, renderMarkdown, renderWithLines } from '../../../pipeline/markdown/index.ts';

const parse = (markdown: string) => parsePage({ markdown, pageNumber: 1, width: 100, height: 100 });

describe('renderMarkdown', () => {
  it('should write clean Markdown: no tags, formulas in dollars, tables as HTML', () => {
    const elements = parse('<|ref|>text<|/ref|><|det|>[[1,2,3,4]]<|/det|>\nSee \\(x^2\\) and\n\\[\ny = 1\n\\]\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    assert.equal(
      renderMarkdown(elements),
      'See $x^2$ and\n\n$$\ny = 1\n$$\n\n<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>',
    );
    assert.equal(renderMarkdown(elements, { tables: 'markdown' }).split('\n\n')[2], '| a | b |\n| --- | --- |\n| 1 | 2 |');
  });

  it('should reject an unknown table mode', () => {
    assert.throws(() => renderMarkdown([], { tables: 'csv' as never }), ConfigurationError);
  });
});

describe('renderWithLines', () => {
  it('should report the 1-based line range of every rendered element', () => {
    const elements = parse('# Title\n\nline one\nline two\n\n- a\n- b');
    const { markdown, lines } = renderWithLines(elements);
    const all = markdown.split('\n');
    assert.deepEqual(lines, [
      { from: 1, to: 1 },
      { from: 3, to: 4 },
      { from: 6, to: 7 },
    ]);
    assert.equal(all[lines[2]!.from - 1], '- a');
  });
});
