import assert from 'node:assert/strict';
import type { SearchHit } from '../../retrieval/index.ts';
import { citation, formatContext, formatPages } from '../../retrieval/index.ts';

const hit = (over: Partial<SearchHit>): SearchHit => ({
  id: 'c1',
  score: 1,
  text: 'Body text.',
  source: 'docs/a.pdf',
  docId: 'd',
  pages: [2],
  headingPath: [],
  bboxes: [],
  kind: ['paragraph'],
  ranks: {},
  ...over,
});

describe('formatPages', () => {
  it('should join consecutive pages into ranges', () => {
    assert.equal(formatPages([3]), 'p. 3');
    assert.equal(formatPages([4, 3, 3]), 'pp. 3–4');
    assert.equal(formatPages([1, 2, 3, 7, 9, 10]), 'pp. 1–3, 7, 9–10');
    assert.equal(formatPages([]), '');
  });
});

describe('citation', () => {
  it('should name the source, pages and heading path', () => {
    assert.equal(citation(hit({ headingPath: ['Intro', 'Tools'] })), 'docs/a.pdf, p. 2 › Intro › Tools');
  });
});

describe('formatContext', () => {
  it('should number the hits for citing', () => {
    const text = formatContext([hit({ text: ' first ' }), hit({ id: 'c2', source: 'b.pdf', pages: [1, 2], text: 'second' })]);
    assert.equal(text, '[1] docs/a.pdf, p. 2\nfirst\n\n[2] b.pdf, pp. 1–2\nsecond');
  });

  it('should stop at maxChars but always keep the first hit', () => {
    const hits = [hit({ text: 'x'.repeat(100) }), hit({ id: 'c2', text: 'y'.repeat(100) })];
    assert.equal(formatContext(hits, { maxChars: 10 }).split('\n\n').length, 1);
    assert.equal(formatContext(hits, { maxChars: 1000 }).split('\n\n').length, 2);
  });
});
