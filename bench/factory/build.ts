/**
 * `folio bench factory --build`: plan documents across the families (seeded), render each batch
 * with its engine, record the truth per document, write the tests that survive the checks, and
 * make the scanned variant. Everything goes under `.cache/factory/` (never committed).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import type { BenchTest } from '../olmocr/checks.ts';
import { pageCount } from '../quality/sets/pages.ts';
import { seededRandom } from '../scans/random.ts';
import { checkedTests } from './check/tests.ts';
import { loadCorpus } from './corpus/index.ts';
import { FAMILIES } from './families/index.ts';
import { layerPages } from './layer.ts';
import { truthMarkdown } from './markdown.ts';
import { RENDERERS } from './render/index.ts';
import type { RenderJob } from './render/types.ts';
import { scanDocuments } from './scans.ts';
import { candidateTests } from './tests.ts';
import type { DocumentTruth, Family, PlannedDocument } from './types.ts';

export const FACTORY_DIR = '.cache/factory';

export interface BuildFactoryOptions {
  /** @default 'folio-factory-1' */
  readonly seed?: string;
  /** Documents in all. @default 180 */
  readonly documents?: number;
  /** @default '.cache/factory' */
  readonly outDir?: string;
  /** Family names to build. @default every family */
  readonly families?: readonly string[];
  /** Make the scanned variant too. @default true */
  readonly scans?: boolean;
  /** @default console.error */
  readonly log?: (line: string) => void;
}

export interface FactoryManifest {
  readonly seed: string;
  readonly documents: readonly {
    readonly id: string;
    readonly family: string;
    readonly variant: string;
    readonly script: string;
    readonly pages: number;
    readonly tests: number;
  }[];
  readonly failures: readonly { readonly id: string; readonly reason: string }[];
  /** Tests dropped because the truth's own Markdown or the text layer contradicted them. */
  readonly dropped: readonly { readonly id: string; readonly reason: string }[];
  readonly buildSeconds: number;
  readonly scans: boolean;
}

/** Documents per family: shares by weight, at least one each, summing to `total`. */
export function allot(families: readonly Family[], total: number): number[] {
  const weights = families.map((f) => f.weight ?? 1);
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.max(1, Math.floor((total * w) / sum)));
  for (let i = 0; counts.reduce((a, b) => a + b, 0) < total; i = (i + 1) % counts.length) counts[i]!++;
  return counts;
}

/** Plan every document: ids and random streams come from the seed alone. */
export async function planDocuments(seed: string, total: number, families: readonly Family[]): Promise<PlannedDocument[]> {
  const corpus = await loadCorpus();
  const counts = allot(families, total);
  const planned: PlannedDocument[] = [];
  for (const [f, family] of families.entries()) {
    for (let index = 0; index < counts[f]!; index++) {
      const variant = family.variants[index % family.variants.length]!;
      const id = `${family.name}-${variant}-${String(index + 1).padStart(3, '0')}`;
      planned.push(await family.plan(variant, { random: seededRandom(`${seed}/${id}`), corpus, index, id }));
    }
  }
  return planned;
}

/** Record one rendered document's truth and tests. */
export async function recordTruth(
  doc: PlannedDocument,
  pdf: string,
): Promise<{ truth: DocumentTruth; tests: BenchTest[]; dropped: { id: string; reason: string }[] }> {
  const pages = await pageCount(pdf);
  const truth: DocumentTruth = {
    id: doc.id,
    family: doc.family,
    variant: doc.variant,
    script: doc.script ?? 'latin',
    renderer: doc.source.renderer,
    pages,
    ...(doc.title === undefined ? {} : { title: doc.title }),
    blocks: doc.blocks,
    furniture: Array.from({ length: pages }, (_, i) => doc.furniture(i + 1, pages)),
    markdown: truthMarkdown(doc.blocks),
  };
  const candidates = candidateTests(truth, seededRandom(`tests/${doc.id}`));
  const { tests, dropped } = checkedTests(truth, candidates, [await layerPages(pdf, 'raw'), await layerPages(pdf)]);
  return { truth, tests, dropped };
}

/**
 * Build the factory.
 *
 * @example
 * const manifest = await buildFactory({ seed: 'folio-factory-1', documents: 12 });
 */
