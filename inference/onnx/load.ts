/**
 * Load a model folder (ARCHITECTURE.md's contract): read `folio-model.json`, open the four ONNX
 * networks once, and check their inputs and outputs against the declared shapes, so a wrong or
 * half-copied folder fails here, naming the file, rather than in the middle of a page.
 */
import { access, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { InferenceError } from '../../core/errors.ts';
import type { Device } from '../runtime/ort.ts';
import { OnnxSession } from '../runtime/ort.ts';
import type { TextTokenizer } from '../tokenizer/tokenizer.ts';
import { loadTokenizer } from '../tokenizer/tokenizer.ts';
import type { OcrModelConfig } from './config.ts';
import { parseModelConfig } from './config.ts';
import { DEFAULT_NAMES, Forward } from './forward.ts';
import { gatherRowsModel, gatherRowsNames, rowGather } from './gather-rows.ts';
import type { CacheLayout } from './generate.ts';
import { StepForward, writtenName } from './step-forward.ts';

export interface LoadModelOptions {
  /** The model folder. */
  readonly modelDir: string;
  /** Execution provider. @default 'cpu' */
  readonly device?: Device;
  /**
   * CPU threads per session that runs on the CPU; 0 lets onnxruntime decide. Sessions on a GPU, and
   * the embedding lookup beside one, always get one (see {@link intraOpThreads}). @default 0
   */
  readonly threads?: number;
  /** Skip `mtp.onnx` (greedy decoding only; saves its memory). @default false */
  readonly withoutDraftHead?: boolean;
  /**
   * The optional step graphs (`decoder_step.onnx`, `mtp_step.onnx`): `'auto'` opens them (on the
   * CPU and on `webgpu`) when the model declares them and the files are there; `true` requires
   * them; `false` decodes with the contract graphs only. @default 'auto'
   */
  readonly steps?: 'auto' | boolean;
  /**
   * Keep the step graphs' KV caches in the provider's memory between passes (`KvBuffers.resident`):
   * on a GPU the host round trip of the whole cache is most of a step. On the CPU it only costs a
   * copy; it is there to test that path. @default true on a GPU, false on the CPU
   */
  readonly residentKv?: boolean;
  /**
   * Where `mtp_step.onnx` runs. On `webgpu` its Loop and int8 MatMuls have no GPU kernels (44 of
   * its 149 nodes fell to the CPU on an H200, with copies between every pair), so the whole draft
   * runs on the CPU, where it is small and fast. @default 'cpu' beside `webgpu`, else `device`
   */
  readonly draftDevice?: Device;
  /**
   * `webgpu`: Dawn's validation of every dispatch (onnxruntime's default). Turning it off saved
   * nothing on the H200: interleaved probes measured batch-32 greedy decoding as fast or faster with
   * it on, and the bench ran 1,877 tok/s off against 2,476 on (inference/onnx/README.md). @default true
   */
  readonly gpuValidation?: boolean;
  /** Profile every session: onnxruntime writes `<prefix><file>_<date>.json` when the model is released (see bench/decode/probe.ts). */
  readonly profilePrefix?: string;
}

/** A loaded model: config, tokenizer and the sessions, ready to decode. */
export interface OcrModel {
  readonly dir: string;
  readonly device: Device;
  readonly config: OcrModelConfig;
  readonly tokenizer: TextTokenizer;
  readonly vision: OnnxSession;
  readonly forward: Forward;
  /** The step graphs, when opened (see `LoadModelOptions.steps`); `decode` uses them when present. */
  readonly steps?: StepForward;
  readonly layout: CacheLayout;
  /** Name of the vision output. */
  readonly visualOutput: string;
  /** Free every session. */
  release(): Promise<void>;
}

/**
 * onnxruntime's CPU threads for one of a model's sessions. A session on a GPU runs only a few tiny
 * shape and mask nodes on the CPU, and the embedding lookup beside a GPU copies one row per token:
 * waking a thread pool for them costs more than the work (H200, batch-32 greedy decoding, one
 * thread against the default pool: 11 % faster in two interleaved rounds). Everything else on the CPU
 * gets `threads`.
 *
 * @example
 * intraOpThreads({ device: 'webgpu', on: 'cpu', threads: 0, lookup: false }); // 0: the draft head's own pool
 */
export function intraOpThreads({ device, on, threads, lookup }: Readonly<{ device: Device; on: Device; threads: number; lookup: boolean }>): number {
  if (on !== 'cpu') return 1;
  return lookup && device !== 'cpu' ? 1 : threads;
}

/**
 * Load and check a model folder.
 *
 * @example
 * const model = await loadModel({ modelDir: 'test/fixtures/models/folio-ocr-tiny-random' });
 * try { … } finally { await model.release(); }
 */
export async function loadModel(options: Readonly<LoadModelOptions>): Promise<OcrModel> {
  const {
    modelDir,
    device = 'cpu',
    threads = 0,
    withoutDraftHead = false,
    steps = 'auto',
    residentKv = device !== 'cpu',
    draftDevice = device === 'webgpu' ? 'cpu' : device,
    gpuValidation = true,
    profilePrefix,
  } = options;
  if (steps !== 'auto' && typeof steps !== 'boolean')
    throw new InferenceError('FOLIO_MODEL_CONFIG', `Expected \`steps\` to be 'auto', true or false, got \`${String(steps)}\` (${typeof steps})`);
  const configFile = join(modelDir, 'folio-model.json');
  let json: unknown;
  try {
    json = JSON.parse(await readFile(configFile, 'utf8'));
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT';
    throw new InferenceError(
      'FOLIO_MODEL_FILE',
      `${configFile}: ${missing ? 'missing; is this a folio-ocr model folder?' : `not valid JSON (${cause instanceof Error ? cause.message : String(cause)})`}`,
      { cause, meta: { file: configFile } },
    );
  }
  const config = parseModelConfig(json, configFile);
  const wantDraft = !withoutDraftHead && config.draft.k > 0;
  const files = {
    vision: join(modelDir, config.files.vision),
    embed: join(modelDir, config.files.embed),
    decoder: join(modelDir, config.files.decoder),
    mtp: join(modelDir, config.files.mtp),
    tokenizer: join(modelDir, 'tokenizer.json'),
  };
  for (const [key, path] of Object.entries(files)) {
    if (key === 'mtp' && !wantDraft) continue;
    try {
      await access(path);
    } catch (cause) {
      throw new InferenceError('FOLIO_MODEL_FILE', `${path}: missing from the model folder (${key})`, { cause, meta: { file: path } });
    }
  }

  const stepFiles = await stepFilesToOpen(modelDir, config, steps, device, wantDraft);

  const sessions: OnnxSession[] = [];
  const open = async (path: string, outputsOnDevice: readonly string[] = [], on: Device = device) => {
    const s = await OnnxSession.create(path, {
      device: on,
      threads: intraOpThreads({ device, on, threads, lookup: path === files.embed }),
      outputsOnDevice,
      validation: gpuValidation,
      ...(profilePrefix === undefined ? {} : { profilePrefix: `${profilePrefix}${basename(path, '.onnx')}` }),
    });
    sessions.push(s);
    return s;
  };
  const openGather = async (n: number) => {
    const s = await OnnxSession.create(`gather-rows(${n})`, { device, bytes: gatherRowsModel(n), outputsOnDevice: gatherRowsNames(n).outputs });
    sessions.push(s);
    return s;
  };
  try {
    const tokenizer = await loadTokenizer({ path: files.tokenizer });
    const vision = await open(files.vision);
    // A token's embedding is one row lookup: on a GPU the call would cost more than the lookup.
    const embed = await open(files.embed, [], device === 'webgpu' ? 'cpu' : device);
    const decoder = await open(files.decoder);
    const mtp = wantDraft ? await open(files.mtp) : undefined;
    const { hidden, vocab, layers, kvHeads, headDim } = config.decoder;

    const check = new ShapeCheck();
    const visualOutput = vision.outputNames[0] ?? '';
    check.input(vision, 'pixel_values', [null, 3, config.image.globalView.height, config.image.globalView.width]);
    check.output(vision, visualOutput, [null, config.tokensPerView, hidden]);
    check.input(embed, DEFAULT_NAMES.inputIds, [null, null]);
    check.output(embed, DEFAULT_NAMES.inputsEmbeds, [null, null, hidden]);
    const decoderLayers = Array.from({ length: layers }, (_, i) => ({
      pastKey: `past_key_values.${i}.key`,
      pastValue: `past_key_values.${i}.value`,
      presentKey: `present.${i}.key`,
      presentValue: `present.${i}.value`,
    }));
    for (const net of mtp === undefined ? [decoder] : [decoder, mtp]) {
      check.input(net, DEFAULT_NAMES.inputsEmbeds, [null, null, hidden]);
      check.input(net, DEFAULT_NAMES.attentionMask, [null, null]);
      check.input(net, DEFAULT_NAMES.positionIds, [null, null]);
      check.output(net, DEFAULT_NAMES.logits, [null, null, vocab]);
      check.output(net, DEFAULT_NAMES.hiddenStates, [null, null, hidden]);
    }
    const mtpLayers = [
      { pastKey: 'past_key_values.mtp.key', pastValue: 'past_key_values.mtp.value', presentKey: 'present.mtp.key', presentValue: 'present.mtp.value' },
    ];
    for (const [net, names] of mtp === undefined ? [[decoder, decoderLayers] as const] : [[decoder, decoderLayers] as const, [mtp, mtpLayers] as const]) {
      for (const n of names) {
        for (const name of [n.pastKey, n.pastValue]) check.input(net, name, [null, kvHeads, null, headDim]);
        for (const name of [n.presentKey, n.presentValue]) check.output(net, name, [null, kvHeads, null, headDim]);
      }
    }
    if (mtp !== undefined) check.input(mtp, DEFAULT_NAMES.previousHidden, [null, null, hidden]);
    // Resident caches: the step graphs leave their cache outputs (`present.*`, and `written.*`, which
    // a resident cache does not need) in the device's memory; a resident draft head reads prompts
    // on a twin session whose outputs come to the host (step-forward.ts). On the CPU one session does both.
    const cacheOutputs = (names: readonly { presentKey: string; presentValue: string }[]) =>
      names.flatMap((n) => [n.presentKey, n.presentValue]).flatMap((n) => [n, writtenName(n)]);
    const decoderStep = stepFiles.decoder === undefined ? undefined : await open(stepFiles.decoder, residentKv ? cacheOutputs(decoderLayers) : []);
    const residentDraft = residentKv && draftDevice !== 'cpu';
    const mtpStep = stepFiles.mtp === undefined ? undefined : await open(stepFiles.mtp, residentDraft ? cacheOutputs(mtpLayers) : [], draftDevice);
    const prefillDraft = stepFiles.mtp !== undefined && residentDraft ? await open(stepFiles.mtp, [], draftDevice) : undefined;
    if (decoderStep !== undefined) checkStepGraphs(check, decoderStep, mtpStep, decoderLayers, config);
    // A decoder with more layers than the config declares would run with a cache missing layers.
    const extra = decoder.inputNames.filter((n) => n.startsWith('past_key_values.') && !decoderLayers.some((l) => l.pastKey === n || l.pastValue === n));
    if (extra.length > 0) check.problems.push(`${decoder.path}: inputs ${extra.join(', ')} beyond the ${layers} layers of folio-model.json`);
    check.throwIfAny();

    const maskInfo = decoder.inputInfo.find((i) => i.name === DEFAULT_NAMES.attentionMask);
    const maskType = maskInfo?.type === 'int32' || maskInfo?.type === 'bool' || maskInfo?.type === 'float32' ? maskInfo.type : 'int64';
    const forward = new Forward({ decoder, embed, mtp, hidden, vocab, maskType });
    const stepForward =
      decoderStep === undefined
        ? undefined
        : new StepForward({
            decoder: decoderStep,
            draft: mtpStep,
            hidden,
            vocab,
            maxPositions: config.decoder.maxPositions,
            resident: residentKv,
            residentDraft,
            ...(residentKv ? { gather: rowGather(openGather) } : {}),
            ...(prefillDraft === undefined ? {} : { prefillDraft }),
          });
    return {
      dir: modelDir,
      device,
      config,
      tokenizer,
      vision,
      forward,
      ...(stepForward === undefined ? {} : { steps: stepForward }),
      layout: { kvHeads, headDim, decoder: decoderLayers, mtp: mtpLayers },
      visualOutput,
      release: async () => {
        await Promise.all(sessions.map((s) => s.release()));
      },
    };
  } catch (error) {
    await Promise.all(sessions.map((s) => s.release()));
    throw error;
  }
}

/**
 * Which step graphs to open: declared, present, and asked for (`'auto'`: on the CPU and `webgpu`;
 * `cuda` keeps the contract graphs until the step graphs are measured there).
 */
async function stepFilesToOpen(
  modelDir: string,
  config: OcrModelConfig,
  steps: 'auto' | boolean,
  device: Device,
  wantDraft: boolean,
): Promise<{ decoder?: string; mtp?: string }> {
  if (steps === false || (steps === 'auto' && device === 'cuda')) return {};
  const { decoderStep, mtpStep } = config.files;
  const present = async (file: string | undefined): Promise<string | undefined> => {
    if (file === undefined) return undefined;
    const path = join(modelDir, file);
    try {
      await access(path);
      return path;
    } catch (cause) {
      if (steps === true) throw new InferenceError('FOLIO_MODEL_FILE', `${path}: missing from the model folder (step graph)`, { cause, meta: { file: path } });
      return undefined;
    }
  };
  const decoder = await present(decoderStep);
  if (decoder === undefined) {
    if (steps === true)
      throw new InferenceError(
        'FOLIO_MODEL_FILE',
        `${join(modelDir, 'folio-model.json')}: declares no \`onnx.decoder_step\` (the step graphs are optional; use \`steps: 'auto'\`)`,
        { meta: { file: modelDir } },
      );
    return {};
  }
  const mtp = wantDraft ? await present(mtpStep) : undefined;
  return mtp === undefined ? { decoder } : { decoder, mtp };
}

function checkStepGraphs(
  check: ShapeCheck,
  decoder: OnnxSession,
  mtp: OnnxSession | undefined,
  layers: readonly { pastKey: string; pastValue: string; presentKey: string; presentValue: string }[],
  config: OcrModelConfig,
): void {
  const { hidden, vocab, kvHeads, headDim } = config.decoder;
  const cache = [null, kvHeads, null, headDim];
  check.input(decoder, 'inputs_embeds', [null, null, hidden]);
  check.input(decoder, 'position_ids', [null, null]);
  check.input(decoder, 'logits_rows', [null]);
  check.output(decoder, 'logits', [null, null, vocab]);
  check.output(decoder, 'hidden_states', [null, null, hidden]);
  for (const l of layers) {
    for (const name of [l.pastKey, l.pastValue]) check.input(decoder, name, cache);
    for (const name of [l.presentKey, l.presentValue]) check.output(decoder, name, cache);
  }
  if (mtp === undefined) return;
  for (const name of ['inputs_embeds', 'previous_hidden']) check.input(mtp, name, [null, null, hidden]);
  check.input(mtp, 'position_ids', [null, null]);
  check.input(mtp, 'last_row', [null]);
  check.input(mtp, 'draft_k', []);
  check.output(mtp, 'draft_ids', [null, null]);
  for (const name of ['past_key_values.mtp.key', 'past_key_values.mtp.value']) check.input(mtp, name, cache);
  for (const name of ['present.mtp.key', 'present.mtp.value']) check.output(mtp, name, cache);
}

/** Collects every mismatch, then throws once with all of them. */
class ShapeCheck {
  readonly problems: string[] = [];

  input(session: OnnxSession, name: string, expected: readonly (number | null)[]): void {
    this.#check(session, 'input', session.inputInfo, name, expected);
  }

  output(session: OnnxSession, name: string, expected: readonly (number | null)[]): void {
    this.#check(session, 'output', session.outputInfo, name, expected);
  }

  throwIfAny(): void {
    if (this.problems.length > 0)
      throw new InferenceError('FOLIO_MODEL_SHAPE', `the model does not match folio-model.json:\n  ${this.problems.join('\n  ')}`, {
        meta: { problems: this.problems },
      });
  }

  #check(session: OnnxSession, kind: string, infos: OnnxSession['inputInfo'], name: string, expected: readonly (number | null)[]): void {
    const info = infos.find((i) => i.name === name);
    if (info === undefined) {
      this.problems.push(`${session.path}: no ${kind} \`${name}\` (has ${infos.map((i) => i.name).join(', ')})`);
      return;
    }
    if (info.shape.length === 0) return; // shape unknown to the runtime: checked at run time
    const bad = info.shape.length !== expected.length || expected.some((e, i) => e !== null && typeof info.shape[i] === 'number' && info.shape[i] !== e);
    if (bad) this.problems.push(`${session.path}: ${kind} \`${name}\` is [${info.shape.join(',')}], expected [${expected.map((e) => e ?? '?').join(',')}]`);
  }
}
