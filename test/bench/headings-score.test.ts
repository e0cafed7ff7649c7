import assert from 'node:assert/strict';
import { headingDocuments, scoreHeadings } from '../../bench/headings/index.ts';

describe('scoreHeadings', () => {
  const tag = '<|ref|>text<|/ref|><|det|>[[1, 2, 3, 4]]<|/det|>';

  it('counts true headings by title, section numbers and emphasis aside', () => {
    const markdown = [`${tag}\n## 1 Introduction`, `${tag}\nSome text.`, `${tag}\n### 1.1 **Notation**`, `${tag}\n### Stray line`].join('\n\n');
    const score = scoreHeadings(markdown, ['Introduction', 'Notation', 'Results'], []);
    assert.deepEqual([score.found, score.correct, score.truth, score.recalled], [3, 2, 3, 2]);
  });

  it('tells run-in heads kept as emphasised lead-ins from run-in heads written as headings', () => {
    const markdown = ['**Theorem 1.1.** Let G be a group.', '### Proof. Trivial.', '*Remark 1.2.* It is sharp.', 'Note. Plain.'].join('\n\n');
    const score = scoreHeadings(markdown, [], ['Theorem 1.1.', 'Proof.', 'Remark 1.2.', 'Note.']);
    assert.deepEqual([score.leadInsKept, score.leadInsAsHeadings, score.found, score.correct], [2, 1, 1, 0]);
  });
});

describe('headingDocuments', () => {
  it('sets papers in three font packages and web pages, each with headings and run-in heads', () => {
    const docs = headingDocuments();
    assert.deepEqual([...new Set(docs.map((d) => (d.kind === 'html' ? 'web' : (d.name.split('-')[1] ?? ''))))], ['cm', 'times', 'palatino', 'web']);
    for (const doc of docs) assert.ok(doc.headings.length > 0 && doc.leadIns.length > 0, doc.name);
    assert.ok(docs.some((d) => d.source.includes('\\begin{proof}') && d.source.includes('twocolumn')));
  });
});
