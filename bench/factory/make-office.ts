/**
 * Debug entry point for the LibreOffice families until the builder registers them: plan a few
 * documents, print them with LibreOffice and check their truth against pdftotext's text layer.
 *
 *   node bench/factory/make-office.ts [word|slides|all] [count per family] [seed] [outDir]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { seededRandom } from '../scans/random.ts';
import { loadCorpus } from './corpus/index.ts';
import { checkTruth } from './families/office/check.ts';
import { slidesFamily } from './families/slides.ts';
import { wordFamily } from './families/word.ts';
import { libreOfficeRenderer } from './render/libreoffice.ts';
import type { Family, PlannedDocument } from './types.ts';

const [name = 'word', count = '12', seed = 'folio-factory-1', outDir = '/tmp/factory-office'] = process.argv.slice(2);
const families: Record<string, Family> = { word: wordFamily, slides: slidesFamily };
const chosen = name === 'all' ? Object.values(families) : [families[name]];
if (chosen.some((f) => !f)) throw new Error(`no family ${name}; expected word, slides or all`);
const corpus = await loadCorpus();
const docs: PlannedDocument[] = [];
for (const family of chosen as Family[]) {
  for (let index = 0; index < Number(count); index++) {
    const variant = family.variants[index % family.variants.length]!;
    const id = `${family.name}-${variant}-${String(index + 1).padStart(3, '0')}`;
    docs.push(await family.plan(variant, { random: seededRandom(`${seed}/${id}`), corpus, index, id }));
  }
}
await mkdir(outDir, { recursive: true });
await libreOfficeRenderer.ensure(console.error);
const started = performance.now();
const failures = await libreOfficeRenderer.render(
  docs.map((d) => ({ id: d.id, source: d.source, pdf: path.join(outDir, `${d.id}.pdf`) })),
  path.join(outDir, 'work'),
  console.error,
);
const seconds = (performance.now() - started) / 1000;
let pages = 0;
let furniture = 0;
let furnitureMissing = 0;
let texts = 0;
let textsMissing = 0;
let unexpected = 0;
for (const d of docs) {
  if (failures.has(d.id)) {
    console.log(`${d.id}: FAILED ${failures.get(d.id)!.message}`);
    continue;
  }
  const pdf = path.join(outDir, `${d.id}.pdf`);
  const check = await checkTruth(d, pdf);
  await writeFile(
    path.join(outDir, `${d.id}.truth.json`),
    JSON.stringify({ blocks: d.blocks, furniture: Array.from({ length: check.pages }, (_, i) => d.furniture(i + 1, check.pages)) }, null, 1),
  );
  pages += check.pages;
  furniture += check.furniture.checked;
  furnitureMissing += check.furniture.missing.length;
  texts += check.texts.checked;
  textsMissing += check.texts.missing.length;
  console.log(
    `${d.id}: ${check.pages} pages, furniture ${check.furniture.checked - check.furniture.missing.length}/${check.furniture.checked}, texts ${check.texts.checked - check.texts.missing.length}/${check.texts.checked}`,
  );
  for (const m of [...check.furniture.missing, ...check.texts.missing].slice(0, 6)) console.log(`   missing: ${m.slice(0, 120)}`);
  for (const m of check.furniture.unexpected) console.log(`   unexpected: ${m.slice(0, 120)}`);
  unexpected += check.furniture.unexpected.length;
}
console.log(
  `${docs.length} documents, ${pages} pages in ${seconds.toFixed(1)} s (${(seconds / docs.length).toFixed(2)} s/document); furniture ${furniture - furnitureMissing}/${furniture} (${unexpected} unexpected), texts ${texts - textsMissing}/${texts}`,
);
