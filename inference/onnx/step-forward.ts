/**
 * One pass of each optional step graph (folio-model.json → `onnx.decoder_step`, `onnx.mtp_step`;
 * written by training/folio_ocr/onnx_steps.py) over fixed-capacity {@link KvBuffers}: the
 * buffers go in as they are, the rows the pass wrote come back (`written`) for the caller to put
 * into a buffer. Callers see plain arrays; tensors stay inside this file, `kv-buffer.ts` and
 * `runtime/ort.ts`.
 *
 * A resident cache (`KvBuffers.resident`, on a GPU) takes the pass's whole updated cache
 * (`present.*`, left in the device's memory) as the next pass's input instead: only logits, hidden
 * rows and draft ids cross to the CPU; the batch's prompts are prefilled by its first resident
 * pass. A resident draft head's prompts are read into host buffers, by a second session of the same
 * graph whose outputs come to the host (`prefillDraft`): onnxruntime fixes an output's location per
 * session.
 *
 * Hidden states are fetched only where a draft head will read them: greedy decoding downloads the
 * logits alone.
 */

import { InferenceError } from '../../core/errors.ts';
import type { Tensor } from '../runtime/ort.ts';
import { tensor } from '../runtime/ort.ts';
import type { SessionLike } from './forward.ts';
import type { KvBuffers, RowGather } from './kv-buffer.ts';

export interface StepForwardOptions {
  /** `decoder_step.onnx`. */
  readonly decoder: SessionLike;
  /** `mtp_step.onnx`; without it the step graphs decode greedily only. */
  readonly draft?: SessionLike;
  readonly hidden: number;
  readonly vocab: number;
  /** Positions the graphs can encode (their RoPE table): a buffer's capacity must not exceed it. */
  readonly maxPositions: number;
  /**
   * Keep the decoding caches in the provider's memory (`KvBuffers.resident`): what a GPU wants
   * (the sessions must leave `present.*` there: `OnnxSession`'s `outputsOnDevice`). On the CPU it
   * gives the same ids, one host copy of the cache per pass slower. @default false
   */
  readonly resident?: boolean;
  /** The same for the draft head's cache; false when `mtp_step` runs on the CPU beside a GPU decoder. @default resident */
  readonly residentDraft?: boolean;
  /** Resident caches: drops sequences on the device (`KvBuffers` `gather`). */
  readonly gather?: RowGather;
  /** A resident draft cache: `mtp_step.onnx` with every output on the host, to read prompts. @default draft */
  readonly prefillDraft?: SessionLike;
  /**
   * Fetch `hidden_states` from decoder passes (only the draft head reads them). Fixed per decoder
   * session: see {@link cacheOutputs} for why a session's set of fetched outputs must not change.
   * @default draft !== undefined
   */
  readonly hiddenStates?: boolean;
}

export interface DecoderStepInputs {
  /** [B, steps, hidden] */
  readonly embeds: Float32Array;
  readonly steps: number;
  /** [B, steps] position of every row, which is also the slot it is written to. */
  readonly positions: readonly number[];
  /** Rows of each sequence whose logits are wanted (the LM head runs on those only). */
  readonly logitRows: readonly number[];
}

export interface DecoderStepOutput {
  /** [B, logitRows.length, vocab] */
  readonly logits: Float32Array;
  /** [B, steps, hidden]; empty when the decoder's hidden states are not fetched (no draft head). */
  readonly hidden: Float32Array;
  /** The keys and values the pass wrote, layer by layer, each [B, kv, steps, d]: for `KvBuffers.write`. */
  readonly written: Float32Array[];
}

export interface DraftStepOutput {
  /** [B][k] proposals. */
  readonly ids: number[][];
  /** The draft block's keys and values of the rows read, each [B, kv, steps, d]. */
  readonly written: Float32Array[];
}

