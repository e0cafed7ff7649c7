/**
 * The olmOCR-Bench unit tests: one record per line of `dataset.jsonl`, each checked against the
 * Markdown an engine wrote for the test's PDF page. See README.md beside this file for exactly how
 * each type is decided.
 */
import { ConfigurationError } from '../../core/errors.ts';
import { nearMatchStarts, partialRatio, ratio } from './fuzzy.ts';
import type { GlyphBook } from './glyphs/index.ts';
import { findMath } from './math.ts';
import { normalizeText } from './normalize.ts';
import type { CellKey, TableGraph } from './table-graph.ts';
import { headingRelations } from './table-graph.ts';
import { parseHtmlTables, parseMarkdownTables } from './table-parse.ts';

export const TEST_TYPES = ['present', 'absent', 'order', 'table', 'math', 'baseline'] as const;
export type TestType = (typeof TEST_TYPES)[number];

/** One line of `dataset.jsonl`, as published (unknown fields are kept and ignored). */
export interface BenchTest {
  readonly pdf: string;
  readonly page: number;
  readonly id: string;
  readonly type: TestType;
  readonly max_diffs?: number;
  readonly checked?: string;
  readonly text?: string;
  readonly case_sensitive?: boolean;
  readonly first_n?: number;
  readonly last_n?: number;
  readonly before?: string;
  readonly after?: string;
  readonly cell?: string;
  readonly up?: string;
  readonly down?: string;
  readonly left?: string;
  readonly right?: string;
  readonly top_heading?: string;
  readonly left_heading?: string;
  readonly ignore_markdown_tables?: boolean;
  readonly math?: string;
  readonly ignore_dollar_delimited?: boolean;
  readonly max_repeats?: number;
  readonly max_length?: number;
}

export interface CheckResult {
  readonly passed: boolean;
  /** Why it failed; empty when it passed. */
  readonly reason: string;
}

const PASS: CheckResult = { passed: true, reason: '' };
const fail = (reason: string): CheckResult => ({ passed: false, reason });
const clip = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/**
 * Validate one parsed JSON line as a test, with messages naming the field and value.
 *
 * @example
 * parseTest({ pdf: 'a.pdf', page: 1, id: 'a_00', type: 'present', text: 'Hello' }, 'dataset.jsonl:1')
 */
export function parseTest(value: unknown, where: string): BenchTest {
  if (typeof value !== 'object' || value === null)
    throw new ConfigurationError('FOLIO_BENCH_DATASET', `${where}: expected a JSON object, got ${JSON.stringify(value)}`);
  const test = value as Record<string, unknown>;
  const need = (field: string, kind: 'string' | 'number'): void => {
    if (typeof test[field] !== kind || test[field] === '') {
      throw new ConfigurationError('FOLIO_BENCH_DATASET', `${where}: expected \`${field}\` to be a non-empty ${kind}, got \`${JSON.stringify(test[field])}\``);
    }
  };
  need('pdf', 'string');
  need('id', 'string');
  if (test['page'] === undefined) test['page'] = 1;
  need('page', 'number');
  if (!TEST_TYPES.includes(test['type'] as TestType)) {
    throw new ConfigurationError(
      'FOLIO_BENCH_DATASET',
      `${where}: expected \`type\` to be one of ${TEST_TYPES.join(', ')}, got \`${JSON.stringify(test['type'])}\``,
    );
  }
  const maxDiffs = test['max_diffs'] ?? 0;
  if (typeof maxDiffs !== 'number' || !Number.isInteger(maxDiffs) || maxDiffs < 0) {
    throw new ConfigurationError('FOLIO_BENCH_DATASET', `${where}: expected \`max_diffs\` to be an integer from 0 up, got \`${JSON.stringify(maxDiffs)}\``);
  }
  const type = test['type'] as TestType;
  if (type === 'present' || type === 'absent') need('text', 'string');
  if (type === 'order') {
    need('before', 'string');
    need('after', 'string');
  }
  if (type === 'table') need('cell', 'string');
  if (type === 'math') need('math', 'string');
  return test as unknown as BenchTest;
}

/** present / absent: fuzzy substring with threshold `1 - max_diffs / len(text)`. */
function checkPresence(test: BenchTest, markdown: string): CheckResult {
  const maxDiffs = test.max_diffs ?? 0;
  let query = normalizeText(test.text ?? '');
  let content = normalizeText(markdown);
  if (test.case_sensitive === false) {
    query = query.toLowerCase();
    content = content.toLowerCase();
  }
  const chars = Array.from(content);
  if (test.first_n && test.last_n) content = chars.slice(0, test.first_n).join('') + chars.slice(-test.last_n).join('');
  else if (test.first_n) content = chars.slice(0, test.first_n).join('');
  else if (test.last_n) content = chars.slice(-test.last_n).join('');
  const queryLength = Array.from(query).length;
  // partial_ratio compares against the shorter string: output shorter than the query would
  // otherwise "contain" it. Such output cannot hold the text, so present fails and absent passes.
  const minRequired = queryLength - maxDiffs;
  if (Array.from(content).length < minRequired) {
    return test.type === 'present' ? fail(`output too short (${Array.from(content).length} chars) to contain '${clip(query)}'`) : PASS;
  }
  const threshold = 1 - maxDiffs / (queryLength || 1);
  const best = partialRatio(query, content);
  if (test.type === 'present') {
    return best >= threshold ? PASS : fail(`expected '${clip(query)}' (threshold ${threshold.toFixed(3)}), best match ${best.toFixed(3)}`);
  }
  return best < threshold ? PASS : fail(`expected no '${clip(query)}' (threshold ${threshold.toFixed(3)}), best match ${best.toFixed(3)}`);
}

