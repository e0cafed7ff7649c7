/**
 * Tables on degraded scans of the ICDAR dev pages: each page of the scans bench's `icdar2013`
 * set, as an engine read it (`bench scans` keeps every page's output under `.cache/scans-out`),
 * scored by ICDAR adjacency-relation F1 against the truth tables of that page only, micro-averaged;
 * the text layer's reading of the same born-digital page beside it.
 *
 * Run after `npx folio bench scans`:
 *   npx node bench/scans/icdar-tables.ts [.cache/scans-out/auto/icdar2013 ...]
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPdf } from '../../pipeline/pdf/index.ts';
import { extractTextLayer } from '../../pipeline/text-layer/index.ts';
import type { RelationCounts } from '../quality/icdar/index.ts';
import { documentCounts, microAverage, parseStructure, predictedTables } from '../quality/icdar/index.ts';

export interface ScanTableOptions {
  /** Folders of Markdown per scanned page (`<doc>-p<n>.md`), one per engine or run. */
  readonly outputs: readonly string[];
  /** @default '../shared/data/icdar2013-dev' */
  readonly dataDir?: string;
}

/**
 * Adjacency F1 per output folder, over the pages every folder holds and whose page has a truth table.
 *
 * @example
 * const scores = await scanTableScores({ outputs: ['.cache/scans-out/auto/icdar2013'] });
 */
export async function scanTableScores(options: Readonly<ScanTableOptions>): Promise<Record<string, ReturnType<typeof microAverage> & { pages: number }>> {
  const { outputs, dataDir = '../shared/data/icdar2013-dev' } = options;
  const lists = await Promise.all(outputs.map(async (dir) => new Set((await readdir(dir)).filter((f) => f.endsWith('.md')))));
  const pages = [...(lists[0] ?? [])].filter((f) => lists.every((l) => l.has(f))).map((f) => f.replace(/\.md$/, ''));
  const counts = new Map<string, RelationCounts[]>();
  const add = (key: string, c: RelationCounts): void => void (counts.get(key) ?? counts.set(key, []).get(key)!).push(c);
  for (const page of pages.sort()) {
    const m = /^(.*)-p(\d+)$/.exec(page);
    if (m === null) continue;
    const doc = m[1]!;
    const n = Number(m[2]);
    const xml = await readFile(join(dataDir, `${doc}-str.xml`), 'utf8');
    const tables = [...xml.matchAll(/<table\b[^>]*>[\s\S]*?<\/table>/g)].map((t) => t[0]).filter((t) => t.includes(`page="${n}"`));
    if (tables.length === 0) continue;
    const truth = parseStructure(`<document>${tables.join('\n')}</document>`, doc);
    const pdf = await openPdf(await readFile(join(dataDir, `${doc}.pdf`)), { source: doc });
    let text = '';
    try {
      for await (const p of extractTextLayer(pdf, { pages: [n] })) text = p.markdown;
    } finally {
      await pdf.close();
    }
    add('text layer (born-digital page)', documentCounts(truth, predictedTables(text)));
    for (const dir of outputs) add(dir, documentCounts(truth, predictedTables(await readFile(join(dir, `${page}.md`), 'utf8'))));
  }
  return Object.fromEntries([...counts].map(([key, c]) => [key, { ...microAverage(c), pages: c.length }]));
}

if (import.meta.main) {
  const outputs = process.argv.slice(2);
  const scores = await scanTableScores({ outputs: outputs.length > 0 ? outputs : ['.cache/scans-out/auto/icdar2013'] });
  console.log('| reading | pages | adjacency F1 | precision | recall |\n|---|---|---|---|---|');
  for (const [key, s] of Object.entries(scores))
    console.log(`| ${key} | ${s.pages} | ${s.f1.toFixed(3)} | ${s.precision.toFixed(3)} | ${s.recall.toFixed(3)} |`);
}