export interface DraftStepInputs {
  /** [B, steps, hidden] embeddings of token i+1 of each pair the draft head reads. */
  readonly embeds: Float32Array;
  /** [B, steps, hidden] decoder hidden state at i. */
  readonly hidden: Float32Array;
  readonly steps: number;
  /** [B, steps] position i of each pair; padding rows take positions after the real ones. */
  readonly positions: readonly number[];
  /** [B] index of each sequence's last real row, whose output proposes the first draft. */
  readonly lastRows: readonly number[];
  /** Proposals per sequence. */
  readonly k: number;
}

/**
 * @example
 * const steps = new StepForward({ decoder, draft, hidden: 384, vocab: 2048, maxPositions: 1024 });
 * const { logits, written } = await steps.decode(cache, { embeds, steps: 4, positions: [300, 301, 302, 303], logitRows: [0, 1, 2, 3] });
 * cache.write(written, 4, [300, 301, 302, 303]);
 */
export class StepForward {
  readonly decoder: SessionLike;
  readonly draft: SessionLike | undefined;
  readonly hidden: number;
  readonly vocab: number;
  readonly maxPositions: number;
  readonly resident: boolean;
  readonly residentDraft: boolean;
  readonly gather: RowGather | undefined;
  readonly hiddenStates: boolean;
  readonly #options: Readonly<StepForwardOptions>;
  /** `logits_rows` tensors by row list: the same few lists come back every step. */
  readonly #rows = new Map<string, Tensor>();

  constructor(options: Readonly<StepForwardOptions>) {
    const { decoder, draft, hidden, vocab, maxPositions, resident = false, residentDraft = resident, gather, hiddenStates = draft !== undefined } = options;
    this.#options = options;
    this.hiddenStates = hiddenStates;
    this.gather = gather;
    this.resident = resident;
    this.residentDraft = residentDraft;
    this.decoder = decoder;
    this.draft = draft;
    this.hidden = hidden;
    this.vocab = vocab;
    this.maxPositions = maxPositions;
  }

  /** The same graphs with another draft step (or none): to compare draft heads on one decoder. */
  withDraft(draft: SessionLike | undefined): StepForward {
    const { prefillDraft: _, ...options } = this.#options;
    // The decoder sessions are shared: they keep fetching what they fetched.
    return new StepForward({ ...options, draft, hiddenStates: this.hiddenStates });
  }

  /** A decoder pass: each row is written at its position and attends to every slot up to it. */
  async decode(cache: KvBuffers, inputs: DecoderStepInputs): Promise<DecoderStepOutput> {
    const { embeds, steps, positions, logitRows } = inputs;
    const B = positions.length / steps;
    const feeds = {
      ...cache.feeds(),
      inputs_embeds: tensor('float32', embeds, [B, steps, this.hidden]),
      position_ids: ids(positions, [B, steps]),
      logits_rows: this.#logitRows(logitRows),
    };
    const session = this.decoder;
    const names = cacheOutputs(cache, this.resident);
    const fetched = ['logits', ...(this.hiddenStates ? ['hidden_states'] : []), ...names.written, ...names.present];
    const out = await session.run(feeds, Object.fromEntries(fetched.map((n) => [n, null])));
    const result = {
      logits: await floats(out, 'logits', session.path),
      hidden: this.hiddenStates ? await floats(out, 'hidden_states', session.path) : new Float32Array(0),
    };
    return { ...result, ...(await keep(cache, out, names, session.path)) };
  }