/** order: some fuzzy match of `before` starts before some fuzzy match of `after`. */
function checkOrder(test: BenchTest, markdown: string): CheckResult {
  const maxDiffs = test.max_diffs ?? 0;
  const before = normalizeText(test.before ?? '');
  const after = normalizeText(test.after ?? '');
  const content = normalizeText(markdown);
  const beforeStarts = nearMatchStarts(before, content, maxDiffs);
  if (beforeStarts.length === 0) return fail(`'before' text '${clip(before)}' not found within ${maxDiffs} edits`);
  const afterStarts = nearMatchStarts(after, content, maxDiffs);
  if (afterStarts.length === 0) return fail(`'after' text '${clip(after)}' not found within ${maxDiffs} edits`);
  return beforeStarts[0]! < afterStarts.at(-1)! ? PASS : fail(`'${clip(before)}' never starts before '${clip(after)}'`);
}

/** table: a cell matching `cell` (fuzzy ratio) whose neighbours all match the ones given. */
function checkTable(test: BenchTest, markdown: string): CheckResult {
  const maxDiffs = test.max_diffs ?? 0;
  const cell = normalizeText(test.cell ?? '');
  const threshold = (text: string): number => Math.max(0.5, 1 - maxDiffs / (Array.from(text).length || 1));
  const tables = [...(test.ignore_markdown_tables ? [] : parseMarkdownTables(markdown)), ...parseHtmlTables(markdown)];
  if (tables.length === 0) return fail('no tables found in the output');
  const relations: ReadonlyArray<readonly [keyof BenchTest & string, (t: TableGraph, key: CellKey) => Iterable<CellKey>]> = [
    ['up', (t, k) => t.up.get(k) ?? []],
    ['down', (t, k) => t.down.get(k) ?? []],
    ['left', (t, k) => t.left.get(k) ?? []],
    ['right', (t, k) => t.right.get(k) ?? []],
    ['left_heading', (t, k) => headingRelations(t, k, 'left')],
    ['top_heading', (t, k) => headingRelations(t, k, 'up')],
  ];
  const reasons: string[] = [];
  for (const table of tables) {
    for (const [key, text] of table.cellText) {
      if (ratio(cell, normalizeText(text)) < threshold(cell)) continue;
      const misses: string[] = [];
      for (const [field, related] of relations) {
        const raw = test[field];
        if (typeof raw !== 'string' || raw === '') continue;
        const expected = normalizeText(raw);
        let best = 0;
        let bestText = '';
        for (const other of related(table, key)) {
          const otherText = normalizeText(table.cellText.get(other) ?? '');
          const similarity = ratio(expected, otherText);
          if (similarity > best) [best, bestText] = [similarity, otherText];
        }
        if (best < threshold(expected)) misses.push(`${field}: expected '${clip(expected)}', nearest '${clip(bestText)}' (${best.toFixed(2)})`);
      }
      if (misses.length === 0) return PASS;
      reasons.push(...misses);
    }
  }
  if (reasons.length === 0) return fail(`no cell matching '${clip(cell)}' in ${tables.length} table(s)`);
  return fail(`cells matching '${clip(cell)}' found but ${reasons.slice(0, 3).join('; ')}`);
}

/** How many times the last n-gram (of characters) repeats back to back at the end of the text. */
export function trailingRepeats(text: string, n: number): number {
  const chars = Array.from(text.trimEnd());
  if (chars.length < n) return 0;
  const gram = chars.slice(-n).join('');
  let count = 0;
  for (let end = chars.length; end - n >= 0 && chars.slice(end - n, end).join('') === gram; end -= n) count++;
  return count;
}

// CJK and emoji do not belong on this benchmark's pages; their presence means the engine
// hallucinated (the benchmark's character-set check).
const DISALLOWED = /[\u4e00-\u9fff\u3040-\u309f\u30a0-\u30ff\u{1f600}-\u{1f64f}\u{1f300}-\u{1f5ff}\u{1f680}-\u{1f6ff}\u{1f1e0}-\u{1f1ff}]/u;

/** baseline: some alphanumeric output, no runaway repetition at the end, no CJK or emoji. */
function checkBaseline(test: BenchTest, markdown: string): CheckResult {
  const alnum = Array.from(markdown).filter((c) => /[\p{L}\p{N}]/u.test(c)).length;
  if (test.max_length !== undefined) return alnum > test.max_length ? fail(`${alnum} characters on a page expected to be blank`) : PASS;
  if (alnum === 0) return fail('the output has no letters or digits');
  const maxRepeats = test.max_repeats ?? 30;
  for (let n = 1; n <= 5; n++) {
    const repeats = trailingRepeats(markdown, n);
    if (repeats > maxRepeats) return fail(`the output ends with ${repeats} repeats of a ${n}-gram`);
  }
  const bad = DISALLOWED.exec(markdown);
  return bad ? fail(`disallowed character '${bad[0]}'`) : PASS;
}

/**
 * Run one test against the Markdown of its page.
 *
 * @example
 * runCheck({ pdf: 'a.pdf', page: 1, id: 't', type: 'present', text: 'Hello' }, '# **Hello** world') // { passed: true, reason: '' }
 */
export function runCheck(test: BenchTest, markdown: string, glyphs?: GlyphBook): CheckResult {
  switch (test.type) {
    case 'present':
    case 'absent':
      return checkPresence(test, markdown);
    case 'order':
      return checkOrder(test, markdown);
    case 'table':
      return checkTable(test, markdown);
    case 'math':
      return findMath(test.math ?? '', markdown, !test.ignore_dollar_delimited, glyphs);
    case 'baseline':
      return checkBaseline(test, markdown);
  }
}
