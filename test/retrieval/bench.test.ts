import assert from 'node:assert/strict';
import { firstRelevantRank, QUESTIONS, rankingScores } from '../../bench/retrieval/index.ts';

describe('firstRelevantRank', () => {
  it('should find the first hit on a relevant page of the right file', () => {
    const hits = [
      { source: 'file:///d/other.pdf', pages: [1] },
      { source: '/d/multi_page.pdf', pages: [2] },
      { source: 'multi_page.pdf', pages: [3, 4] },
    ];
    assert.equal(firstRelevantRank(hits, [{ file: 'multi_page.pdf', page: 4 }]), 3);
    assert.equal(
      firstRelevantRank(hits, [
        { file: 'multi_page.pdf', page: 2 },
        { file: 'other.pdf', page: 1 },
      ]),
      1,
    );
    assert.equal(firstRelevantRank(hits, [{ file: 'multi_page.pdf', page: 5 }]), undefined);
  });
});

describe('rankingScores', () => {
  it('should compute recall@k and MRR', () => {
    const s = rankingScores([1, 2, undefined, 7], 5);
    assert.equal(s.questions, 4);
    assert.equal(s.recallAtK, 0.5);
    assert.equal(s.mrr, (1 + 0.5 + 0 + 1 / 7) / 4);
    assert.deepEqual(rankingScores([], 5), { questions: 0, recallAtK: 0, mrr: 0 });
  });
});

describe('QUESTIONS', () => {
  it('should point every question at a page of a real test PDF', () => {
    assert.ok(QUESTIONS.length >= 30);
    const pages: Record<string, number> = {
      'multi_page.pdf': 5,
      'invisible_text_layer.pdf': 1,
      '2305.03393v1-pg9.pdf': 1,
      'amt_handbook_sample.pdf': 1,
      'normal_4pages.pdf': 4,
      'code_and_formula.pdf': 2,
      'table_mislabeled_as_picture.pdf': 1,
    };
    for (const q of QUESTIONS) for (const r of q.relevant) assert.ok(r.page >= 1 && r.page <= (pages[r.file] ?? 0), `${q.question}: ${r.file} p${r.page}`);
  });
});