  /** The FastMTP draft: the pairs are read into the draft cache, then `k` proposals per sequence. */
  async propose(cache: KvBuffers, inputs: DraftStepInputs): Promise<DraftStepOutput> {
    if (this.draft === undefined) throw new InferenceError('FOLIO_MODEL_NO_DRAFT_HEAD', 'these step graphs have no draft head (mtp_step.onnx)');
    const { embeds, hidden, steps, positions, lastRows, k } = inputs;
    const B = lastRows.length;
    const feeds = {
      ...cache.feeds(),
      inputs_embeds: tensor('float32', embeds, [B, steps, this.hidden]),
      previous_hidden: tensor('float32', hidden, [B, steps, this.hidden]),
      position_ids: ids(positions, [B, steps]),
      last_row: ids(lastRows, [B]),
      draft_k: tensor('int64', BigInt64Array.of(BigInt(k)), []),
    };
    const session = cache.resident ? this.draft : (this.#options.prefillDraft ?? this.draft);
    const names = cacheOutputs(cache, this.residentDraft && session === this.draft);
    const out = await session.run(feeds, Object.fromEntries(['draft_ids', ...names.written, ...names.present].map((n) => [n, null])));
    const idsOut = out.draft_ids;
    const data = idsOut === undefined ? undefined : idsOut.location === 'cpu' ? idsOut.data : await idsOut.getData(true);
    if (!(data instanceof BigInt64Array) || data.length !== B * k)
      throw new InferenceError('FOLIO_MODEL_OUTPUT', `${session.path}: expected \`draft_ids\` [${B},${k}] int64`);
    return {
      ids: Array.from({ length: B }, (_, b) => Array.from(data.subarray(b * k, (b + 1) * k), Number)),
      ...(await keep(cache, out, names, session.path)),
    };
  }

  #logitRows(rows: readonly number[]): Tensor {
    const key = rows.join(',');
    let t = this.#rows.get(key);
    if (t === undefined) {
      t = ids(rows, [rows.length]);
      if (this.#rows.size < 64) this.#rows.set(key, t);
    }
    return t;
  }
}

/** The output holding the rows a pass wrote into the cache output `present` (`present.0.key` → `written.0.key`). */
export function writtenName(present: string): string {
  return present.replace(/^present\./, 'written.');
}

/**
 * The cache outputs a pass fetches: always the rows it wrote (`written.*`, named after `present.*`),
 * and the whole updated cache (`present.*`) when the session leaves it in the device's memory.
 * The set must not change from run to run of a session: onnxruntime-node's output binding keeps an
 * output that a run did not fetch bound to the last one's shape, and the next run that writes it
 * fails ("Tensor size mismatch"; measured with 1.30 on WebGPU).
 */
function cacheOutputs(cache: KvBuffers, onDevice: boolean): { written: string[]; present: string[] } {
  const present = cache.presentNames();
  return { written: present.map(writtenName), present: onDevice ? present : [] };
}

/**
 * A resident cache adopts `present.*` and needs no rows (the written ones are left on the device
 * and released); any other gets the written rows for `KvBuffers.write` and releases `present.*` if
 * fetched.
 */
async function keep(
  cache: KvBuffers,
  out: Readonly<Record<string, Tensor>>,
  names: { written: string[]; present: string[] },
  path: string,
): Promise<{ written: Float32Array[] }> {
  const fetched = (n: string) => {
    const t = out[n];
    if (t === undefined) throw new InferenceError('FOLIO_MODEL_OUTPUT', `${path}: the model returned no \`${n}\``);
    return t;
  };
  const present = names.present.map(fetched);
  if (!cache.resident) {
    for (const t of present) t.dispose();
    return { written: await Promise.all(names.written.map((n) => floats(out, n, path))) };
  }
  if (present.length === 0) throw new InferenceError('FOLIO_MODEL_OUTPUT', `${path}: a resident cache needs \`present.*\` (StepForward \`resident\`)`);
  cache.adopt(present);
  for (const n of names.written) fetched(n).dispose();
  return { written: [] };
}

function ids(values: readonly number[], dims: readonly number[]): Tensor {
  const data = new BigInt64Array(values.length);
  for (let i = 0; i < values.length; i++) data[i] = BigInt(values[i]!);
  return tensor('int64', data, dims);
}

/** An output as a host array; one the provider left in its memory is downloaded (and released). */
async function floats(out: Readonly<Record<string, Tensor>>, name: string, path: string): Promise<Float32Array> {
  const t = out[name];
  if (t === undefined || t.type !== 'float32') throw new InferenceError('FOLIO_MODEL_OUTPUT', `${path}: the model returned no float32 \`${name}\``);
  if (t.location === 'cpu') return t.data as Float32Array;
  const data = (await t.getData(true)) as Float32Array;
  return data;
}
