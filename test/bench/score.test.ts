import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { commonRoot } from '../../bench/olmocr/runner.ts';
import { loadDataset, markdownFilesFor, scoreMarkdown } from '../../bench/olmocr/score.ts';

const DEV = '../shared/data/olmocr-bench-dev/dataset.jsonl';

describe('loadDataset', () => {
  it('should read every test of the dev set', async () => {
    const tests = await loadDataset({ dataset: DEV });
    assert.equal(tests.length, 55);
    assert.ok(tests.some((t) => t.test.pdf.startsWith('headers_footers/')));
  });
});

describe('markdownFilesFor', () => {
  it('should prefer per-page repeats and fall back to the whole-document file', () => {
    const available = new Set(['a_pg1_repeat1.md', 'a_pg1_repeat2.md', 'a_pg2_repeat1.md', 'b.md', 'sub/c.md']);
    assert.deepEqual(markdownFilesFor('a.pdf', 1, available), ['a_pg1_repeat1.md', 'a_pg1_repeat2.md']);
    assert.deepEqual(markdownFilesFor('b.pdf', 1, available), ['b.md']);
    assert.deepEqual(markdownFilesFor('sub/c.pdf', 1, available), ['sub/c.md']);
    assert.deepEqual(markdownFilesFor('d.pdf', 1, available), []);
  });
});

describe('commonRoot', () => {
  it('should be the deepest shared folder', () => {
    assert.equal(commonRoot(['x/a.pdf', 'x/y/b.pdf']), 'x');
    assert.equal(commonRoot(['a.pdf', 'h/b.pdf']), '');
    assert.equal(commonRoot(['h/a.pdf', 'h/b.pdf']), 'h');
  });
});

describe('scoreMarkdown', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'folio-score-'));
    const lines = [
      { pdf: 'a.pdf', page: 1, id: 'a1', type: 'present', text: 'Hello world' },
      { pdf: 'a.pdf', page: 1, id: 'a2', type: 'absent', text: 'Page 3' },
      { pdf: 'sub/b.pdf', page: 1, id: 'b1', type: 'present', text: 'Missing text' },
      { pdf: 'c.pdf', page: 1, id: 'c1', type: 'present', text: 'anything' },
    ];
    await writeFile(path.join(dir, 'set.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
    await mkdir(path.join(dir, 'md', 'sub'), { recursive: true });
    await writeFile(path.join(dir, 'md', 'a.md'), '# Hello **world**\n\nPage 3');
    await writeFile(path.join(dir, 'md', 'sub', 'b.md'), 'Something else entirely');
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it('should score per type and group, list failures with reasons, and fail pages without Markdown', async () => {
    const score = await scoreMarkdown({ dataset: path.join(dir, 'set.jsonl'), markdown: path.join(dir, 'md') });
    assert.equal(score.total, 7); // 4 tests + 3 baseline tests
    assert.deepEqual(score.byType['present'], { total: 3, passed: 1, score: 1 / 3 });
    assert.equal(score.byType['absent']?.passed, 0);
    assert.equal(score.failures.find((f) => f.id === 'c1')?.reason, 'missing Markdown');
    // Groups: set.jsonl 1/4, baseline 2/3 (c.pdf has no output).
    assert.ok(Math.abs(score.overall - (1 / 4 + 2 / 3) / 2) < 1e-12);
    assert.ok(Math.abs(score.testPassRate - 3 / 7) < 1e-12);
  });

  it('should leave out baseline tests on request', async () => {
    const score = await scoreMarkdown({ dataset: path.join(dir, 'set.jsonl'), markdown: path.join(dir, 'md'), baseline: false });
    assert.equal(score.total, 4);
    assert.equal(score.overall, 0.25);
  });
});
