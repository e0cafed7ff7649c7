import { ConfigurationError } from '../../core/errors.ts';
import type { Element, PageMarkdown, QualityReport, QualityTerm } from '../../core/types.ts';
import { stripGrounding } from '../markdown/grounding.ts';
import { findLoops } from './repetition.ts';

export interface CheckOptions {
  /**
   * Whether the page image has ink. `true` makes an empty transcription fail the page; `false`
   * accepts it; unknown marks it without failing.
   * @default undefined
   */
  readonly hasInk?: boolean;
  /**
   * Overall score a page needs to pass (hard failures, a loop or an empty page with ink, fail it
   * whatever the score).
   * @default 0.7
   */
  readonly minScore?: number;
  /**
   * Score every single term needs to pass: a page whose formulas are mostly broken fails even when
   * its text is clean.
   * @default 0.5
   */
  readonly minTerm?: number;
  /**
   * Grade repetition loops. They are how an OCR decoder fails; text read from a file's own
   * structure (a Word or Excel file) repeats only where its author repeated it, so the declarative
   * readers turn this off.
   * @default true
   */
  readonly repetition?: boolean;
}

/**
 * Grade one page after the deterministic reward terms of jina-ocr-v1: repetition, structure
 * (tables), formulas (KaTeX) and format (leftover tags, empty page). Each term is computed from the
 * page itself and graded in [0, 1]; the report is what the pipeline retries, falls back or
 * dead-letters on, and it is stored with the chunks.
 *
 * @example
 * checkPage(page, parsePage(page), { hasInk: true }).passed
 */
export function checkPage(page: PageMarkdown, elements: readonly Element[], options: Readonly<CheckOptions> = {}): QualityReport {
  const { hasInk, minScore = 0.7, minTerm = 0.5, repetition: gradeRepetition = true } = options;
  for (const [name, value] of [
    ['minScore', minScore],
    ['minTerm', minTerm],
  ] as const) {
    if (!(typeof value === 'number' && value >= 0 && value <= 1)) {
      throw new ConfigurationError('FOLIO_QUALITY_OPTIONS', `Expected \`${name}\` to be a number from 0 to 1, got \`${String(value)}\` (${typeof value})`);
    }
  }
  const markdown = typeof page.markdown === 'string' ? page.markdown : '';
  const stripped = stripGrounding(markdown);
  const failures: string[] = [];
  const repetition = gradeRepetition ? repetitionTerm(stripped.text, failures) : { name: 'repetition', score: 1, reasons: [] };
  const terms: QualityTerm[] = [repetition, structureTerm(elements), formulaTerm(elements), formatTerm(elements, stripped, hasInk, failures)];
  const mean = terms.reduce((sum, term) => sum + term.score, 0) / terms.length;
  // A hard failure caps the score at the failing term's, so callers sorting by score see it too.
  const failing = terms.filter((term) => term.reasons.some((reason) => failures.includes(reason)));
  const score = round(Math.min(mean, ...failing.map((term) => term.score)));
  const weak = terms.filter((term) => term.score < minTerm);
  const reasons = [...failures, ...terms.flatMap((term) => term.reasons.filter((reason) => !failures.includes(reason)))];
  if (failures.length === 0 && weak.length > 0) reasons.unshift(`${weak.map((term) => `${term.name} ${term.score}`).join(', ')} below ${minTerm}`);
  else if (failures.length === 0 && score < minScore) reasons.unshift(`score ${score} below ${minScore}`);
  return { pageNumber: page.pageNumber, score, passed: failures.length === 0 && weak.length === 0 && score >= minScore, terms, reasons };
}

// Graded by the share of tokens that are repeated copies; a degenerate loop fails the page outright.
function repetitionTerm(text: string, failures: string[]): QualityTerm {
  const scan = findLoops(text);
  const reasons: string[] = [];
  let excess = 0;
  for (const loop of scan.loops) {
    excess += loop.tokens - loop.period;
    const reason = `${loop.degenerate ? 'repetition loop' : 'repeated text'}: "${loop.sample}" ×${loop.repeats} (${loop.tokens} tokens)`;
    reasons.push(reason);
    if (loop.degenerate) failures.push(reason);
  }
  return { name: 'repetition', score: round(Math.max(0, 1 - excess / Math.max(1, scan.tokens))), reasons };
}

// Per table: unbalanced tags and ragged rows each cost a quarter; an empty grid scores 0.
function structureTerm(elements: readonly Element[]): QualityTerm {
  const tables = elements.filter((element) => element.kind === 'table');
  if (tables.length === 0) return { name: 'structure', score: 1, reasons: [] };
  const reasons: string[] = [];
  let total = 0;
  tables.forEach((element, i) => {
    const table = element.table;
    const issues = table?.issues ?? [];
    const empty = !table || table.cells.length === 0 || table.cells.every((row) => row.every((cell) => cell === ''));
    total += empty ? 0 : Math.max(0, 1 - 0.25 * issues.length);
    if (empty) reasons.push(`table ${i + 1}: empty`);
    for (const issue of issues) reasons.push(`table ${i + 1}: ${issue}`);
  });
  return { name: 'structure', score: round(total / tables.length), reasons };
}

function formulaTerm(elements: readonly Element[]): QualityTerm {
  const formulas = elements.flatMap((element) => element.formulas ?? []);
  if (formulas.length === 0) return { name: 'formulas', score: 1, reasons: [] };
  const invalid = formulas.filter((formula) => !formula.valid);
  const reasons = invalid.slice(0, 5).map((formula) => `invalid formula "${formula.latex.slice(0, 40)}": ${formula.error ?? 'unknown error'}`);
  if (invalid.length > 5) reasons.push(`${invalid.length - 5} more invalid formulas`);
  return { name: 'formulas', score: round(1 - invalid.length / formulas.length), reasons };
}

function formatTerm(elements: readonly Element[], stripped: ReturnType<typeof stripGrounding>, hasInk: boolean | undefined, failures: string[]): QualityTerm {
  const reasons: string[] = [];
  let score = 1;
  const text = elements
    .map((element) => element.text)
    .join(' ')
    .trim();
  if (text === '' && !elements.some((element) => element.kind === 'figure')) {
    if (hasInk === true) {
      const reason = 'empty page: the page has ink but no text came back';
      failures.push(reason);
      reasons.push(reason);
      score = 0;
    } else if (hasInk === undefined) {
      reasons.push('empty page');
      score = 0.5;
    }
  }
  // Text survives a malformed tag, only its box is lost: a mild penalty, not a retry.
  const malformed = stripped.tags.filter((tag) => tag.problem !== undefined);
  if (malformed.length > 0) {
    score -= Math.min(0.3, 0.05 * malformed.length);
    reasons.push(`${malformed.length} malformed grounding tag(s): ${malformed[0]!.problem!}`);
  }
  if (stripped.strays > 0) {
    score -= Math.min(0.2, 0.02 * stripped.strays);
    reasons.push(`${stripped.strays} stray special token(s)`);
  }
  const leftover = elements.filter((element) => /<[|｜]|[|｜]>/u.test(element.text));
  if (leftover.length > 0) {
    score -= 0.5;
    reasons.push(`leftover tags in ${leftover.length} element(s)`);
  }
  return { name: 'format', score: round(Math.max(0, score)), reasons };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
