import assert from 'node:assert/strict';
import { queryTerms, snippet } from '../../../server/routes/index.ts';

describe('queryTerms', () => {
  it('should lowercase words and leave out Lucene operators and field names', () => {
    assert.deepEqual([...queryTerms('kind:table AND "Stop nut" OR NOT rivets')], ['table', 'stop', 'nut', 'rivets']);
    assert.deepEqual([...queryTerms('and or')], ['and', 'or'], 'lowercase "and" is a word, not an operator');
  });
});

describe('snippet', () => {
  it('should mark whole words that match, case-insensitively', () => {
    assert.deepEqual(snippet('Stop nuts stay tight.\nA NUT holds.', 'tight nut'), [
      { text: 'Stop nuts stay ' },
      { text: 'tight', hit: true },
      { text: '. A ' },
      { text: 'NUT', hit: true },
      { text: ' holds.' },
    ]);
  });

  it('should cut a long text around the first match, at word boundaries, with ellipses', () => {
    const text = `${'filler words here '.repeat(40)}the elastic stop nut keeps its grip ${'more filler text '.repeat(40)}`;
    const parts = snippet(text, 'elastic', { maxChars: 120 });
    assert.equal(parts[0]!.text, '… ');
    assert.equal(parts.at(-1)!.text, ' …');
    assert.deepEqual(
      parts.filter((p) => p.hit).map((p) => p.text),
      ['elastic'],
    );
    const body = parts
      .slice(1, -1)
      .map((p) => p.text)
      .join('');
    assert.ok(body.length <= 120, `${body.length} characters`);
    assert.ok(!body.startsWith(' ') && !body.endsWith(' '), `cut at word boundaries: «${body}»`);
  });

  it('should return the text unmarked when nothing matches', () => {
    assert.deepEqual(snippet('Nothing to see.', 'rivet'), [{ text: 'Nothing to see.' }]);
  });
});
