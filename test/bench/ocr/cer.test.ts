import assert from 'node:assert/strict';
import { characterErrorRate, editDistance, plainText } from '../../../bench/ocr/index.ts';

describe('editDistance', () => {
  it('should count insertions, deletions and substitutions', () => {
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('same', 'same'), 0);
  });
});

describe('plainText', () => {
  it('should drop grounding tags, heading marks, escapes and table markup', () => {
    const md = '<|ref|>title<|/ref|><|det|>[[1, 2, 3, 4]]<|/det|>\n# Hello\n\n<table><tr><td>a</td><td>b</td></tr></table>\n\\$5';
    assert.equal(plainText(md), 'Hello a b $5');
  });
});

describe('characterErrorRate', () => {
  it('should be the edit distance over the reference length', () => {
    assert.equal(characterErrorRate('Hello wrld', 'Hello world'), 1 / 11);
    assert.equal(characterErrorRate('', 'abc'), 1);
    assert.equal(characterErrorRate('', ''), 0);
  });
});
