import assert from 'node:assert/strict';
import * as chunk from '../../../pipeline/chunk/index.ts';

describe('pipeline/chunk', () => {
  it('should expose the public api', () => {
    assert.deepEqual(Object.keys(chunk).sort(), ['chunkDocument', 'countTokens']);
  });
});
