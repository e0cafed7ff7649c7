/** The formats bench as Markdown: per format, overall, then per file. */
import { markdownTable } from '../common/markdown-table.ts';
import type { FormatsResult } from './run.ts';

const f = (x: number | undefined): string => (x === undefined ? '–' : x.toFixed(3));

export function formatsReport(result: FormatsResult, command: string): string {
  const tools = result.tools;
  const lines = [
    '# Office, web and text formats against docling',
    '',
    `\`${command}\` on \`${result.data}\`: ${result.files.length} files with docling's Markdown beside them. Similarity is 1 − the normalised edit distance of the plain texts (the docling suite's measure, \`bench/groundtruth/compare.ts\`); a file a tool fails on or cannot read scores 0. Folio's Markdown is compared with tables as pipe tables (\`renderMarkdown(…, { tables: 'markdown' })\`, a spanning cell repeated), the reference's own convention; \`folio convert\` writes them as HTML with the spans.`,
    '',
    `Versions: ${tools.map((t) => `${t}: ${result.versions[t] ?? '?'}`).join('; ')}.${
      Object.keys(result.skipped).length > 0
        ? ` Skipped: ${Object.entries(result.skipped)
            .map(([k, v]) => `${k} (${v})`)
            .join('; ')}.`
        : ''
    }`,
    '',
    `Folio speed: ${result.folioPages} pages (slides, sheets; one per flowing document) in ${result.folioSeconds.toFixed(2)} s, ${result.folioPagesPerSecond.toFixed(1)} pages/s on one thread, parse and quality gate included.`,
    '',
    markdownTable(
      ['format', 'files', ...tools],
      [
        ...result.formats.map((row) => [row.format, String(row.files), ...tools.map((t) => f(row.similarity[t]))]),
        ['**all (mean over files)**', String(result.files.length), ...tools.map((t) => `**${f(result.mean[t])}**`)],
      ],
    ),
    '',
    '## Per file',
    '',
    markdownTable(
      ['file', ...tools, 'failures'],
      result.files.map((row) => [
        row.file,
        ...tools.map((t) => f(row.similarity[t])),
        Object.entries(row.failures)
          .map(([k, v]) => `${k}: ${v.replace(/\|/g, '/').slice(0, 120)}`)
          .join('; '),
      ]),
    ),
    '',
  ];
  return lines.join('\n');
}
