import assert from 'node:assert/strict';
import fc from 'fast-check';
import { loopTokens } from '../../../pipeline/quality/loop-tokens.ts';

/** The expression the hand-written scanner replaces: its tokens are the specification. */
const SPEC =
  /<\/?[A-Za-z][^<>]{0,60}>|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[^\s<\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|</gu;

const spans = (text: string): [number, number][] => {
  const { starts, ends } = loopTokens(text);
  return starts.map((start, i) => [start, ends[i] as number]);
};
const specSpans = (text: string): [number, number][] => [...text.matchAll(SPEC)].map((m) => [m.index, m.index + m[0].length]);

describe('loopTokens', () => {
  it('should split tags, CJK characters, words and a lone `<`', () => {
    const text = '<td>a b</td> 漢字x < y <a href="u">';
    assert.deepEqual(
      spans(text).map(([s, e]) => text.slice(s, e)),
      ['<td>', 'a', 'b', '</td>', '漢', '字', 'x', '<', 'y', '<a href="u">'],
    );
  });

  it('should give the tokens of the regular expression it replaces', () => {
    const pieces = [
      'a',
      'Z',
      '<',
      '>',
      '/',
      '<td>',
      '</td>',
      ' ',
      '\n',
      '\u00a0',
      '\u3000',
      '\u2009',
      '\ufeff',
      '漢',
      'ひ',
      'カ',
      '한',
      '\u1100',
      '\u3005',
      '𠀀',
      '😀',
      '\ud800',
      'é',
      '1',
      'x'.repeat(59),
      'y'.repeat(61),
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        assert.deepEqual(spans(text), specSpans(text));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => assert.deepEqual(spans(text), specSpans(text))),
      { numRuns: 2000 },
    );
  });
});
