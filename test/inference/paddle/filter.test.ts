import assert from 'node:assert/strict';
import { cleanLatinPage } from '../../../inference/paddle/filter.ts';
import type { Fragment } from '../../../inference/paddle/index.ts';

const frag = (text: string): Fragment => ({ text, x1: 0, y1: 0, x2: 10, y2: 10, confidence: 0.9 });

describe('cleanLatinPage', () => {
  it('should drop Han noise and fold full-width punctuation on a Latin page', () => {
    const out = cleanLatinPage([frag('Results are shown in Table 1（left）：good。'), frag('口'), frag('a 一 b')]);
    assert.deepEqual(
      out.map((f) => f.text),
      ['Results are shown in Table 1(left):good.', 'a b'],
    );
  });

  it('should leave a Chinese page alone', () => {
    const page = [frag('文档转换为结构化数据'), frag('表格，公式。')];
    assert.deepEqual(cleanLatinPage(page), page);
  });
});
