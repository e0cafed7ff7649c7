/**
 * `folio bench math`: folio-ocr-math through the TypeScript engine. Accuracy: every held-out view
 * read greedily and with speculative decoding (K=3), scored against its truth after
 * normalisation (`canonicalLatex`) and by KaTeX rendering (both sides' MathML, equal), ids of the two
 * modes compared. Speed: the decode suite's measurement (`measureDecode`, round robin, medians) on
 * the same views, greedy against K=3 at the batches asked for.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../../core/errors.ts';
import type { PageDecode } from '../../inference/onnx/decode.ts';
import { decode } from '../../inference/onnx/decode.ts';
import { loadModel } from '../../inference/onnx/load.ts';
import type { Device } from '../../inference/runtime/ort.ts';
import { formulaView } from '../../pipeline/formula/view.ts';
import { loadPages, measureDecode } from '../decode/run.ts';
import { glyphBook } from '../olmocr/glyphs/index.ts';
import { renderMathml, sameRendering } from '../olmocr/math.ts';
import { loadFormulaCrops } from './crops.ts';
import { canonicalLatex } from './normalise.ts';

export const MATH_MODEL = fileURLToPath(new URL('../../inference/models/folio-ocr-math/', import.meta.url));
/** Held-out views made by `training/formula/make_views.py`: `synthetic/`, `real/`, each with `truth.tsv`. */
export const MATH_VIEWS = fileURLToPath(new URL('./views/', import.meta.url));

export interface MathBenchConfig {
  /** @default the committed folio-ocr-math */
  readonly modelDir?: string;
  /** @default bench/math/views */
  readonly viewsDir?: string;
  /** @default 'cpu' */
  readonly device?: Device;
  /** @default 1 (the machine is shared) */
  readonly threads?: number;
  /** Views per set to score. @default all */
  readonly limit?: number;
  /** Views timed by the speed rows. @default 32 */
  readonly speedViews?: number;
  /** @default [1, 16] */
  readonly batches?: readonly number[];
  /** @default 3 */
  readonly k?: number;
  /** Timed runs per configuration. @default 3 */
  readonly runs?: number;
}

export interface MathSetResult {
  readonly set: string;
  readonly n: number;
  /** canonical(prediction) = canonical(truth). */
  readonly exact: number;
  /** KaTeX renders both, to the same MathML. */
  readonly renderEqual: number;
  /** KaTeX accepts the prediction. */
  readonly valid: number;
  /** Speculative ids = greedy ids, view by view. */
  readonly identical: number;
  readonly tau: number;
  /** End to end (vision included), batch 16, greedy and speculative. */
  readonly greedyPerSecond: number;
  readonly speculativePerSecond: number;
  readonly byKind: Readonly<Record<string, { n: number; renderEqual: number }>>;
  readonly samples: readonly { truth: string; predicted: string }[];
}

export interface MathCropsResult {
  readonly n: number;
  readonly renderEqual: number;
  /** The dataset's math tests among the crops, passed with its semantics (`sameRendering`). */
  readonly tests: number;
  readonly testsPassed: number;
  /** Which test decided the math tests MathML missed (the glyph test in Chromium, or MathML only and why). */
  readonly testsCheck: string;
  readonly identical: number;
  readonly tau: number;
  readonly readings: readonly { truth: string; predicted: string; minMargin: number }[];
}

export interface MathSpeedRow {
  readonly batch: number;
  readonly k: number;
  readonly tau: number;
  readonly speedup: number;
  readonly e2eSpeedup: number;
  readonly formulasPerSecond: number;
  readonly lossless: boolean;
}

export interface MathBenchResult {
  readonly model: string;
  readonly device: Device;
  readonly threads: number;
  readonly sets: readonly MathSetResult[];
  /** Hand-cut formula crops of olmOCR-Bench dev pages (absent when the dev PDFs are not there). */
  readonly crops?: MathCropsResult;
  readonly speed: readonly MathSpeedRow[];
  readonly summary: string;
}

interface Truth {
  readonly file: string;
  readonly kind: string;
  readonly latex: string;
}

async function readTruth(dir: string): Promise<Truth[]> {
  const text = await readFile(join(dir, 'truth.tsv'), 'utf8').catch((cause: unknown) => {
    throw new ConfigurationError(
      'FOLIO_BENCH_DATASET',
      `${join(dir, 'truth.tsv')}: cannot read the views' truth (make it with training/formula/make_views.py)`,
      { cause },
    );
  });
  return text
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [file = '', kind = '', ...rest] = l.split('\t');
      return { file, kind, latex: rest.join('\t') };
    });
}

/** Render-equal: KaTeX parses both and their MathML (source annotation dropped) is the same. */
export function renderEqual(truth: string, predicted: string): boolean {
  const a = renderMathml(truth);
  return a !== undefined && a === renderMathml(predicted);
}

