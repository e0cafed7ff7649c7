import assert from 'node:assert/strict';
import { isRtlDominant, normalizeArabic, visualOrder, visualToLogical } from '../../../pipeline/layout/bidi.ts';

const visual = (logical: string): string => [...logical].reverse().join('');

describe('text layer: right-to-left text', () => {
  it('turns a visual Arabic line with Latin words into reading order', () => {
    // As drawn, left to right: "Python", "و", "R", then the Arabic words letter-reversed.
    assert.equal(visualToLogical(`Python و R ${visual('بلغة')} ${visual('البرمجة')}`), 'البرمجة بلغة R و Python');
  });

  it('keeps numbers left to right inside Hebrew', () => {
    assert.equal(visualToLogical(`${visual('בשעה')} 10:00 ${visual('תתקיים')}`), 'תתקיים 10:00 בשעה');
  });

  it('leaves left-to-right text alone, and a mostly English line keeps its direction', () => {
    assert.equal(visualToLogical('plain text (1)'), 'plain text (1)');
    assert.equal(visualToLogical(`the word ${visual('מילה')} means word`), 'the word מילה means word');
    assert.ok(!isRtlDominant('the word מילה means word'));
  });

  it('normalises Arabic presentation forms and nothing else', () => {
    assert.equal(normalizeArabic('\ufefb \ufe91\ufea0 ﬁ'), 'لا بج ﬁ');
  });

  it('puts a lam-alef ligature listed lam first (one box) alef first in visual order, so it reads lam-alef', () => {
    const units = Uint16Array.of(0x0645, 0x0644, 0x0627, 0x0643);
    // Logical order as drawn right to left: meem at 30, the ligature at 20 (both characters), kaf at 10.
    const v = visualOrder(units, Float64Array.of(30, 20, 20, 10));
    assert.equal(visualToLogical(v), 'ملاك');
    // The same ligature listed alef first, as Word and cairo write its text, reads the same.
    assert.equal(visualToLogical(visualOrder(Uint16Array.of(0x0645, 0x0627, 0x0644, 0x0643), Float64Array.of(30, 20, 20, 10))), 'ملاك');
  });

  it('keeps combining marks with their letter', () => {
    const v = visualOrder(Uint16Array.of(0x0628, 0x064e, 0x062a), Float64Array.of(20, 21, 10));
    assert.equal(visualToLogical(v), 'بَت');
  });
});
