/**
 * Debug entry point for the families: plan `count` documents of a family (or of each family) as the
 * builder would for `seed`, print them with their engines and check each truth against pdftotext
 * (`check/truth.ts`). Writes into `dir`: `<id>.pdf`, `<id>.truth.json` and the source
 * (`<id>.tex`, `<id>.html`, `<id>.docx` …).
 *
 *     node bench/factory/make-sample.ts papers 12 /tmp/factory-papers [seed]
 *     node bench/factory/make-sample.ts all 4
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { planDocuments } from './build.ts';
import { checkTruth } from './check/truth.ts';
import { FAMILIES } from './families/index.ts';
import { RENDERERS } from './render/index.ts';
import type { DocumentSource, PlannedDocument } from './types.ts';

/** The source as the engine reads it, with the file ending it goes under. */
function sourceFile(source: DocumentSource): { extension: string; data: string | Uint8Array } {
  if (source.renderer === 'pdflatex') return { extension: 'tex', data: source.tex };
  if (source.renderer === 'chromium') return { extension: 'html', data: source.html };
  return { extension: source.extension, data: source.bytes };
}

/** One line on a checked document, and whether its truth has problems. */
async function report(d: PlannedDocument, pdf: string, dir: string): Promise<{ pages: number; bad: boolean; texts: number; reordered: number }> {
  const { pages, body, furniture } = await checkTruth(d, pdf);
  const truth = { id: d.id, blocks: d.blocks, furniture: Array.from({ length: pages }, (_, i) => d.furniture(i + 1, pages)) };
  await writeFile(path.join(dir, `${d.id}.truth.json`), `${JSON.stringify(truth, null, 1)}\n`);
  const reordered = body.reordered.length > 0 ? ` (${body.reordered.length} texts found word by word only)` : '';
  const problems = [...body.missing.map((m) => `body '${m.slice(0, 80)}'`), ...furniture.missing, ...furniture.unexpected.map((u) => `unexpected ${u}`)];
  const counts = `furniture ${furniture.checked - furniture.missing.length}/${furniture.checked}, body ${body.checked - body.missing.length}/${body.checked}`;
  console.log(`${d.id}: ${pages} pages, ${counts}, ${problems.length === 0 ? 'truth ok' : problems.slice(0, 6).join('; ')}${reordered}`);
  return { pages, bad: problems.length > 0, texts: body.checked, reordered: body.reordered.length };
}

if (import.meta.main) {
  const [name = 'papers', count = '6', dir = '/tmp/factory-sample', seed = 'folio-factory-1'] = process.argv.slice(2);
  const families = name === 'all' ? FAMILIES : FAMILIES.filter((f) => f.name === name);
  if (families.length === 0) throw new Error(`no family ${name}; expected ${FAMILIES.map((f) => f.name).join(', ')} or all`);
  await mkdir(dir, { recursive: true });
  const docs: PlannedDocument[] = [];
  for (const family of families) docs.push(...(await planDocuments(seed, Number(count), [family])));
  const failures = new Map<string, Error>();
  const start = performance.now();
  for (const [engine, batch] of Map.groupBy(docs, (d) => d.source.renderer)) {
    const renderer = RENDERERS[engine];
    await renderer.ensure((l) => console.error(l));
    for (const d of batch) {
      const { extension, data } = sourceFile(d.source);
      await writeFile(path.join(dir, `${d.id}.${extension}`), data);
    }
    const jobs = batch.map((d) => ({ id: d.id, source: d.source, pdf: path.join(dir, `${d.id}.pdf`) }));
    for (const [id, error] of await renderer.render(jobs, path.join(dir, 'work', engine), (l) => console.error(l))) failures.set(id, error);
  }
  const seconds = (performance.now() - start) / 1000;
  let pages = 0;
  let bad = 0;
  let texts = 0;
  let reordered = 0;
  for (const d of docs) {
    if (failures.has(d.id)) console.log(`${d.id}: FAILED ${failures.get(d.id)!.message}`);
    else {
      const r = await report(d, path.join(dir, `${d.id}.pdf`), dir);
      pages += r.pages;
      bad += r.bad ? 1 : 0;
      texts += r.texts;
      reordered += r.reordered;
    }
  }
  console.log(
    `${docs.length} documents, ${failures.size} failed, ${pages} pages, ${bad} with truth problems, ${reordered} of ${texts} body texts found word by word only; render ${seconds.toFixed(1)} s (${(seconds / docs.length).toFixed(2)} s a document)`,
  );
}
