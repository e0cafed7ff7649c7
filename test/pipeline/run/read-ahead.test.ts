import assert from 'node:assert/strict';
import { readAhead } from '../../../pipeline/run/read-ahead.ts';

describe('readAhead', () => {
  it('should keep `count` items requested while the consumer works, in order', async () => {
    let pulled = 0;
    async function* source(): AsyncGenerator<number> {
      for (let i = 0; i < 5; i++) {
        pulled++;
        yield i;
      }
    }
    const seen: number[] = [];
    for await (const n of readAhead(source(), 1)) {
      // Let the request in flight finish before looking.
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(n);
      assert.equal(pulled, Math.min(n + 2, 5), `while item ${n} is worked on, item ${n + 1} is already read`);
    }
    assert.deepEqual(seen, [0, 1, 2, 3, 4]);
  });

  it('should pass errors on where they happened and end the source when the consumer stops', async () => {
    let ended = false;
    async function* failing(): AsyncGenerator<number> {
      yield 1;
      throw new Error('disk gone');
    }
    const got: number[] = [];
    await assert.rejects(async () => {
      for await (const n of readAhead(failing(), 2)) got.push(n);
    }, /disk gone/);
    assert.deepEqual(got, [1]);

    async function* endless(): AsyncGenerator<number> {
      try {
        for (let i = 0; ; i++) yield i;
      } finally {
        ended = true;
      }
    }
    for await (const n of readAhead(endless(), 1)) if (n === 2) break;
    assert.equal(ended, true);
  });

  it('should read nothing ahead with a count of 0 and reject a bad count', async () => {
    let pulled = 0;
    async function* source(): AsyncGenerator<number> {
      for (let i = 0; i < 3; i++) {
        pulled++;
        yield i;
      }
    }
    for await (const n of readAhead(source(), 0)) {
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(pulled, n + 1);
    }
    await assert.rejects(readAhead(source(), -1).next(), /Expected `count` to be an integer from 0 and up, got `-1` \(number\)/);
  });
});
