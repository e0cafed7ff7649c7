import assert from 'node:assert/strict';
import type { CtcChar } from '../../../inference/paddle/ctc.ts';
import { paperColumns, STEP_COLUMNS, spaceThreshold, withSpaces } from '../../../inference/paddle/spaces.ts';

const dictionary = ['', 'a', 'b', 'c', '1', '2', '中', '文', ' '];
const SPACE = 8;

/** Characters at the given steps, and paper everywhere except a few columns at each character. */
function line(ids: readonly number[], steps: readonly number[], width: number): { chars: CtcChar[]; paper: Uint8Array } {
  const chars = ids.map((id, i) => ({ id, step: steps[i]!, p: 0.9 }));
  const paper = new Uint8Array(width).fill(1);
  for (const c of chars) {
    if (c.id === SPACE) continue;
    const centre = c.step * STEP_COLUMNS + STEP_COLUMNS / 2;
    for (let x = centre - 3; x <= centre + 3; x++) paper[x] = 0;
  }
  return { chars, paper };
}

describe('withSpaces', () => {
  it('should put back a word space the model skipped where the line image has one', () => {
    // "ab" then a wide gap then "c": letters 2 steps apart, the gap 5 steps.
    const { chars, paper } = line([1, 2, 3], [1, 3, 8], 80);
    assert.equal(withSpaces(chars, dictionary, paper), 'ab c');
  });

  it('should keep letters together when the gaps are letter gaps', () => {
    const { chars, paper } = line([1, 2, 3], [1, 3, 5], 60);
    assert.equal(withSpaces(chars, dictionary, paper), 'abc');
  });

  it('should scale the threshold to the spaces the model did emit on the line', () => {
    // Emitted spaces 4 steps wide, letters 2 apart: a skipped 4-step gap is a space.
    const narrow = line([1, SPACE, 2, SPACE, 3, 1, 2, 3, 1], [1, 3, 5, 7, 9, 11, 15, 17, 19], 170);
    assert.equal(withSpaces(narrow.chars, dictionary, narrow.paper), 'a b ca bca');
    // Emitted spaces 6 steps wide: the same 4-step gap is now only a wide letter gap.
    const wide = line([1, SPACE, 2, SPACE, 3, 1, 2, 3, 1], [1, 4, 7, 10, 13, 15, 19, 21, 23], 200);
    assert.equal(withSpaces(wide.chars, dictionary, wide.paper), 'a b cabca');
  });

  it('should not split figures or Han characters however wide the gap', () => {
    const digits = line([4, 5, 1, 2], [1, 8, 10, 12], 110);
    assert.equal(withSpaces(digits.chars, dictionary, digits.paper), '12ab');
    const han = line([6, 7, 1, 2], [1, 8, 10, 12], 110);
    assert.equal(withSpaces(han.chars, dictionary, han.paper), '中文ab');
  });

  it('should return the plain reading without a paper profile', () => {
    const { chars } = line([1, 2, 3], [1, 3, 8], 80);
    assert.equal(withSpaces(chars, dictionary, undefined), 'abc');
  });
});

describe('spaceThreshold', () => {
  it('should sit between letter gaps and emitted spaces, and fall back to a share of the height', () => {
    assert.equal(spaceThreshold([12, 12, 12], [2, 2, 2], 48), 2 + 0.65 * 10);
    assert.equal(spaceThreshold([], [2, 2], 48), 0.18 * 48);
    assert.equal(spaceThreshold([], [4, 40], 48), 12);
  });
});

describe('paperColumns', () => {
  it('should mark ink-free columns and refuse a crop without contrast', () => {
    const height = 16;
    const stride = 10;
    const data = new Float32Array(3 * height * stride).fill(1);
    for (let c = 0; c < 3; c++) for (let y = 4; y < 12; y++) data[c * height * stride + y * stride + 3] = -1;
    assert.deepEqual([...paperColumns(data, 0, stride, height, 6)!], [1, 1, 1, 0, 1, 1]);
    assert.equal(paperColumns(new Float32Array(3 * height * stride).fill(1), 0, stride, height, 6), undefined);
  });
});
