import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LcsMatcher, nearMatchStarts, partialRatio, ratio } from '../../bench/olmocr/fuzzy.ts';

/** Textbook O(n·m) LCS, the reference for the bit-parallel one. */
function naiveLcs(a: readonly string[], b: readonly string[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
    }
  }
  return dp[a.length]![b.length]!;
}

/**
 * partial_ratio by brute force over the windows rapidfuzz scores: prefixes ending in a needle
 * character, full windows ending in one, suffixes (and the last full window) starting with one.
 */
function naivePartial(a: string, b: string): number {
  const [s, l] = a.length <= b.length ? [[...a], [...b]] : [[...b], [...a]];
  if (s.length === 0) return l.length === 0 ? 1 : 0;
  const set = new Set(s);
  const windows: [number, number][] = [];
  for (let end = 1; end < s.length; end++) if (set.has(l[end - 1]!)) windows.push([0, end]);
  for (let start = 0; start < l.length - s.length; start++) if (set.has(l[start + s.length - 1]!)) windows.push([start, start + s.length]);
  for (let start = l.length - s.length; start < l.length; start++) if (set.has(l[start]!)) windows.push([start, l.length]);
  let best = 0;
  for (const [from, to] of windows) best = Math.max(best, (2 * naiveLcs(s, l.slice(from, to))) / (s.length + to - from));
  return best;
}

describe('LcsMatcher', () => {
  it('should agree with the textbook LCS, also past 32 and 64 characters', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 90 }),
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 90 }),
        (a, b) => {
          assert.equal(new LcsMatcher([...a]).lcs([...b]), naiveLcs([...a], [...b]));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('ratio', () => {
  it('should be 2·LCS / total length', () => {
    assert.equal(ratio('abcd', 'abce'), 0.75);
    assert.equal(ratio('', ''), 1);
    assert.equal(ratio('abc', ''), 0);
  });
});

describe('partialRatio', () => {
  it('should be 1 for an exact substring and below 1 for one edit', () => {
    assert.equal(partialRatio('hello', 'say hello world'), 1);
    assert.ok(partialRatio('hellp', 'say hello world') < 1);
  });

  it('should score a window that ends in a needle character', () => {
    // "ca" shares one character with "aa": 2·1 / 4.
    assert.equal(partialRatio('aa', 'cac'), 0.5);
  });

  it('should equal the brute-force best window', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' '), maxLength: 12 }),
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' '), maxLength: 40 }),
        (a, b) => {
          assert.ok(Math.abs(partialRatio(a, b) - naivePartial(a, b)) < 1e-12, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('nearMatchStarts', () => {
  it('should find exact starts with no edits allowed', () => {
    assert.deepEqual(nearMatchStarts('ab', 'xabyab', 0), [1, 4]);
  });

  it('should find a start within the allowed edits and none beyond', () => {
    assert.ok(nearMatchStarts('abcdef', 'zzabXdefzz', 1).includes(2));
    assert.deepEqual(nearMatchStarts('abcdef', 'zzaXXXefzz', 1), []);
  });
});
