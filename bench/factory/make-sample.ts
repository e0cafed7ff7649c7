/**
 * Debug entry point for a family: plan `count` documents, render them with the family's renderer,
 * and check each truth against pdftotext (`truth-check.ts`). Writes into `dir`
 * (`<id>.pdf`, `<id>.truth.json`, `<id>.src`).
 *
 *     node bench/factory/make-sample.ts papers 12 /tmp/factory-papers [seed]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { seededRandom } from '../scans/random.ts';
import { loadCorpus } from './corpus/index.ts';
import { papersFamily } from './families/papers.ts';
import { scriptsFamily } from './families/scripts.ts';
import { chromiumRenderer } from './render/chromium.ts';
import { pdflatexRenderer } from './render/pdflatex.ts';
import type { Renderer } from './render/types.ts';
import { checkTruth } from './truth-check.ts';
import type { Family, PlannedDocument } from './types.ts';

const FAMILIES: Readonly<Record<string, { family: Family; renderer: () => Promise<Renderer> }>> = {
  papers: { family: papersFamily, renderer: async () => pdflatexRenderer },
  scripts: { family: scriptsFamily, renderer: async () => chromiumRenderer },
};

/** Plan `count` documents of `family` for `seed`, cycling its variants. */
export async function planSample(family: Family, count: number, seed: string): Promise<PlannedDocument[]> {
  const corpus = await loadCorpus();
  const docs: PlannedDocument[] = [];
  for (let i = 0; i < count; i++) {
    const variant = family.variants[i % family.variants.length]!;
    const id = `${family.name}-${variant}-${String(i).padStart(3, '0')}`;
    docs.push(await family.plan(variant, { random: seededRandom(`${seed}/${id}`), corpus, index: i, id }));
  }
  return docs;
}

if (import.meta.main) {
  const [name = 'papers', count = '6', dir = '/tmp/factory-sample', seed = 'factory-1'] = process.argv.slice(2);
  const entry = FAMILIES[name];
  if (!entry) throw new Error(`unknown family ${name}`);
  await mkdir(dir, { recursive: true });
  const docs = await planSample(entry.family, Number(count), seed);
  const renderer = await entry.renderer();
  await renderer.ensure((l) => console.error(l));
  const jobs = docs.map((d) => ({ id: d.id, source: d.source, pdf: path.join(dir, `${d.id}.pdf`) }));
  for (const d of docs) {
    const src = d.source.renderer === 'pdflatex' ? d.source.tex : d.source.renderer === 'chromium' ? d.source.html : '';
    await writeFile(path.join(dir, `${d.id}.src`), src);
  }
  const start = performance.now();
  const failures = await renderer.render(jobs, path.join(dir, 'work'), (l) => console.error(l));
  const seconds = (performance.now() - start) / 1000;
  let pages = 0;
  let bad = 0;
  let reorderedTexts = 0;
  let texts = 0;
  for (const d of docs) {
    if (failures.has(d.id)) continue;
    const check = await checkTruth(d, path.join(dir, `${d.id}.pdf`));
    pages += check.pages;
    texts += check.checked;
    reorderedTexts += check.reorderedBody.length;
    const furniture = Array.from({ length: check.pages }, (_, i) => d.furniture(i + 1, check.pages));
    await writeFile(path.join(dir, `${d.id}.truth.json`), `${JSON.stringify({ id: d.id, blocks: d.blocks, furniture }, null, 1)}\n`);
    const reordered = check.reorderedBody.length > 0 ? ` (${check.reorderedBody.length} texts found word by word only)` : '';
    const problems = [...check.missingBody.map((m) => `body '${m.slice(0, 80)}'`), ...check.missingFurniture, ...check.unexpectedFurniture];
    if (problems.length > 0) bad += 1;
    console.log(`${d.id}: ${check.pages} pages, ${problems.length === 0 ? 'truth ok' : problems.join('; ')}${reordered}`);
  }
  console.log(
    `${docs.length} documents, ${failures.size} failed, ${pages} pages, ${bad} with truth problems, ${reorderedTexts} of ${texts} body texts found word by word only; render ${seconds.toFixed(1)} s (${(seconds / docs.length).toFixed(2)} s a document)`,
  );
}
