import assert from 'node:assert/strict';
import fc from 'fast-check';
import { collapseRepetition, findLoops } from '../../../pipeline/quality/index.ts';

describe('findLoops', () => {
  it('should find the shortest period of a loop of words, lines and CJK characters', () => {
    assert.equal(findLoops('a b c '.repeat(30)).loops[0]?.period, 3);
    assert.equal(findLoops('line one\n'.repeat(20)).loops[0]?.period, 2);
    const cjk = findLoops(`开始${'的'.repeat(60)}`).loops[0]!;
    assert.equal(cjk.period, 1);
    assert.equal(cjk.degenerate, true);
  });

  it('should not report ordinary prose', () => {
    const prose =
      'We have chosen the PubTabNet data set to perform HPO, since it includes a highly diverse set of tables. Also we report TED scores separately for simple and complex tables.';
    assert.deepEqual(findLoops(prose).loops, []);
  });
});

describe('collapseRepetition', () => {
  it('should keep one copy of a degenerate loop and the text around it', () => {
    const { markdown, collapsed } = collapseRepetition(`Intro.\n${'<td>0</td>'.repeat(200)}\nOutro.`);
    assert.equal(collapsed, 1);
    assert.equal(markdown, 'Intro.\n<td>0</td>\nOutro.');
  });

  it('should find a loop hidden behind a grounding tag on every line', () => {
    const tagged = '<|ref|>text<|/ref|><|det|>[[1, 2, 3, 4]]<|/det|>\nSame again here\n'.repeat(20);
    assert.equal(collapseRepetition(tagged).collapsed, 1);
  });

  it('should leave text without loops untouched (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 40 }), (words) => {
        const text = [...new Set(words)].join(' ');
        assert.equal(collapseRepetition(text).markdown, text);
      }),
    );
  });
});
