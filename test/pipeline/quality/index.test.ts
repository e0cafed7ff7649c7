import assert from 'node:assert/strict';
import * as quality from '../../../pipeline/quality/index.ts';

describe('pipeline/quality', () => {
  it('should expose the public api', () => {
    assert.deepEqual(Object.keys(quality).sort(), ['checkPage', 'collapseRepetition', 'findLoops']);
  });
});
