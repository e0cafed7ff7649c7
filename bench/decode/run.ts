/**
 * `folio bench decode`: greedy against speculative decoding (K = 1..3) on the same model, pages
 * and provider, in one run. Each configuration is timed over several runs (median); ids are
 * compared with greedy's at the same batch size and with greedy's alone (`lossless`).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../../core/errors.ts';
import type { PageImage } from '../../inference/engine.ts';
import { generate } from '../../inference/onnx/generate.ts';
import type { DecodeStats, PromptEmbeds } from '../../inference/onnx/generate.ts';
import type { Forward } from '../../inference/onnx/forward.ts';
import { loadPageImage } from '../../inference/onnx/image-file.ts';
import { loadModel } from '../../inference/onnx/load.ts';
import type { OcrModel } from '../../inference/onnx/load.ts';
import { encodePages } from '../../inference/onnx/prompt.ts';
import type { Device } from '../../inference/runtime/ort.ts';
import { median } from '../common/stats.ts';
import { steeredDraft } from './steer.ts';

export const FIXTURE_MODEL = fileURLToPath(new URL('../../test/fixtures/models/folio-ocr-tiny-random/', import.meta.url));

export interface DecodeBenchConfig {
  /** @default the tiny random fixture model */
  readonly modelDir?: string;
  /** @default 'cpu' */
  readonly device?: Device;
  /** @default 0 (onnxruntime decides) */
  readonly threads?: number;
  /** Draft sizes; 0 is greedy and always runs. @default [0, 1, 2, 3] */
  readonly ks?: readonly number[];
  /** @default [1, 8] */
  readonly batches?: readonly number[];
  /** Timed runs per configuration, after one warm-up. @default 5 */
  readonly runs?: number;
  /** Tokens per page. @default 256 */
  readonly tokens?: number;
  /** Folder of page images. @default the model folder's `input-*.png` */
  readonly pagesDir?: string;
  /** Also run the steered draft head at this acceptance rate (0 turns it off). @default 0.8 */
  readonly steerRate?: number;
  /** Bit-exact layout (see GenerateOptions.exact). @default true */
  readonly exact?: boolean;
}

export interface DecodeRow {
  readonly draft: 'model' | 'steered';
  readonly batch: number;
  readonly k: number;
  readonly medianMs: number;
  readonly medianCpuMs: number;
  readonly tokensPerSecond: number;
  readonly pagesPerSecond: number;
  readonly tau: number;
  readonly acceptance: readonly number[];
  readonly speedup: number;
  /** Speed-up by CPU time (see `medianCpuMs`). */
  readonly cpuSpeedup: number;
  readonly lossless: boolean;
  readonly minMargin: number;
  readonly prefillMs: number;
  readonly draftMs: number;
  readonly verifyMs: number;
}

export interface DecodeBenchResult {
  readonly model: string;
  readonly device: Device;
  readonly tokens: number;
  readonly runs: number;
  readonly exact: boolean;
  readonly rows: readonly DecodeRow[];
  readonly lossless: boolean;
  readonly gpu?: string;
  readonly summary: string;
}

interface Timed {
  readonly ms: number;
  /** CPU time of this process (all its threads): less disturbed than wall time on a shared machine. */
  readonly cpuMs: number;
  readonly ids: number[][];
  readonly stats: DecodeStats[];
}

async function decodeOnce(forward: Forward, model: OcrModel, prompts: readonly PromptEmbeds[], k: number, tokens: number, exact: boolean): Promise<Timed> {
  const ids: number[][] = [];
  const stats: DecodeStats[] = [];
  const started = performance.now();
  const cpu = process.cpuUsage();
  for await (const e of generate(forward, model.layout, prompts, { eosId: -1, draftK: k, maxTokens: tokens, repetition: false, exact })) {
    if (e.type === 'done') {
      ids[e.index] = [...e.ids];
      stats[e.index] = e.stats;
    }
  }
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, ids, stats };
}