async function scoreSet(
  model: Awaited<ReturnType<typeof loadModel>>,
  dir: string,
  set: string,
  config: Readonly<MathBenchConfig>,
  k: number,
): Promise<MathSetResult> {
  const truth = (await readTruth(dir)).slice(0, config.limit ?? Infinity);
  const pages = (await loadPages(dir)).slice(0, truth.length);
  const read = async (draftK: number): Promise<{ out: PageDecode[]; ms: number }> => {
    const start = performance.now();
    const out: PageDecode[] = [];
    for (let i = 0; i < pages.length; i += 16) out.push(...(await decode(model, pages.slice(i, i + 16), { draftK })));
    return { out, ms: performance.now() - start };
  };
  const greedy = await read(0);
  const spec = await read(k);
  let exact = 0,
    equal = 0,
    valid = 0,
    identical = 0,
    tokens = 0,
    steps = 0;
  const byKind: Record<string, { n: number; renderEqual: number }> = {};
  truth.forEach((t, i) => {
    const g = greedy.out[i]!;
    const s = spec.out[i]!;
    const predicted = g.text.trim();
    const same = renderEqual(t.latex, predicted);
    exact += Number(canonicalLatex(predicted) === canonicalLatex(t.latex));
    equal += Number(same);
    valid += Number(renderMathml(predicted) !== undefined);
    identical += Number(g.ids.length === s.ids.length && g.ids.every((id, j) => id === s.ids[j]));
    tokens += Math.max(0, s.ids.length - 1);
    steps += s.stats.steps;
    const kind = (byKind[t.kind] ??= { n: 0, renderEqual: 0 });
    kind.n += 1;
    kind.renderEqual += Number(same);
  });
  const n = truth.length;
  for (const v of Object.values(byKind)) v.renderEqual /= v.n;
  return {
    set,
    n,
    exact: exact / n,
    renderEqual: equal / n,
    valid: valid / n,
    identical: identical / n,
    tau: tokens / Math.max(1, steps),
    greedyPerSecond: n / (greedy.ms / 1000),
    speculativePerSecond: n / (spec.ms / 1000),
    byKind,
    samples: truth.slice(0, 6).map((t, i) => ({ truth: t.latex, predicted: greedy.out[i]!.text.trim() })),
  };
}

/**
 * Score and time the model on the held-out views.
 *
 * @example
 * const result = await measureMath({ limit: 50 });
 */
export async function measureMath(config: Readonly<MathBenchConfig> = {}, log: (line: string) => void = () => {}): Promise<MathBenchResult> {
  const { modelDir = MATH_MODEL, viewsDir = MATH_VIEWS, device = 'cpu', threads = 1, k = 3, batches = [1, 16], runs = 3, speedViews = 32 } = config;
  const model = await loadModel({ modelDir, device, threads });
  const sets: MathSetResult[] = [];
  let crops: MathCropsResult | undefined;
  try {
    for (const set of ['synthetic', 'real']) {
      const result = await scoreSet(model, join(viewsDir, set), set, config, k);
      log(
        `math ${set}: ${result.n} views, render-equal ${(result.renderEqual * 100).toFixed(1)}%, exact ${(result.exact * 100).toFixed(1)}%, identical ${(result.identical * 100).toFixed(0)}%, tau ${result.tau.toFixed(2)}`,
      );
      sets.push(result);
    }
    const cases = await loadFormulaCrops();
    if (cases.length > 0) {
      const views = cases.map((c) => formulaView(c.image));
      const greedy = await decode(model, views, { draftK: 0 });
      const spec = await decode(model, views, { draftK: k });
      const same = greedy.filter((g, i) => g.ids.length === spec[i]!.ids.length && g.ids.every((id, j) => id === spec[i]!.ids[j])).length;
      const tokens = spec.reduce((a, s) => a + Math.max(0, s.ids.length - 1), 0);
      const steps = spec.reduce((a, s) => a + s.stats.steps, 0);
      const tests = cases.filter((c) => c.test);
      const read = cases.map((_, i) => greedy[i]!.text.trim());
      const { book, note } = await glyphBook(cases.flatMap((c, i) => (c.test && !sameRendering(c.latex, read[i]!) ? [c.latex, read[i]!] : [])));
      crops = {
        n: cases.length,
        renderEqual: cases.filter((c, i) => renderEqual(c.latex, greedy[i]!.text.trim())).length / cases.length,
        tests: tests.length,
        testsPassed: cases.filter((c, i) => c.test && sameRendering(c.latex, read[i]!, book)).length,
        testsCheck: note,
        identical: same / cases.length,
        tau: tokens / Math.max(1, steps),
        readings: cases.map((c, i) => ({ truth: c.latex, predicted: greedy[i]!.text.trim(), minMargin: greedy[i]!.stats.minMargin })),
      };
      log(
        `math crops: ${crops.n} crops, render-equal ${(crops.renderEqual * 100).toFixed(1)}%, math tests ${crops.testsPassed}/${crops.tests}, tau ${crops.tau.toFixed(2)}`,
      );
    }
  } finally {
    await model.release();
  }
  const decodeResult = await measureDecode(
    { modelDir, device, threads, pagesDir: join(viewsDir, 'synthetic'), limit: speedViews, ks: [0, k], batches, runs, graphs: ['steps'], steerRate: 0 },
    log,
  );
  const speed = decodeResult.rows
    .filter((r) => r.k === k && r.draft === 'model')
    .map((r) => ({
      batch: r.batch,
      k: r.k,
      tau: r.tau,
      speedup: r.speedup,
      e2eSpeedup: r.e2eSpeedup,
      formulasPerSecond: r.pagesPerSecond,
      lossless: r.lossless,
    }));
  const synthetic = sets[0]!;
  const b1 = speed.find((r) => r.batch === 1);
  const summary = `render-equal ${(synthetic.renderEqual * 100).toFixed(1)}% of ${synthetic.n} held-out synthetic formulas (exact ${(synthetic.exact * 100).toFixed(1)}%), τ ${synthetic.tau.toFixed(2)} at K=${k}${b1 ? `, ${b1.speedup.toFixed(2)}× decode speed-up at batch 1` : ''}`;
  return { model: `${decodeResult.model}`, device, threads, sets, ...(crops ? { crops } : {}), speed, summary };
}
