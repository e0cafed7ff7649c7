import assert from 'node:assert/strict';
import { splitCitations } from '../../../server/web/citations.ts';

describe('splitCitations', () => {
  it('should turn [n] and [n, m] into citations of the passages there are', () => {
    assert.deepEqual(splitCitations('Stop nuts hold [1, 2]. See [3][1].', 3), [
      { text: 'Stop nuts hold ' },
      { cite: 1 },
      { cite: 2 },
      { text: '. See ' },
      { cite: 3 },
      { cite: 1 },
      { text: '.' },
    ]);
  });

  it('should leave numbers that name no passage as text', () => {
    assert.deepEqual(splitCitations('Array a[0] and [7] stay.', 2), [{ text: 'Array a[0] and [7] stay.' }]);
  });
});
