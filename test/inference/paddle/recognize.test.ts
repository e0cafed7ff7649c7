import assert from 'node:assert/strict';
import { ctcGreedy } from '../../../inference/paddle/recognize.ts';

describe('ctcGreedy', () => {
  it('should merge repeats, drop blanks and keep a letter repeated across a blank', () => {
    const dictionary = ['', 'a', 'b', ' '];
    const steps = [1, 1, 0, 1, 2, 2, 0, 3, 2];
    const probs = new Float32Array(steps.length * 4);
    steps.forEach((k, t) => { probs[t * 4 + k] = 0.9; });
    const line = ctcGreedy(probs, 0, steps.length, 4, dictionary);
    assert.equal(line.text, 'aab b');
    assert.ok(Math.abs(line.confidence - 0.9) < 1e-6);
  });
});
