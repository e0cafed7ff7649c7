/**
 * The furniture classifier's training rows: every margin row the text layer judges, with its
 * features (`core/furniture-model`) and a label that needed no hand work.
 *
 * - `--factory DIR` (repeatable): a document factory build (`npx folio bench factory --build
 *   --out DIR`); a row is furniture when the truth's header and footer lines of its page cover it
 *   (character trigrams, ≥ 0.7), body when they hardly touch it (< 0.3), left out between.
 * - `--real DIR` (repeatable): real multi-page PDFs, labelled by repetition once the whole
 *   document is seen: furniture when its text (numbers masked) comes back at the same edge on ≥ 3
 *   pages or its number runs with the page numbers on ≥ 3 pages; body when the document has ≥ 4
 *   pages and the row is on one page only and reads as no page number; left out between.
 *
 * Writes JSON lines `{source, set, family, doc, page, text, edge, legacy, rules, label, weak, x}`.
 *
 * node training/furniture/dump.ts --factory .cache/fac-train --real ../shared/data/docling-dev/pdf --out .cache/furniture/rows.jsonl
 */
import { createWriteStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { trigrams } from '../../bench/factory/score.ts';
import type { DocumentTruth } from '../../bench/factory/types.ts';
import { PAGE_NUMBER } from '../../core/furniture.ts';
import { carriedNumber, maskedText } from '../../core/furniture-model/index.ts';
import { openPdf } from '../../pipeline/pdf/open.ts';
import type { FurnitureTrace } from '../../pipeline/text-layer/furniture.ts';
import { FurnitureModel } from '../../pipeline/text-layer/furniture.ts';
import { extractTextLayer } from '../../pipeline/text-layer/index.ts';

const { values } = parseArgs({
  options: {
    factory: { type: 'string', multiple: true, default: [] },
    real: { type: 'string', multiple: true, default: [] },
    out: { type: 'string', default: '.cache/furniture/rows.jsonl' },
    'max-pages': { type: 'string', default: '40' },
  },
});
const maxPages = Number(values['max-pages']);
const out = createWriteStream(values.out);

async function traces(file: string): Promise<FurnitureTrace[]> {
  const seen: FurnitureTrace[] = [];
  FurnitureModel.trace = (t) => seen.push(t);
  const pdf = await openPdf(new Uint8Array(await readFile(file)), { source: file });
  try {
    const pages = Array.from({ length: Math.min(pdf.numPages, maxPages) }, (_, i) => i + 1);
    for await (const _ of extractTextLayer(pdf, { pages })) {
      // The trace hook collects the rows.
    }
  } finally {
    FurnitureModel.trace = undefined;
    await pdf.close();
  }
  return seen;
}

/** Share of a row's trigrams that the truth's still unmatched trigrams `want` hold; a match (≥ 0.7) takes them. */
function take(text: string, want: Map<string, number>): number {
  const row = trigrams([text]);
  let hit = 0;
  let all = 0;
  for (const [g, n] of row) {
    hit += Math.min(n, want.get(g) ?? 0);
    all += n;
  }
  const share = all === 0 ? 0 : hit / all;
  if (share >= 0.7) for (const [g, n] of row) want.set(g, Math.max(0, (want.get(g) ?? 0) - n));
  return share;
}

function write(t: FurnitureTrace, base: Record<string, unknown>, label: number): void {
  out.write(
    `${JSON.stringify({ ...base, page: t.page, text: t.row.line.text, edge: t.row.edge, legacy: t.row.legacy, rules: t.rules ?? null, label, x: t.features })}\n`,
  );
}

for (const dir of values.factory) {
  const files = (await readdir(path.join(dir, 'pdf'))).filter((f) => f.endsWith('.pdf')).sort();
  let rows = 0;
  for (const file of files) {
    const id = file.replace(/\.pdf$/, '');
    const truth = JSON.parse(await readFile(path.join(dir, 'truth', `${id}.truth.json`), 'utf8')) as DocumentTruth;
    const all = await traces(path.join(dir, 'pdf', file)).catch(() => []);
    // Outermost rows first at each edge, each matched against that edge's truth lines; a truth
    // line's trigrams go to the first row that takes them, so the body's copy of a letterhead's
    // name (an address block) is not furniture too.
    const left = new Map<string, Map<string, number>>();
    for (const t of [...all].sort((a, b) => a.page - b.page || a.row.candidate.rank - b.row.candidate.rank)) {
      const page = truth.furniture[t.page - 1];
      if (page === undefined || !t.row.legacy) continue;
      const key = `${t.page}:${t.row.edge}`;
      const want = left.get(key) ?? trigrams(t.row.edge === 'top' ? page.header : page.footer);
      left.set(key, want);
      const c = take(t.row.line.text, want);
      if (c >= 0.3 && c < 0.7) continue;
      write(t, { source: file, set: dir, family: truth.family, doc: id, weak: false }, c >= 0.7 ? 1 : 0);
      rows++;
    }
  }
  console.log(`${dir}: ${files.length} documents, ${rows} rows`);
}

for (const dir of values.real) {
  const files = (await readdir(dir)).filter((f) => f.toLowerCase().endsWith('.pdf')).sort();
  let rows = 0;
  for (const file of files) {
    const all = await traces(path.join(dir, file)).catch(() => []);
    const pages = new Set(all.map((t) => t.page)).size;
    if (pages < 3) continue;
    // Repetition counts at about the same height on the page (within 2 % of it), as a running
    // line sits; a page number must run with the pages. Neither teaches anything about rows set
    // bigger than the body (headings repeat too) or without three letters (code line numbers).
    const height = (t: FurnitureTrace): number => Math.round((t.row.edge === 'top' ? t.row.candidate.top : 1 - t.row.candidate.bottom) * 50);
    const byKey = new Map<string, Set<number>>();
    const byOffset = new Map<string, Set<number>>();
    for (const t of all) {
      for (const h of [height(t) - 1, height(t), height(t) + 1]) {
        const key = `${t.row.edge}:${h}:${maskedText(t.row.line.text)}`;
        byKey.set(key, (byKey.get(key) ?? new Set()).add(t.page));
      }
      const n = carriedNumber(t.row.line.text);
      if (n !== undefined) {
        const k = `${t.row.edge}:${n - t.page}`;
        byOffset.set(k, (byOffset.get(k) ?? new Set()).add(t.page));
      }
    }
    for (const t of all) {
      if (!t.row.legacy) continue;
      const text = t.row.line.text;
      const masked = maskedText(text);
      const repeated = byKey.get(`${t.row.edge}:${height(t)}:${masked}`)?.size ?? 0;
      const n = carriedNumber(text);
      const sequence = n === undefined ? 0 : (byOffset.get(`${t.row.edge}:${n - t.page}`)?.size ?? 0);
      const plain = (t.row.candidate.sizeRatio ?? 1) <= 1.1 && ((masked.match(/\p{L}/gu)?.length ?? 0) >= 3 || PAGE_NUMBER.test(text.trim()));
      const label = plain && (repeated >= 3 || sequence >= 3) ? 1 : pages >= 4 && repeated <= 1 && sequence <= 1 && !PAGE_NUMBER.test(text.trim()) ? 0 : -1;
      if (label < 0) continue;
      write(t, { source: file, set: dir, family: 'real', doc: file, weak: true }, label);
      rows++;
    }
  }
  console.log(`${dir}: ${files.length} documents, ${rows} rows`);
}
out.end();
