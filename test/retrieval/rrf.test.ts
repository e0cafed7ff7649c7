import assert from 'node:assert/strict';
import fc from 'fast-check';
import { reciprocalRankFusion } from '../../retrieval/index.ts';

const items = (...ids: string[]) => ids.map((id) => ({ id }));

describe('reciprocalRankFusion', () => {
  it('should score by the sum of 1/(k + rank) over the lists', () => {
    const fused = reciprocalRankFusion([items('a', 'b', 'c'), items('c', 'a')], { k: 60 });
    assert.deepEqual(
      fused.map((f) => f.id),
      ['a', 'c', 'b'],
    );
    assert.equal(fused[0]!.score, 1 / 61 + 1 / 62);
    assert.deepEqual(fused[1]!.ranks, [3, 1]);
    assert.deepEqual(fused[2]!.ranks, [2, undefined]);
  });

  it('should prefer an item found by both lists over one ranked first by one', () => {
    const fused = reciprocalRankFusion([items('x', 'both'), items('y', 'both')]);
    assert.equal(fused[0]!.id, 'both');
  });

  it('should apply weights per list', () => {
    const fused = reciprocalRankFusion([items('a'), items('b')], { weights: [1, 2] });
    assert.equal(fused[0]!.id, 'b');
  });

  it('should count a duplicate inside one list once, at its best rank', () => {
    const fused = reciprocalRankFusion([items('a', 'a', 'b')], { k: 0 });
    assert.equal(fused[0]!.score, 1);
    assert.equal(fused[1]!.score, 1 / 3);
  });

  it('should keep every input item exactly once, sorted by score', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 6 }), { maxLength: 4 }), (lists) => {
        const fused = reciprocalRankFusion(lists.map((l) => items(...l)));
        assert.deepEqual(new Set(fused.map((f) => f.id)), new Set(lists.flat()));
        assert.equal(fused.length, new Set(lists.flat()).size);
        for (let i = 1; i < fused.length; i++) assert.ok(fused[i - 1]!.score >= fused[i]!.score);
      }),
    );
  });

  it('should name the option when it is wrong', () => {
    assert.throws(() => reciprocalRankFusion([], { k: -1 }), /`k`.*-1/);
    assert.throws(() => reciprocalRankFusion([items('a')], { weights: [1, 2] }), /`weights`/);
  });
});
