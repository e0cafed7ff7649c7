/** The olmOCR-Bench score as Markdown: per type, per dataset file, and every failing test. */
import { markdownTable, percent } from '../common/markdown-table.ts';
import type { OlmocrScore } from './score.ts';

export interface ScoreMarkdownHeader {
  readonly engine: string;
  readonly dataset: string;
  readonly markdown: string;
}

/**
 * Render a score as a Markdown document.
 *
 * @example
 * await writeFile('score.md', scoreToMarkdown(score, { engine: 'pdftotext', dataset, markdown }))
 */
export function scoreToMarkdown(score: OlmocrScore, { engine, dataset, markdown }: Readonly<ScoreMarkdownHeader>): string {
  const types = Object.entries(score.byType).map(([type, s]) => [type, s.total, s.passed, percent(s.score)]);
  const groups = Object.entries(score.byGroup).map(([group, s]) => [group, s.total, s.passed, percent(s.score)]);
  const failures = score.failures.map((f) => [f.id, f.type, f.pdf, f.reason]);
  return [
    `# olmOCR-Bench: ${engine}`,
    '',
    `Dataset \`${dataset}\`, Markdown \`${markdown}\`.`,
    '',
    `**Overall ${percent(score.overall)}** (mean of the per-file scores, as olmOCR-Bench reports it); ${score.passed}/${score.total} tests passed (${percent(score.testPassRate)}).`,
    '',
    `Math tests that MathML containment missed were decided by: ${score.mathCheck}.`,
    '',
    '## Per test type',
    '',
    markdownTable(['type', 'tests', 'passed', 'score'], types),
    '',
    '## Per dataset file',
    '',
    markdownTable(['file', 'tests', 'passed', 'score'], groups),
    '',
    `## Failing tests (${failures.length})`,
    '',
    failures.length > 0 ? markdownTable(['id', 'type', 'pdf', 'reason'], failures) : 'None.',
    '',
  ].join('\n');
}
