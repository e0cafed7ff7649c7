/**
 * `folio bench decode`: greedy against speculative decoding (K = 1..3) on the same model, pages
 * and provider, in one run, through both graph sets (the optional step graphs and the contract's
 * decoder/mtp, i.e. after and before issue #5). Pages are decoded to EOS by default: decoding is
 * lossless, so every configuration commits the same tokens. Configurations are timed in turn, run
 * after run (round robin), so a load change on the shared machine hits all of them alike.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../../core/errors.ts';
import type { PageImage } from '../../inference/engine.ts';
import type { DecodeStats, PromptEmbeds } from '../../inference/onnx/generate.ts';
import { generate } from '../../inference/onnx/generate.ts';
import { loadPageImage } from '../../inference/onnx/image-file.ts';
import type { OcrModel } from '../../inference/onnx/load.ts';
import { loadModel } from '../../inference/onnx/load.ts';
import { encodePages } from '../../inference/onnx/prompt.ts';
import type { Device } from '../../inference/runtime/ort.ts';
import { median } from '../common/stats.ts';
import type { TorchReference } from './reference.ts';
import { readReference, referenceComparison } from './reference.ts';
import { steeredDraft, steeredStepDraft } from './steer.ts';

export const FIXTURE_MODEL = fileURLToPath(new URL('../../test/fixtures/models/folio-ocr-tiny-random/', import.meta.url));
export const MINI_MODEL = fileURLToPath(new URL('../../inference/models/folio-ocr-mini/', import.meta.url));
/** Held-out text-block views for folio-ocr-mini (made by `make_views.py`). */
export const HELD_OUT_VIEWS = fileURLToPath(new URL('./views/', import.meta.url));

export type Graphs = 'steps' | 'contract';

export interface DecodeBenchConfig {
  /** @default the committed folio-ocr-mini */
  readonly modelDir?: string;
  /** @default 'cpu' */
  readonly device?: Device;
  /** @default 1 (one onnxruntime thread: the machine is shared; see README) */
  readonly threads?: number;
  /** Draft sizes; 0 is greedy and always runs. @default [0, 1, 2, 3, 4, 5] */
  readonly ks?: readonly number[];
  /** @default [1, 8] */
  readonly batches?: readonly number[];
  /** Timed runs per configuration, after one warm-up. @default 3 */
  readonly runs?: number;
  /** Token budget per page. @default the model's `generation.max_new_tokens` */
  readonly tokens?: number;
  /** Stop at EOS (and on the repetition guard); false decodes exactly `tokens` per page. @default true */
  readonly eos?: boolean;
  /** Folder of page images. @default the held-out views for folio-ocr-mini, else the model folder's images */
  readonly pagesDir?: string;
  /** Decode only the first this many pages of the folder. @default all. A batch larger than the pages is filled by repeating them (page i of the batch is page i mod n): the throughput of a full batch, ids checked against page i mod n alone. */
  readonly limit?: number;
  /** Graph sets to compare (those the model has). @default ['steps', 'contract'] */
  readonly graphs?: readonly Graphs[];
  /** Also run a steered draft head at this acceptance rate, batch 1 (0 turns it off). @default 0.8 */
  readonly steerRate?: number;
  /** Bit-exact layout (see GenerateOptions.exact). @default true */
  readonly exact?: boolean;
  /** Dawn's validation on a WebGPU device (`loadModel`'s `gpuValidation`). @default loadModel's */
  readonly gpuValidation?: boolean;
  /** `torch_ref.py`'s result on the same machine, to set beside the greedy rows. */
  readonly reference?: string;
}

export interface DecodeRow {
  readonly graphs: Graphs;
  readonly draft: 'model' | 'steered';
  readonly batch: number;
  readonly k: number;
  /** Wall time to decode every page (prefill included, vision excluded). */
  readonly medianMs: number;
  readonly medianCpuMs: number;
  /** Wall time after the decoder's prefill: what speculative decoding changes (the draft head's read of the prompt is in it). */
  readonly decodeMs: number;
  readonly tokens: number;
  readonly tokensPerSecond: number;
  /** Tokens after each page's first / `decodeMs`. */
  readonly decodeTokensPerSecond: number;
  readonly pagesPerSecond: number;
  readonly tau: number;
  readonly acceptance: readonly number[];
  /** Decode-phase speed-up over greedy decoding with the same graphs and batch. */
  readonly speedup: number;
  /** End-to-end (prefill included) speed-up over the same greedy row. */
  readonly e2eSpeedup: number;
  /** Speed-up by CPU time (end to end). */
  readonly cpuSpeedup: number;
  /** CPU time after the prefill: `medianCpuMs` less a prefill-only run's (the same pages, one token each). */
  readonly decodeCpuMs: number;
  /** Decode-phase speed-up by CPU time: steadier than wall time on a shared machine. */
  readonly cpuDecodeSpeedup: number;
  /** Decode-phase speed-up over greedy decoding with the contract graphs (the engine before the step graphs). */
  readonly vsContractGreedy?: number;
  /** Ids equal greedy decoding's (same graphs, same batch) and each page's ids alone, in every timed run. */
  readonly lossless: boolean;
  /** Ids equal those of greedy decoding with the contract graphs (another graph, so only up to near-ties). */
  readonly sameAsContract?: boolean;
  readonly minMargin: number;
  /** Means per page. */
  readonly prefillMs: number;
  readonly draftMs: number;
  readonly verifyMs: number;
}

