import assert from 'node:assert/strict';
import { assessText } from '../../../pipeline/text-layer/index.ts';

const PROSE = 'The quick brown fox jumps over the lazy dog and keeps on running through the field.';

describe('assessText', () => {
  it('accepts ordinary text and reports its figures', () => {
    const verdict = assessText({ text: PROSE, items: 12 });
    assert.equal(verdict.usable, true);
    assert.equal(verdict.reason, 'text-layer-good');
    assert.equal(verdict.details.chars, PROSE.replace(/\s/g, '').length);
    assert.equal(verdict.details.items, 12);
  });

  it('rejects empty and near-empty layers', () => {
    assert.equal(assessText({ text: '  \n ', items: 1 }).reason, 'no-text-layer');
    assert.equal(assessText({ text: '12', items: 1 }).reason, 'too-little-text');
  });

  it('rejects glyph garbage: private-use, replacement characters, unmapped cids, symbol soup', () => {
    const privateUse = '\uE001\uE002\uE003 '.repeat(10) + PROSE.slice(0, 30);
    assert.equal(assessText({ text: privateUse, items: 5 }).reason, 'garbage-text');
    assert.equal(assessText({ text: '(cid:12)(cid:34)(cid:56) '.repeat(5), items: 5 }).reason, 'garbage-text');
    assert.equal(assessText({ text: '\uFFFD'.repeat(20) + PROSE, items: 5 }).reason, 'garbage-text');
    assert.equal(assessText({ text: '!"#$%&\'()*+,-./:;<=>?@[]^_{|}~ '.repeat(4), items: 5 }).reason, 'garbage-text');
  });

  it('rejects mostly invisible text when glyph counts are known', () => {
    assert.equal(assessText({ text: PROSE, items: 3, glyphs: 100, invisibleGlyphs: 90 }).reason, 'invisible-text');
    assert.equal(assessText({ text: PROSE, items: 3, glyphs: 100, invisibleGlyphs: 5 }).usable, true);
  });

  it('takes its thresholds from options', () => {
    assert.equal(assessText({ text: PROSE, items: 3 }, { minChars: 1000 }).reason, 'too-little-text');
  });
});
