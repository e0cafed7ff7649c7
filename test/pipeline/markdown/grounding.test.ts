import assert from 'node:assert/strict';
import { stripGrounding } from '../../../pipeline/markdown/index.ts';

describe('stripGrounding', () => {
  it('should blank tags in place and read label and box', () => {
    const source = '<|ref|>text<|/ref|><|det|>[[10, 20, 30, 40]]<|/det|>\nHello';
    const { text, tags } = stripGrounding(source);
    assert.equal(text.length, source.length);
    assert.equal(text.trim(), 'Hello');
    assert.deepEqual(
      tags.map((tag) => [tag.label, tag.box, tag.problem, tag.empty]),
      [['text', [10, 20, 30, 40], undefined, false]],
    );
  });

  it('should unite several boxes, order corners and clamp to the grid', () => {
    const { tags } = stripGrounding('<|ref|>image<|/ref|><|det|>[[30, 40, 10, 20], [50, 5, 1200, 60]]<|/det|>');
    assert.deepEqual(tags[0]!.box, [10, 5, 999, 60]);
    assert.equal(tags[0]!.empty, true);
  });

  it('should tolerate unclosed tags and bad numbers without eating text', () => {
    const { text, tags } = stripGrounding(
      '<|ref|>text<|det|>[[1, 2, 3, 4]]\nKeep me\n\n<|ref|>not a label at all, just words\n\n<|det|>[[1, x]]<|/det|>Also me',
    );
    assert.match(text, /Keep me/u);
    assert.match(text, /not a label at all, just words/u);
    assert.match(text, /Also me/u);
    assert.deepEqual(
      tags.map((tag) => tag.label),
      ['text', undefined, undefined],
    );
    assert.deepEqual(tags[0]!.box, [1, 2, 3, 4]);
    assert.ok(tags.every((tag) => tag.problem !== undefined));
    assert.equal(tags[2]!.box, undefined);
  });

  it('should count and blank stray special tokens', () => {
    const result = stripGrounding('end<｜end▁of▁sentence｜> and <|/det|> here');
    assert.equal(result.strays, 2);
    assert.equal(result.text.replace(/\s+/gu, ' '), 'end and here');
  });
});