export interface DecodeBenchResult {
  readonly model: string;
  readonly device: Device;
  readonly threads: number;
  readonly pages: number;
  readonly pagesDir: string;
  readonly budget: number;
  readonly eos: boolean;
  readonly runs: number;
  readonly exact: boolean;
  readonly rows: readonly DecodeRow[];
  /** Speed-ups per K at batch 1, best graphs, model draft head (for README figures). */
  readonly perK: readonly { k: number; speedup: number; cpuSpeedup: number; e2eSpeedup: number; tau: number }[];
  readonly lossless: boolean;
  readonly gpu?: string;
  readonly reference?: TorchReference;
  readonly summary: string;
}

interface Config {
  readonly graphs: Graphs;
  readonly draft: 'model' | 'steered';
  readonly k: number;
  /** Stop after the first token: what the prefill alone costs (CPU time has no per-pass split). */
  readonly prefillOnly?: boolean;
}

interface Timed {
  readonly ms: number;
  /** CPU time of this process (all its threads): less disturbed than wall time on a shared machine. */
  readonly cpuMs: number;
  readonly prefillMs: number;
  readonly ids: number[][];
  readonly stats: DecodeStats[];
}

/** The page images of a folder, sorted by name. */
export async function loadPages(dir: string): Promise<PageImage[]> {
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
  const {
    modelDir = MINI_MODEL,
    device = 'cpu',
    threads = 1,
    ks = [0, 1, 2, 3, 4, 5],
    batches = [1, 8],
    runs = 3,
    eos = true,
    steerRate = 0.8,
    exact = true,
  } = config;
  const loadOptions = { modelDir, device, threads, ...(config.gpuValidation === undefined ? {} : { gpuValidation: config.gpuValidation }) };
  const model = await loadModel(loadOptions);
  let greedyModel = model;
  try {
    // Greedy rows run the model as `--draft-k 0` loads it: without the draft head, so decoder passes
    // fetch no hidden states.
    if (model.steps?.draft !== undefined) greedyModel = await loadModel({ ...loadOptions, withoutDraftHead: true });
    const pagesDir = config.pagesDir ?? (resolve(modelDir) === resolve(MINI_MODEL) ? HELD_OUT_VIEWS : modelDir);
    const pages = (await loadPages(pagesDir)).slice(0, config.limit ?? Infinity);
    const budget = config.tokens ?? model.config.maxNewTokens;
    const reference = config.reference === undefined ? undefined : await readReference(config.reference, budget);
    const graphs = (config.graphs ?? ['steps', 'contract']).filter((g) => g === 'contract' || model.steps !== undefined);
    const kList = [0, ...ks.filter((k) => k > 0)];
    const hasDraft = (g: Graphs) => (g === 'steps' ? model.steps?.draft !== undefined : model.forward.mtp !== undefined);
    const rows: DecodeRow[] = [];
    const aloneIds = new Map<Graphs, number[][]>();
    for (const batch of batches) {
      const groups: PromptEmbeds[][] = [];
      const source = Array.from({ length: Math.max(batch, pages.length) }, (_, i) => i % pages.length);
      for (let i = 0; i < source.length; i += batch)
        groups.push(
          (
            await encodePages(
              model,
              source.slice(i, i + batch).map((j) => pages[j]!),
            )
          ).prompts,
        );
      const configs: Config[] = graphs.flatMap((g) => kList.filter((k) => k === 0 || hasDraft(g)).map((k) => ({ graphs: g, draft: 'model' as const, k })));
      if (batch === 1 && steerRate > 0 && hasDraft(graphs[0]!))
        configs.push(...kList.filter((k) => k > 0).map((k) => ({ graphs: graphs[0]!, draft: 'steered' as const, k })));
      const prefillOnly: Config = { graphs: graphs[0]!, draft: 'model', k: 0, prefillOnly: true };
      configs.push(prefillOnly);
      const greedy = new Map<Graphs, Timed>();
      const timed = new Map<Config, Timed[]>();
      const once = (c: Config) =>
        decodeAll(c.k === 0 && c.graphs === 'steps' ? greedyModel : model, groups, c, {
          budget: c.prefillOnly ? 1 : budget,
          eos,
          exact,
          steerRate,
          greedy: greedy.get(c.graphs),
        });
      for (const c of configs) {
        const warm = await once(c);
        if (c.k === 0 && !c.prefillOnly) greedy.set(c.graphs, warm);
        timed.set(c, []);
      }
      for (let r = 0; r < runs; r++) for (const c of configs) timed.get(c)!.push(await once(c));
      for (const g of graphs) if (batch === 1) aloneIds.set(g, greedy.get(g)!.ids);
      // Greedy rows first: every other row's speed-ups are relative to them.
      const prefillCpuMs = median(timed.get(prefillOnly)!.map((t) => t.cpuMs));
      const order = (c: Config) => 2 * Number(c.k > 0) + Number(c.graphs !== 'contract');
      for (const c of configs.filter((x) => !x.prefillOnly).toSorted((a, b) => order(a) - order(b))) {
        const row = toRow(c, batch, timed.get(c)!, rows, greedy, aloneIds, prefillCpuMs, source);
        rows.push(row);
        log(
          `  ${row.graphs.padEnd(8)} ${row.draft.padEnd(7)} batch ${String(batch).padStart(2)} K=${c.k}: ${row.medianMs.toFixed(0)} ms (decode ${row.decodeMs.toFixed(0)} ms, ${row.decodeTokensPerSecond.toFixed(0)} tok/s), tau ${row.tau.toFixed(2)}, speed-up ${row.speedup.toFixed(2)}× (CPU time ${row.cpuDecodeSpeedup.toFixed(2)}×; end to end ${row.e2eSpeedup.toFixed(2)}×), lossless ${row.lossless}`,
        );
      }
    }
    const lossless = rows.every((r) => r.lossless);
    const b1 = rows.filter((r) => r.batch === Math.min(...batches) && r.graphs === graphs[0] && r.k > 0);
    const best = (draft: 'model' | 'steered') =>
      b1.filter((r) => r.draft === draft).reduce<DecodeRow | undefined>((a, r) => (a === undefined || r.speedup > a.speedup ? r : a), undefined);
    const tauAt3 = (draft: 'model' | 'steered') => b1.find((r) => r.draft === draft && r.k === 3)?.tau.toFixed(2) ?? 'n/a';
    const bm = best('model');
    const bs = best('steered');
    let summary = `lossless=${lossless} speedup=${bm?.speedup.toFixed(2) ?? 'n/a'} tau=${tauAt3('model')} cpu=${bm?.cpuDecodeSpeedup.toFixed(2) ?? 'n/a'} e2e=${bm?.e2eSpeedup.toFixed(2) ?? 'n/a'}`;
    if (bs !== undefined) summary += ` (steered draft at ${steerRate}: speedup=${bs.speedup.toFixed(2)} tau=${tauAt3('steered')})`;
    if (reference !== undefined)
      summary += referenceComparison(reference, rows)
        .ratios.map((r) => ` pytorch/ts@b${r.batch}=${r.decode.toFixed(2)}`)
        .join('');
    const perK = b1
      .filter((r) => r.draft === 'model')
      .map((r) => ({ k: r.k, speedup: r.speedup, cpuSpeedup: r.cpuDecodeSpeedup, e2eSpeedup: r.e2eSpeedup, tau: r.tau }));
    return {
      model: `${model.config.name} ${model.config.version}`,
      device,
      threads,
      pages: pages.length,
      pagesDir,
      budget,
      eos,
      runs,
      exact,
      rows,
      perK,
      lossless,
      gpu: device === 'cpu' ? undefined : nvidiaSmi(),
      ...(reference === undefined ? {} : { reference }),
      summary,
    };
  } finally {
    await model.release();
    if (greedyModel !== model) await greedyModel.release();
  }
}

