import assert from 'node:assert/strict';
import * as markdown from '../../../pipeline/markdown/index.ts';

describe('pipeline/markdown', () => {
  it('should expose the public api', () => {
    assert.deepEqual(Object.keys(markdown).sort(), [
      'assignHeadingPaths',
      'latexToText',
      'makeFormula',
      'mergeContinuedTables',
      'parsePage',
      'renderMarkdown',
      'renderWithLines',
      'splitPages',
      'stripGrounding',
      'tableText',
    ]);
  });
});