export async function buildFactory(options: Readonly<BuildFactoryOptions> = {}): Promise<FactoryManifest> {
  const { seed = 'folio-factory-1', documents = 180, scans = true, log = (line: string) => console.error(line) } = options;
  // Absolute: the renderers run their engines in folders of their own (pdflatex in each document's).
  const outDir = path.resolve(options.outDir ?? FACTORY_DIR);
  const started = performance.now();
  const families = options.families === undefined ? FAMILIES : FAMILIES.filter((f) => options.families!.includes(f.name));
  if (families.length === 0)
    throw new ConfigurationError(
      'FOLIO_BAD_ARGUMENTS',
      `no factory family named ${options.families?.join(', ')}; expected ${FAMILIES.map((f) => f.name).join(', ')}`,
    );
  const planned = await planDocuments(seed, documents, families);
  log(`factory: ${planned.length} documents planned across ${families.length} families (seed ${seed})`);
  const pdfDir = path.join(outDir, 'pdf');
  const truthDir = path.join(outDir, 'truth');
  await rm(outDir, { recursive: true, force: true });
  await Promise.all([mkdir(pdfDir, { recursive: true }), mkdir(truthDir, { recursive: true }), mkdir(path.join(outDir, 'work'), { recursive: true })]);
  const failures: { id: string; reason: string }[] = [];
  // One batch per engine; the engines run side by side (each mostly on one core).
  const byRenderer = Map.groupBy(planned, (d) => d.source.renderer);
  await Promise.all(
    [...byRenderer].map(async ([name, docs]) => {
      const renderer = RENDERERS[name];
      if (!renderer) throw new ConfigurationError('FOLIO_BENCH_TOOL', `no factory renderer \`${name}\``);
      await renderer.ensure(log);
      const jobs: RenderJob[] = docs.map((d) => ({ id: d.id, source: d.source, pdf: path.join(pdfDir, `${d.id}.pdf`) }));
      const t0 = performance.now();
      const failed = await renderer.render(jobs, path.join(outDir, 'work', name), log);
      for (const [id, error] of failed) failures.push({ id, reason: error.message });
      log(`factory: ${name}: ${jobs.length - failed.size}/${jobs.length} documents in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }),
  );
  const failedIds = new Set(failures.map((f) => f.id));
  const rows: FactoryManifest['documents'][number][] = [];
  const dataset: BenchTest[] = [];
  const dropped: { id: string; reason: string }[] = [];
  for (const doc of planned) {
    if (failedIds.has(doc.id)) continue;
    try {
      const recorded = await recordTruth(doc, path.join(pdfDir, `${doc.id}.pdf`));
      await writeFile(path.join(truthDir, `${doc.id}.truth.json`), `${JSON.stringify(recorded.truth, null, 1)}\n`);
      await writeFile(path.join(truthDir, `${doc.id}.md`), recorded.truth.markdown);
      dataset.push(...recorded.tests);
      dropped.push(...recorded.dropped);
      rows.push({
        id: doc.id,
        family: doc.family,
        variant: doc.variant,
        script: recorded.truth.script,
        pages: recorded.truth.pages,
        tests: recorded.tests.length,
      });
    } catch (error) {
      failures.push({ id: doc.id, reason: describeError(error) });
    }
  }
  await writeFile(path.join(outDir, 'dataset.jsonl'), dataset.map((t) => JSON.stringify(t)).join('\n') + (dataset.length > 0 ? '\n' : ''));
  if (scans) await scanDocuments({ seed, pdfDir, outDir: path.join(outDir, 'scans'), ids: rows.map((r) => r.id), log });
  const manifest: FactoryManifest = { seed, documents: rows, failures, dropped, buildSeconds: (performance.now() - started) / 1000, scans };
  await writeFile(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  const pages = rows.reduce((s, r) => s + r.pages, 0);
  log(
    `factory: ${rows.length} documents, ${pages} pages, ${dataset.length} tests (${dropped.length} dropped by the truth checks), ${failures.length} failed, in ${manifest.buildSeconds.toFixed(0)} s → ${outDir}`,
  );
  for (const f of failures) log(`factory: failed ${f.id}: ${f.reason}`);
  return manifest;
}

/** The manifest of the factory under `outDir`, or undefined when none was built. */
export async function readFactoryManifest(outDir = FACTORY_DIR): Promise<FactoryManifest | undefined> {
  return JSON.parse(await readFile(path.join(outDir, 'manifest.json'), 'utf8').catch(() => 'null')) ?? undefined;
}
