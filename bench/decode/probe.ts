/**
 * A quick look at the step graphs on a provider before the full bench (`cli.ts`): open each step
 * graph with onnxruntime's verbose log, which names the provider every node was assigned to (on
 * stderr: a node left to the CPU between GPU nodes costs two copies per pass), then time greedy and
 * speculative decoding at batch 1 and one full batch: contract graphs, step graphs with the KV
 * caches through the host or resident, the draft on the CPU or the GPU, Dawn's validation on or
 * off. One JSON line per measurement (`msPerStep`: decode time per decoder pass of the batch).
 *
 * `--profile PREFIX` also writes onnxruntime's per-node profile of every session (sum it with
 * `profile-summary.ts`).
 *
 *   node bench/decode/probe.ts [--device webgpu] [--batch 32] [--pages 4] [--runs 2] [--only NAME-PART] [--no-verbose] [--profile PREFIX] 2> verbose.log
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { PromptEmbeds } from '../../inference/onnx/generate.ts';
import { generate } from '../../inference/onnx/generate.ts';
import type { LoadModelOptions, OcrModel } from '../../inference/onnx/load.ts';
import { loadModel } from '../../inference/onnx/load.ts';
import { encodePages } from '../../inference/onnx/prompt.ts';
import type { StepForward } from '../../inference/onnx/step-forward.ts';
import type { Device } from '../../inference/runtime/ort.ts';
import { OnnxSession } from '../../inference/runtime/ort.ts';
import { median } from '../common/stats.ts';
import { HELD_OUT_VIEWS, loadPages, MINI_MODEL } from './run.ts';

const { values } = parseArgs({
  options: {
    device: { type: 'string', default: 'webgpu' },
    batch: { type: 'string', default: '32' },
    pages: { type: 'string', default: '4' },
    runs: { type: 'string', default: '2' },
    only: { type: 'string', default: '' },
    'no-verbose': { type: 'boolean', default: false },
    profile: { type: 'string' },
  },
});
const device = values.device as Device;
const runs = Number(values.runs);

for (const file of values['no-verbose'] ? [] : ['decoder_step.onnx', 'mtp_step.onnx']) {
  console.error(`==== probe: ${file} on ${device} (verbose) ====`);
  const session = await OnnxSession.create(join(MINI_MODEL, file), { device, logLevel: 0 });
  await session.release();
  console.error(`==== probe: ${file} done ====`);
}

const pages = await loadPages(HELD_OUT_VIEWS);
const batch = Number(values.batch);
/** name, loadModel options, which graphs (undefined: contract), draft sizes */
const variants: [string, Partial<LoadModelOptions>, (m: OcrModel) => StepForward | undefined, number[]][] = [
  ['contract', {}, () => undefined, [0]],
  ['steps, KV through the host, draft on the CPU', { residentKv: false }, (m) => m.steps, [0, 3]],
  ['steps, KV resident, draft on the CPU', {}, (m) => m.steps, [0, 3, 5]],
  ['steps, KV resident, draft on the CPU, Dawn validation off', { gpuValidation: false }, (m) => m.steps, [0]],
  ['steps, KV resident, no draft head (as `--draft-k 0` loads it)', { withoutDraftHead: true }, (m) => m.steps, [0]],
  ['steps, KV resident, no draft head, Dawn validation off', { withoutDraftHead: true, gpuValidation: false }, (m) => m.steps, [0]],
];
const reference = new Map<number, string>();
for (const [name, options, pick, ks] of variants.filter(([name]) => name.includes(values.only))) {
  const model = await loadModel({
    modelDir: MINI_MODEL,
    device,
    ...options,
    ...(values.profile === undefined ? {} : { profilePrefix: `${values.profile}${variants.findIndex(([n]) => n === name)}-` }),
  });
  try {
    const groupsOf = async (n: number, size: number) => {
      const groups: PromptEmbeds[][] = [];
      for (let i = 0; i < n; i += size)
        groups.push(
          (
            await encodePages(
              model,
              Array.from({ length: Math.min(size, n - i) }, (_, j) => pages[(i + j) % pages.length]!),
            )
          ).prompts,
        );
      return groups;
    };
    for (const [size, groups] of [
      [1, await groupsOf(Number(values.pages), 1)],
      [batch, await groupsOf(batch, batch)],
    ] as const) {
      for (const k of ks) {
        const times: number[] = [];
        let out = { ids: [] as number[][], tokens: 0, pages: 0, prefillMs: 0, steps: 0 };
        for (let r = 0; r <= runs; r++) {
          const started = performance.now();
          out = await decodeAll(model, groups, pick(model), k);
          if (r > 0) times.push(performance.now() - started - out.prefillMs);
        }
        const ids = JSON.stringify(out.ids);
        if (!reference.has(size)) reference.set(size, ids);
        const ms = median(times);
        console.log(
          JSON.stringify({
            device,
            batch: size,
            variant: name,
            k,
            decodeMs: Math.round(ms),
            tokens: out.tokens,
            msPerStep: +(ms / (out.steps / size)).toFixed(2),
            decodeTokensPerSecond: Math.round((out.tokens - out.pages) / (ms / 1000)),
            sameIdsAsFirst: ids === reference.get(size),
          }),
        );
      }
    }
  } catch (error) {
    console.log(JSON.stringify({ variant: name, error: String(error) }));
  } finally {
    await model.release();
  }
}

async function decodeAll(model: OcrModel, groups: readonly (readonly PromptEmbeds[])[], steps: StepForward | undefined, draftK: number) {
  const ids: number[][] = [];
  let tokens = 0;
  let prefillMs = 0;
  let passes = 0;
  for (const prompts of groups) {
    const first = ids.length;
    for await (const e of generate(model.forward, model.layout, prompts, {
      eosId: model.config.special.eos,
      draftK,
      maxTokens: 256,
      ...(steps === undefined ? {} : { steps }),
    })) {
      if (e.type !== 'done') continue;
      ids[first + e.index] = [...e.ids];
      tokens += e.stats.tokens;
      prefillMs += e.stats.prefillMs;
      passes += e.stats.steps;
    }
  }
  return { ids, tokens, pages: ids.length, prefillMs, steps: passes };
}
