/**
 * The heading bench: each document's text layer (`extractTextLayer`) scored for heading precision
 * and recall and for run-in heads kept as paragraph lead-ins, per document and per kind (papers by
 * font package, web pages).
 *
 *     node bench/headings/run.ts
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { openPdf } from '../../pipeline/pdf/index.ts';
import { extractTextLayer } from '../../pipeline/text-layer/index.ts';
import { ensureHeadingDocuments } from './make.ts';
import { type HeadingScore, scoreHeadings } from './score.ts';

async function markdownOf(file: string): Promise<string> {
  const pdf = await openPdf(new Uint8Array(await readFile(file)), { source: path.basename(file) });
  try {
    const pages: string[] = [];
    for await (const page of extractTextLayer(pdf)) pages.push(page.markdown);
    return pages.join('\n\n');
  } finally {
    await pdf.close();
  }
}

function sum(scores: readonly HeadingScore[]): HeadingScore {
  const keys = ['found', 'correct', 'truth', 'recalled', 'leadIns', 'leadInsKept', 'leadInsAsHeadings'] as const;
  return Object.fromEntries(keys.map((k) => [k, scores.reduce((s, x) => s + x[k], 0)])) as unknown as HeadingScore;
}

const ratio = (a: number, b: number): string => (b === 0 ? '—' : (a / b).toFixed(3));

function row(name: string, s: HeadingScore): string {
  return `| ${name} | ${ratio(s.correct, s.found)} (${s.correct}/${s.found}) | ${ratio(s.recalled, s.truth)} (${s.recalled}/${s.truth}) | ${s.leadInsKept}/${s.leadIns} | ${s.leadInsAsHeadings} |`;
}

/** Score every document; resolves to the Markdown table of the figures. */
export async function runHeadingBench(): Promise<string> {
  const { dir, documents } = await ensureHeadingDocuments();
  const scores = new Map<string, HeadingScore>();
  for (const doc of documents) {
    scores.set(doc.name, scoreHeadings(await markdownOf(path.join(dir, `${doc.name}.pdf`)), doc.headings, doc.leadIns));
  }
  const group = (name: string): string => (name.startsWith('web-') ? 'web (Chromium)' : `papers, ${name.split('-')[1]}`);
  const groups = new Map<string, HeadingScore[]>();
  for (const [name, s] of scores) groups.set(group(name), [...(groups.get(group(name)) ?? []), s]);
  return [
    '| set | heading precision | heading recall | run-in heads kept | run-in heads as headings |',
    '|---|---|---|---|---|',
    ...[...scores].map(([name, s]) => row(name, s)),
    ...[...groups].map(([name, list]) => row(`**${name}**`, sum(list))),
    row('**all**', sum([...scores.values()])),
  ].join('\n');
}

if (import.meta.main) console.log(await runHeadingBench());