interface RunOptions {
  readonly budget: number;
  readonly eos: boolean;
  readonly exact: boolean;
  readonly steerRate: number;
  readonly greedy: Timed | undefined;
}

/** Decode every group of pages once with one configuration. */
async function decodeAll(model: OcrModel, groups: readonly (readonly PromptEmbeds[])[], c: Config, run: RunOptions): Promise<Timed> {
  const { budget, eos, exact, steerRate, greedy } = run;
  const ids: number[][] = [];
  const stats: DecodeStats[] = [];
  let page = 0;
  let forward = model.forward;
  let steps = c.graphs === 'steps' ? model.steps : undefined;
  if (c.draft === 'steered') {
    // Batch 1: the page being decoded is `page`.
    const steer = { answer: () => greedy!.ids[page]!, promptLength: groups[0]![0]!.length, vocab: model.config.decoder.vocab, rate: steerRate };
    if (steps !== undefined) steps = steps.withDraft(steeredStepDraft({ ...steer, draft: steps.draft! }));
    else forward = forward.withDraft(steeredDraft({ ...steer, draft: forward.mtp! }));
  }
  const options = {
    eosId: eos ? model.config.special.eos : -1,
    draftK: c.k,
    maxTokens: budget,
    repetition: eos ? {} : (false as const),
    exact,
    ...(steps === undefined ? {} : { steps }),
  };
  let prefillMs = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (const prompts of groups) {
    const first = page;
    for await (const e of generate(forward, model.layout, prompts, options)) {
      if (e.type === 'done') {
        ids[first + e.index] = [...e.ids];
        stats[first + e.index] = e.stats;
        prefillMs += e.stats.prefillMs;
      }
    }
    page = first + prompts.length;
  }
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, prefillMs, ids, stats };
}

