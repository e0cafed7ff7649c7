import assert from 'node:assert/strict';
import { ConfigurationError } from '../../../core/errors.ts';
import type { PageMarkdown } from '../../../core/types.ts';
import { parsePage } from '../../../pipeline/markdown/index.ts';
import { checkPage } from '../../../pipeline/quality/index.ts';
import { fixtureNames, runFixture } from '../markdown/fixture-run.ts';

function pageOf(markdown: string): PageMarkdown {
  return { docId: 'd', pageNumber: 1, width: 612, height: 792, markdown, route: { engine: 'onnx', reason: 'test' } };
}

function check(markdown: string, hasInk?: boolean) {
  const page = pageOf(markdown);
  return checkPage(page, parsePage(page), hasInk === undefined ? {} : { hasInk });
}

// What the gate says of each fixture page: [passed, the terms below 1].
const verdicts: Readonly<Record<string, readonly [boolean, readonly string[]]>> = {
  chinese: [true, []],
  'empty-page': [false, ['format']],
  'formula-broken': [false, ['formulas']],
  'grounding-malformed': [true, ['format']],
  'image-only': [true, []],
  math: [true, []],
  'nested-lists': [true, []],
  'repetition-loop': [false, ['repetition']],
  'table-continued': [true, []],
  'table-large': [true, []],
  'table-spans': [true, []],
  'unclosed-html': [false, ['structure']],
};

describe('checkPage', () => {
  for (const name of fixtureNames()) {
    it(`should grade the ${name} fixture`, () => {
      const want = verdicts[name];
      assert.ok(want, `add ${name} to the verdicts`);
      for (const report of runFixture(name).quality.values()) {
        assert.equal(report.passed, want[0], JSON.stringify(report.reasons));
        assert.deepEqual(
          report.terms.filter((term) => term.score < 1).map((term) => term.name),
          want[1],
          JSON.stringify(report.terms),
        );
        assert.ok(report.score >= 0 && report.score <= 1);
      }
    });
  }

  it('should fail a loop outright and cap the score at the repetition term', () => {
    const report = check(`Intro. ${'the same line again\n'.repeat(40)}`);
    assert.equal(report.passed, false);
    assert.match(report.reasons[0]!, /^repetition loop: "the same line again" ×40/u);
    const repetition = report.terms.find((term) => term.name === 'repetition')!;
    assert.equal(report.score, repetition.score);
    assert.ok(repetition.score < 0.1);
  });

  it('should grade a short repeat without failing the page', () => {
    const report = check(`${'one two three four five six seven eight. '.repeat(3)}And then the text goes on with other words entirely, as pages do.`);
    const repetition = report.terms.find((term) => term.name === 'repetition')!;
    assert.ok(repetition.score > 0.3 && repetition.score < 1, String(repetition.score));
    assert.match(repetition.reasons[0]!, /^repeated text/u);
  });

  it('should tolerate an empty table row pattern that is markup only', () => {
    const rows = '<tr><td></td><td></td></tr>'.repeat(12);
    const report = check(`<table><tr><th>A</th><th>B</th></tr>${rows}</table>`);
    assert.ok(!report.reasons.some((reason) => reason.startsWith('repetition loop')), JSON.stringify(report.reasons));
  });

  it('should judge an empty page by whether the page has ink', () => {
    assert.equal(check('', true).passed, false);
    assert.equal(check('', true).score, 0);
    assert.equal(check('', false).passed, true);
    assert.equal(check('').passed, true);
    assert.deepEqual(check('').reasons, ['empty page']);
  });

  it('should reject bad options with the option named', () => {
    assert.throws(
      () => checkPage(pageOf('x'), [], { minScore: 2 }),
      (error: unknown) => error instanceof ConfigurationError && /minScore/u.test(error.message),
    );
  });
});
