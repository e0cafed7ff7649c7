/**
 * One pass of each optional step graph (folio-model.json → `onnx.decoder_step`, `onnx.mtp_step`;
 * written by inference/model/folio_ocr/onnx_steps.py) over fixed-capacity {@link KvBuffers}: the
 * buffers go in as they are, the rows the pass wrote come back (`written`) for the caller to put
 * into a buffer. Callers see plain arrays; tensors stay inside this file and `runtime/ort.ts`.
 */
import type { Tensor } from '../runtime/ort.ts';
import { tensor } from '../runtime/ort.ts';
import type { SessionLike } from './forward.ts';
import type { KvBuffers } from './kv-buffer.ts';

export interface StepForwardOptions {
  /** `decoder_step.onnx`. */
  readonly decoder: SessionLike;
  /** `mtp_step.onnx`; without it the step graphs decode greedily only. */
  readonly draft?: SessionLike;
  readonly hidden: number;
  readonly vocab: number;
  /** Positions the graphs can encode (their RoPE table): a buffer's capacity must not exceed it. */
  readonly maxPositions: number;
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
  /** [B, steps, hidden] */
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
  /** `logits_rows` tensors by row list: the same few lists come back every step. */
  readonly #rows = new Map<string, Tensor>();

  constructor(options: Readonly<StepForwardOptions>) {
    const { decoder, draft, hidden, vocab, maxPositions } = options;
    this.decoder = decoder;
    this.draft = draft;
    this.hidden = hidden;
    this.vocab = vocab;
    this.maxPositions = maxPositions;
  }

  /** The same graphs with another draft step (or none): to compare draft heads on one decoder. */
  withDraft(draft: SessionLike | undefined): StepForward {
    return new StepForward({ decoder: this.decoder, draft, hidden: this.hidden, vocab: this.vocab, maxPositions: this.maxPositions });
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
    const names = writtenNames(cache);
    const out = await this.decoder.run(feeds, Object.fromEntries(['logits', 'hidden_states', ...names].map((n) => [n, null])));
    return { logits: floats(out, 'logits', this.decoder.path), hidden: floats(out, 'hidden_states', this.decoder.path), written: names.map((n) => floats(out, n, this.decoder.path)) };
  }

  /** The FastMTP draft: the pairs are read into the draft cache, then `k` proposals per sequence. */
  async propose(cache: KvBuffers, inputs: DraftStepInputs): Promise<DraftStepOutput> {
    if (this.draft === undefined) throw new RangeError('these step graphs have no draft head (mtp_step.onnx)');
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
    const names = writtenNames(cache);
    const out = await this.draft.run(feeds, Object.fromEntries(['draft_ids', ...names].map((n) => [n, null])));
    const data = out.draft_ids?.data;
    if (!(data instanceof BigInt64Array) || data.length !== B * k) throw new RangeError(`${this.draft.path}: expected \`draft_ids\` [${B},${k}] int64`);
    const draft = this.draft;
    return { ids: Array.from({ length: B }, (_, b) => Array.from(data.subarray(b * k, (b + 1) * k), Number)), written: names.map((n) => floats(out, n, draft.path)) };
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

/** `written.*`: the rows a pass wrote, named after the cache's `present.*` outputs. */
function writtenNames(cache: KvBuffers): string[] {
  return cache.layers.flatMap((l) => [l.presentKey, l.presentValue]).map((n) => n.replace(/^present\./, 'written.'));
}

function ids(values: readonly number[], dims: readonly number[]): Tensor {
  const data = new BigInt64Array(values.length);
  for (let i = 0; i < values.length; i++) data[i] = BigInt(values[i]!);
  return tensor('int64', data, dims);
}

function floats(out: Readonly<Record<string, Tensor>>, name: string, path: string): Float32Array {
  const t = out[name];
  if (t === undefined || !(t.data instanceof Float32Array)) throw new RangeError(`${path}: the model returned no float32 \`${name}\``);
  return t.data;
}