function toRow(
  c: Config,
  batch: number,
  timed: readonly Timed[],
  rows: readonly DecodeRow[],
  greedy: ReadonlyMap<Graphs, Timed>,
  aloneIds: ReadonlyMap<Graphs, number[][]>,
  prefillCpuMs: number,
  source: readonly number[],
): DecodeRow {
  const last = timed[timed.length - 1]!;
  const ms = median(timed.map((t) => t.ms));
  const decodeMs = median(timed.map((t) => t.ms - t.prefillMs));
  const cpuMs = median(timed.map((t) => t.cpuMs));
  const decodeCpuMs = Math.max(cpuMs - prefillCpuMs, 1e-3);
  const tokens = last.stats.reduce((n, s) => n + s.tokens, 0);
  const pages = last.stats.length;
  const steps = last.stats.reduce((n, s) => n + s.steps, 0);
  const perStep = (f: (s: DecodeStats) => number) => (steps === 0 ? 0 : last.stats.reduce((a, s) => a + f(s) * s.steps, 0) / steps);
  const mean = (f: (s: DecodeStats) => number) => last.stats.reduce((a, s) => a + f(s), 0) / pages;
  const same = (a: readonly (readonly number[])[], b: readonly (readonly number[])[] | undefined) => b !== undefined && JSON.stringify(a) === JSON.stringify(b);
  const alone = aloneIds.get(c.graphs);
  const base = rows.find((r) => r.graphs === c.graphs && r.batch === batch && r.k === 0 && r.draft === 'model');
  const contract = rows.find((r) => r.graphs === 'contract' && r.batch === batch && r.k === 0);
  const contractIds = greedy.get('contract')?.ids;
  return {
    graphs: c.graphs,
    draft: c.draft,
    batch,
    k: c.k,
    medianMs: ms,
    medianCpuMs: cpuMs,
    decodeMs,
    tokens,
    tokensPerSecond: tokens / (ms / 1000),
    decodeTokensPerSecond: (tokens - pages) / (decodeMs / 1000),
    pagesPerSecond: pages / (ms / 1000),
    tau: perStep((s) => s.tau),
    acceptance: Array.from({ length: c.k }, (_, j) => perStep((s) => s.acceptance[j] ?? 0)),
    speedup: base === undefined ? 1 : base.decodeMs / decodeMs,
    e2eSpeedup: base === undefined ? 1 : base.medianMs / ms,
    cpuSpeedup: base === undefined ? 1 : base.medianCpuMs / cpuMs,
    decodeCpuMs,
    cpuDecodeSpeedup: base === undefined ? 1 : base.decodeCpuMs / decodeCpuMs,
    ...(contract === undefined ? {} : { vsContractGreedy: contract.decodeMs / decodeMs }),
    lossless: timed.every(
      (t) =>
        same(t.ids, greedy.get(c.graphs)?.ids) &&
        (batch === 1 ||
          alone === undefined ||
          same(
            t.ids,
            source.map((j) => alone[j]!),
          )),
    ),
    ...(contractIds === undefined ? {} : { sameAsContract: same(last.ids, contractIds) }),
    minMargin: Math.min(...last.stats.map((s) => s.minMargin)),
    prefillMs: mean((s) => s.prefillMs),
    draftMs: mean((s) => s.draftMs),
    verifyMs: mean((s) => s.verifyMs),
  };
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
