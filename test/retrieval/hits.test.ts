import assert from 'node:assert/strict';
import { toSearchHit } from '../../retrieval/hits.ts';

describe('toSearchHit', () => {
  it('should carry a sheet chunk’s cell ranges and an attachment’s parent into the hit', () => {
    const hit = toSearchHit({
      _id: 'c1',
      _score: 2,
      _source: {
        text: 'Budget',
        doc_id: 'child',
        parent_id: 'mail',
        locations: [{ sheet: 'Budget', range: 'A3:C5' }, { slide: 4 }, { nonsense: true }],
      },
    });
    assert.equal(hit.parentId, 'mail');
    assert.deepEqual(hit.locations, [{ sheet: 'Budget', range: 'A3:C5' }, { slide: 4 }]);
  });

  it('should leave both out of a hit whose chunk has neither', () => {
    const hit = toSearchHit({ _id: 'c2', _score: 1, _source: { text: 'x', doc_id: 'd' } });
    assert.equal(hit.parentId, undefined);
    assert.equal(hit.locations, undefined);
  });
});
