import assert from 'node:assert/strict';
import type { BenchTest } from '../../bench/olmocr/checks.ts';
import { parseTest, runCheck, trailingRepeats } from '../../bench/olmocr/checks.ts';
import { normalizeText } from '../../bench/olmocr/normalize.ts';

const test = (fields: Partial<BenchTest> & Pick<BenchTest, 'type'>): BenchTest => ({ pdf: 'a.pdf', page: 1, id: 't', ...fields });

describe('normalizeText', () => {
  it('should drop emphasis, collapse whitespace and map typography to ASCII', () => {
    assert.equal(normalizeText('**Bold** and _it_ <b>b</b><br>“q” — x\n\n y'), 'Bold and it b "q" - x y');
  });
});

describe('parseTest', () => {
  it('should name the field and value that are wrong', () => {
    assert.throws(() => parseTest({ pdf: 'a.pdf', id: 'x', type: 'present', text: 'a', max_diffs: -1 }, 'd.jsonl:3'), /d\.jsonl:3.*`max_diffs`.*-1/);
    assert.throws(() => parseTest({ pdf: 'a.pdf', id: 'x', type: 'nope' }, 'd.jsonl:4'), /`type`/);
  });
});

describe('runCheck', () => {
  describe('present / absent', () => {
    const page = 'The quick brown fox jumps over the lazy dog.';
    it('should pass an exact match through Markdown emphasis', () => {
      assert.equal(runCheck(test({ type: 'present', text: 'quick brown fox' }), 'The **quick** brown fox').passed, true);
    });
    it('should allow exactly max_diffs edits and no more', () => {
      // "quick brovn fox": one substitution, 15 chars; with max_diffs 1 the threshold is 14/15.
      assert.equal(runCheck(test({ type: 'present', text: 'quick brovn fox', max_diffs: 1 }), page).passed, true);
      assert.equal(runCheck(test({ type: 'present', text: 'quick brovn fox', max_diffs: 0 }), page).passed, false);
      assert.equal(runCheck(test({ type: 'present', text: 'quack brovn fox', max_diffs: 1 }), page).passed, false);
    });
    it('should honour case_sensitive false', () => {
      assert.equal(runCheck(test({ type: 'present', text: 'QUICK BROWN' }), page).passed, false);
      assert.equal(runCheck(test({ type: 'present', text: 'QUICK BROWN', case_sensitive: false }), page).passed, true);
    });
    it('should fail present and pass absent on output too short to hold the text', () => {
      assert.equal(runCheck(test({ type: 'present', text: 'a long phrase' }), '\n').passed, false);
      assert.equal(runCheck(test({ type: 'absent', text: 'a long phrase' }), '\n').passed, true);
    });
    it('should fail absent when the text is there and look only at the last_n characters', () => {
      assert.equal(runCheck(test({ type: 'absent', text: 'lazy dog' }), page).passed, false);
      assert.equal(runCheck(test({ type: 'absent', text: 'quick', last_n: 10 }), page).passed, true);
      assert.equal(runCheck(test({ type: 'absent', text: 'quick', first_n: 10 }), page).passed, false);
    });
  });

  describe('order', () => {
    it('should need before to start before after', () => {
      assert.equal(runCheck(test({ type: 'order', before: 'Introduction', after: 'Conclusion' }), '# Introduction\n\ntext\n\n# Conclusion').passed, true);
      const reversed = runCheck(test({ type: 'order', before: 'Introduction', after: 'Conclusion' }), '# Conclusion\n\ntext\n\n# Introduction');
      assert.equal(reversed.passed, false);
      assert.match(reversed.reason, /never starts before/);
    });
    it('should find fuzzy matches within max_diffs', () => {
      const md = 'Introductoin first, then Conclusion';
      assert.equal(runCheck(test({ type: 'order', before: 'Introduction', after: 'Conclusion', max_diffs: 2 }), md).passed, true);
      assert.equal(runCheck(test({ type: 'order', before: 'Introduction', after: 'Conclusion' }), md).passed, false);
    });
  });

  describe('table', () => {
    const html = `<table>
      <thead><tr><th rowspan="2">Model</th><th colspan="2">Score</th></tr>
      <tr><th>Easy</th><th>Hard</th></tr></thead>
      <tbody><tr><td>ReACT</td><td>0.87</td><td>0.44</td></tr>
      <tr><td>Plan</td><td>0.66</td><td>0.12</td></tr></tbody></table>`;
    it('should check direct neighbours with spans expanded', () => {
      assert.equal(runCheck(test({ type: 'table', cell: '0.87', right: '0.44', down: '0.66', left: 'ReACT', up: 'Easy' }), html).passed, true);
      assert.equal(runCheck(test({ type: 'table', cell: '0.87', right: '0.12' }), html).passed, false);
    });
    it('should see a colspan heading above both columns it covers and a rowspan heading above the first', () => {
      assert.equal(runCheck(test({ type: 'table', cell: 'Hard', up: 'Score' }), html).passed, true);
      assert.equal(runCheck(test({ type: 'table', cell: '0.44', top_heading: 'Score' }), html).passed, true);
      assert.equal(runCheck(test({ type: 'table', cell: 'Plan', top_heading: 'Model' }), html).passed, true);
      assert.equal(runCheck(test({ type: 'table', cell: '0.12', left_heading: 'Plan' }), html).passed, true);
    });
    it('should read Markdown pipe tables with the first row and column as headings', () => {
      const md = '| Task | A | B |\n|---|---|---|\n| x | 1 | 2 |\n| y | 3 | 4 |\n';
      assert.equal(runCheck(test({ type: 'table', cell: '4', top_heading: 'B', left_heading: 'y', up: '2', left: '3' }), md).passed, true);
      assert.equal(runCheck(test({ type: 'table', cell: '4', top_heading: 'A' }), md).passed, false);
      assert.equal(runCheck(test({ type: 'table', cell: '4', top_heading: 'B', ignore_markdown_tables: true }), md).passed, false);
    });
    it('should fail with a reason when there is no table', () => {
      assert.match(runCheck(test({ type: 'table', cell: '4' }), 'no tables here').reason, /no tables/);
    });
  });

  describe('math', () => {
    it('should accept the same formula written differently', () => {
      const md = 'Text $$\\int_a^b f(x)\\,dx = F(b) - F(a)$$ more';
      assert.equal(runCheck(test({ type: 'math', math: '\\int_{a}^{b} f(x) d x=F(b)-F(a)' }), md.replace('\\,', '')).passed, true);
      assert.equal(runCheck(test({ type: 'math', math: 'a^{2}+b^{2}=c^{2}' }), 'so \\(a^2 + b^2 = c^2\\).').passed, true);
    });
    it('should reject a different formula and formulas outside delimiters', () => {
      assert.equal(runCheck(test({ type: 'math', math: 'a^{2}+b^{2}=c^{2}' }), '$a_2 + b_2 = c_2$').passed, false);
      assert.equal(runCheck(test({ type: 'math', math: 'a^{2}+b^{2}=c^{2}' }), 'a^{2}+b^{2}=c^{2}').passed, false);
    });
    it('should accept the reference inside a longer rendered formula', () => {
      assert.equal(runCheck(test({ type: 'math', math: '\\lambda_{g}=\\lambda_{g^{\\prime}}' }), "$$\\lambda_g = \\lambda_{g'}$$").passed, true);
    });
  });

  describe('baseline', () => {
    it('should fail empty output, runaway repetition and CJK', () => {
      assert.equal(runCheck(test({ type: 'baseline' }), 'Some text.').passed, true);
      assert.equal(runCheck(test({ type: 'baseline' }), '\n  \n').passed, false);
      assert.equal(runCheck(test({ type: 'baseline' }), `text ${'ab'.repeat(40)}`).passed, false);
      assert.equal(runCheck(test({ type: 'baseline' }), 'text 中文').passed, false);
    });
  });
});

describe('trailingRepeats', () => {
  it('should count back-to-back repeats of the final n-gram', () => {
    assert.equal(trailingRepeats('xababab', 2), 3);
    assert.equal(trailingRepeats('abc', 2), 1);
  });
});
