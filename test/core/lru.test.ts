import assert from 'node:assert/strict';
import { Lru } from '../../core/lru.ts';

describe('Lru', () => {
  it('should drop the least recently used entry past the count', () => {
    const lru = new Lru<number>({ maxEntries: 2 });
    lru.set('a', 1);
    lru.set('b', 2);
    assert.equal(lru.get('a'), 1);
    lru.set('c', 3);
    assert.equal(lru.get('b'), undefined, 'b was the least recently used');
    assert.equal(lru.get('a'), 1);
    assert.equal(lru.get('c'), 3);
  });

  it('should drop old entries past the size, but keep one larger than the bound', () => {
    const lru = new Lru<string>({ maxSize: 10 });
    lru.set('a', 'x', 4);
    lru.set('b', 'y', 4);
    lru.set('c', 'z', 4);
    assert.equal(lru.get('a'), undefined);
    assert.equal(lru.size, 2);
    lru.set('big', 'w', 50);
    assert.equal(lru.get('big'), 'w');
    assert.equal(lru.size, 1);
  });
});
