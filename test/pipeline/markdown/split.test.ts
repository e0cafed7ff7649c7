import assert from 'node:assert/strict';
import { splitPages } from '../../../pipeline/markdown/index.ts';

describe('splitPages', () => {
  it('should split at form feeds and drop the terminator pdftotext writes', () => {
    assert.deepEqual(splitPages('one\fpage two\f'), ['one', 'page two']);
    assert.deepEqual(splitPages('one\f\fthree'), ['one', '', 'three']);
    assert.deepEqual(splitPages('single page'), ['single page']);
    assert.deepEqual(splitPages(''), ['']);
  });
});