async function loadPages(dir: string): Promise<PageImage[]> {
  const names = (await readdir(dir)).filter((n) => /\.(png|jpe?g|webp|tiff?)$/i.test(n)).sort();
  if (names.length === 0) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench decode: no page images (png, jpg, webp, tiff) in ${dir}`);
  return Promise.all(names.map((n, i) => loadPageImage({ path: join(dir, n), pageNumber: i + 1 })));
}

/**
 * Measure decoding; returns every row and the one-line summary.
 *
 * @example
 * const result = await measureDecode({ ks: [0, 3], batches: [1], runs: 3 });
 */
export async function measureDecode(config: Readonly<DecodeBenchConfig> = {}, log: (line: string) => void = () => {}): Promise<DecodeBenchResult> {
  const { modelDir = FIXTURE_MODEL, device = 'cpu', threads = 0, ks = [0, 1, 2, 3], batches = [1, 8], runs = 5, tokens = 256, pagesDir = modelDir, steerRate = 0.8, exact = true } = config;
  const model = await loadModel({ modelDir, device, threads });
  try {
    const pages = await loadPages(pagesDir);
    const kList = [0, ...ks.filter((k) => k > 0)];
    const rows: DecodeRow[] = [];
    const aloneIds = new Map<number, number[]>();
    for (const batch of batches) {
      const batchPages = Array.from({ length: batch }, (_, i) => pages[i % pages.length]!);
      const { prompts } = await encodePages(model, batchPages);
      let greedy: Timed | undefined;
      for (const draft of steerRate > 0 && model.forward.mtp !== undefined ? (['model', 'steered'] as const) : (['model'] as const)) {
        for (const k of kList) {
          if (draft === 'steered' && k === 0) continue;
          let forward = model.forward;
          if (draft === 'steered') {
            forward = forward.withDraft(steeredDraft({ draft: model.forward.mtp!, answers: greedy!.ids, promptLengths: prompts.map((p) => p.length), vocab: model.config.decoder.vocab, rate: steerRate }));
          }
          await decodeOnce(forward, model, prompts, k, tokens, exact); // warm-up
          const timed: Timed[] = [];
          for (let r = 0; r < runs; r++) timed.push(await decodeOnce(forward, model, prompts, k, tokens, exact));
          const ms = median(timed.map((t) => t.ms));
          const cpuMs = median(timed.map((t) => t.cpuMs));
          const last = timed[timed.length - 1]!;
          if (k === 0) greedy = last;
          if (batch === 1 && k === 0) aloneIds.set(0, last.ids[0]!);
          // Lossless: the ids of greedy decoding in this batch, and for page 0 (in every batch) its ids alone.
          const alone = aloneIds.get(0);
          const same = (ids: number[][]) =>
            ids.every((row, i) => JSON.stringify(row) === JSON.stringify(greedy!.ids[i]) && (alone === undefined || i % pages.length !== 0 || JSON.stringify(row) === JSON.stringify(alone)));
          const mean = (f: (s: DecodeStats) => number) => last.stats.reduce((a, s) => a + f(s), 0) / last.stats.length;
          const greedyRow = rows.find((r) => r.batch === batch && r.k === 0);
          const row: DecodeRow = {
            draft: k === 0 ? 'model' : draft,
            batch,
            k,
            medianMs: ms,
            medianCpuMs: cpuMs,
            tokensPerSecond: (batch * tokens) / (ms / 1000),
            pagesPerSecond: batch / (ms / 1000),
            tau: mean((s) => s.tau),
            acceptance: Array.from({ length: k }, (_, j) => mean((s) => s.acceptance[j] ?? 0)),
            speedup: greedyRow === undefined ? 1 : greedyRow.medianMs / ms,
            cpuSpeedup: greedyRow === undefined ? 1 : greedyRow.medianCpuMs / cpuMs,
            lossless: timed.every((t) => same(t.ids)),
            minMargin: Math.min(...last.stats.map((s) => s.minMargin)),
            prefillMs: mean((s) => s.prefillMs),
            draftMs: mean((s) => s.draftMs),
            verifyMs: mean((s) => s.verifyMs),
          };
          rows.push(row);
          log(`  ${row.draft.padEnd(7)} batch ${String(batch).padStart(2)} K=${k}: ${ms.toFixed(1)} ms, ${row.tokensPerSecond.toFixed(0)} tok/s, tau ${row.tau.toFixed(2)}, speed-up ${row.speedup.toFixed(2)}× (CPU time ${row.cpuSpeedup.toFixed(2)}×), lossless ${row.lossless}`);
        }
      }
    }
    const lossless = rows.every((r) => r.lossless);
    const b1 = rows.filter((r) => r.batch === Math.min(...batches) && r.k > 0);
    const best = (draft: 'model' | 'steered') => Math.max(...b1.filter((r) => r.draft === draft).map((r) => r.speedup));
    const tauAt3 = (draft: 'model' | 'steered') => b1.find((r) => r.draft === draft && r.k === 3)?.tau.toFixed(2) ?? 'n/a';
    const bestOf = (draft: 'model' | 'steered') => (b1.some((r) => r.draft === draft) ? best(draft).toFixed(2) : 'n/a');
    let summary = `lossless=${lossless} speedup=${bestOf('model')} tau=${tauAt3('model')}`;
    if (b1.some((r) => r.draft === 'steered')) summary += ` (steered draft at ${steerRate}: speedup=${bestOf('steered')} tau=${tauAt3('steered')})`;
    return { model: `${model.config.name} ${model.config.version}`, device, tokens, runs, exact, rows, lossless, gpu: device === 'cpu' ? undefined : nvidiaSmi(), summary };
  } finally {
    await model.release();
  }
}

function nvidiaSmi(): string {
  try {
    return execFileSync('nvidia-smi', ['--query-gpu=name,driver_version,memory.total,utilization.gpu', '--format=csv,noheader'], { encoding: 'utf8' }).trim();
  } catch {
    return 'nvidia-smi not available';
  }
}

/** Write `decode.md` and `decode.json` under `dir`. */
export async function writeDecodeResults(dir: string, result: DecodeBenchResult, markdown: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const suffix = result.device === 'cpu' ? '' : `-${result.device}`;
  await writeFile(join(dir, `decode${suffix}.md`), markdown);
  await writeFile(join(dir, `decode${suffix}.json`), `${JSON.stringify(result, null, 2)}\n`);
}
