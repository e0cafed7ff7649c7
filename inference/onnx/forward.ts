/**
 * One forward pass of each network of a model folder, with feeds built from the KV cache:
 * `embed_tokens.onnx` (memoised per id), `decoder.onnx` and `mtp.onnx` (the FastMTP draft block).
 * Callers see plain arrays; tensors stay inside this file and `runtime/ort.ts`.
 */

import { InferenceError } from '../../core/errors.ts';
import type { Tensor } from '../runtime/ort.ts';
import { tensor } from '../runtime/ort.ts';
import type { KvCache } from './kv-cache.ts';

/** What the decoding loop needs from a session: `OnnxSession` fits, and so does a test double. */
export interface SessionLike {
  readonly path: string;
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  /**
   * `fetches` names the outputs wanted (`null`: the runtime allocates; a tensor: the output is
   * written into it).
   */
  run(feeds: Readonly<Record<string, Tensor>>, fetches?: Readonly<Record<string, Tensor | null>>): Promise<Record<string, Tensor>>;
}

/** Input and output names of the three networks (ARCHITECTURE.md's contract by default). */
export interface NetworkNames {
  readonly inputIds: string;
  readonly inputsEmbeds: string;
  readonly previousHidden: string;
  readonly attentionMask: string;
  readonly positionIds: string;
  readonly logits: string;
  readonly hiddenStates: string;
}

export const DEFAULT_NAMES: NetworkNames = {
  inputIds: 'input_ids',
  inputsEmbeds: 'inputs_embeds',
  previousHidden: 'previous_hidden',
  attentionMask: 'attention_mask',
  positionIds: 'position_ids',
  logits: 'logits',
  hiddenStates: 'hidden_states',
};

/** Output of a decoder or draft pass over `steps` rows per sequence. */
export interface PassOutput {
  /** [B, steps, vocab] */
  readonly logits: Float32Array;
  /** [B, steps, hidden] */
  readonly hidden: Float32Array;
}

export interface StepInputs {
  /** [B, steps, hidden] embeddings of the new tokens. */
  readonly embeds: Float32Array;
  readonly steps: number;
  /** [B, steps] position id of every new token. */
  readonly positions: readonly number[];
  /** [B, steps] 1 for a real token, 0 for padding (masked for everyone, dropped from the cache). */
  readonly valid: Uint8Array;
}

export interface ForwardOptions {
  readonly decoder: SessionLike;
  readonly embed: SessionLike;
  readonly mtp?: SessionLike;
  readonly hidden: number;
  readonly vocab: number;
  readonly names?: NetworkNames;
  /** Element type of `attention_mask`. @default 'int64' */
  readonly maskType?: 'int64' | 'int32' | 'bool' | 'float32';
}

/**
 * @example
 * const forward = new Forward({ decoder, embed, mtp, hidden: 64, vocab: 512 });
 * const { logits, hidden } = await forward.decode(cache, { embeds, steps: 2, positions: [80, 81], valid });
 */
export class Forward {
  readonly hidden: number;
  readonly vocab: number;
  readonly decoder: SessionLike;
  readonly mtp: SessionLike | undefined;
  readonly #embed: SessionLike;
  readonly #names: NetworkNames;
  readonly #maskType: 'int64' | 'int32' | 'bool' | 'float32';
  /** Embedding rows are a lookup: memoising them saves one session call per step. */
  readonly #rows = new Map<number, Float32Array>();
  /** Rows kept at most (a page uses a few thousand ids; a full large vocabulary would be gigabytes). */
  static readonly MEMO_ROWS = 32768;

  constructor(options: Readonly<ForwardOptions>) {
    const { decoder, embed, mtp, hidden, vocab, names = DEFAULT_NAMES, maskType = 'int64' } = options;
    this.decoder = decoder;
    this.mtp = mtp;
    this.#embed = embed;
    this.hidden = hidden;
    this.vocab = vocab;
    this.#names = names;
    this.#maskType = maskType;
  }

  /** The same networks with another draft head (or none): to compare draft heads on one decoder. */
  withDraft(mtp: SessionLike | undefined): Forward {
    return new Forward({
      decoder: this.decoder,
      embed: this.#embed,
      mtp,
      hidden: this.hidden,
      vocab: this.vocab,
      names: this.#names,
      maskType: this.#maskType,
    });
  }

  /** Embeddings of `ids`, row after row: [ids.length, hidden]. */
  async embed(ids: readonly number[]): Promise<Float32Array> {
    let missing = [...new Set(ids.filter((id) => !this.#rows.has(id)))];
    if (this.#rows.size + missing.length > Forward.MEMO_ROWS) {
      this.#rows.clear();
      missing = [...new Set(ids)];
    }
    if (missing.length > 0) {
      const out = await this.#embed.run({ [this.#names.inputIds]: tensor('int64', BigInt64Array.from(missing, BigInt), [1, missing.length]) });
      const data = floats(out, this.#names.inputsEmbeds, this.#embed.path);
      missing.forEach((id, i) => this.#rows.set(id, data.slice(i * this.hidden, (i + 1) * this.hidden)));
    }
    const result = new Float32Array(ids.length * this.hidden);
    ids.forEach((id, i) => result.set(this.#rows.get(id)!, i * this.hidden));
    return result;
  }

  /** A decoder pass: new tokens attend to the cache and to each other (causally); the cache takes the new slots. */
  async decode(cache: KvCache, inputs: StepInputs): Promise<PassOutput> {
    return this.#pass(this.decoder, cache, inputs, {});
  }

  /** A draft pass: `previousHidden` [B, steps, hidden] is the state the draft block reads beside each embedding. */
  async draft(cache: KvCache, inputs: StepInputs, previousHidden: Float32Array): Promise<PassOutput> {
    if (this.mtp === undefined) throw new InferenceError('FOLIO_MODEL_NO_DRAFT_HEAD', 'this model has no draft head');
    const B = cache.batch;
    const extra = { [this.#names.previousHidden]: tensor('float32', previousHidden, [B, inputs.steps, this.hidden]) };
    return this.#pass(this.mtp, cache, inputs, extra);
  }

  async #pass(session: SessionLike, cache: KvCache, inputs: StepInputs, extra: Record<string, Tensor>): Promise<PassOutput> {
    const { embeds, steps, positions, valid } = inputs;
    const B = cache.batch;
    const mask = cache.attentionMask(valid, steps);
    const feeds: Record<string, Tensor> = {
      ...extra,
      ...cache.pastFeeds(),
      [this.#names.inputsEmbeds]: tensor('float32', embeds, [B, steps, this.hidden]),
      [this.#names.attentionMask]: this.#maskTensor(mask, [B, cache.length + steps]),
      [this.#names.positionIds]: tensor('int64', BigInt64Array.from(positions, BigInt), [B, steps]),
    };
    const out = await session.run(feeds);
    cache.update(out, valid, steps);
    return { logits: floats(out, this.#names.logits, session.path), hidden: floats(out, this.#names.hiddenStates, session.path) };
  }

  #maskTensor(mask: Uint8Array, dims: readonly number[]): Tensor {
    switch (this.#maskType) {
      case 'int64': {
        // A plain loop: `BigInt64Array.from(mask, BigInt)` boxes a BigInt per slot, every step.
        const data = new BigInt64Array(mask.length);
        for (let i = 0; i < mask.length; i++) if (mask[i] === 1) data[i] = 1n;
        return tensor('int64', data, dims);
      }
      case 'int32':
        return tensor('int32', Int32Array.from(mask), dims);
      case 'float32':
        return tensor('float32', Float32Array.from(mask), dims);
      case 'bool':
        return tensor(
          'bool',
          Array.from(mask, (m) => m === 1),
          dims,
        );
    }
  }
}

function floats(out: Readonly<Record<string, Tensor>>, name: string, path: string): Float32Array {
  const t = out[name];
  if (t === undefined) throw new InferenceError('FOLIO_MODEL_OUTPUT', `${path}: the model returned no \`${name}\``);
  if (!(t.data instanceof Float32Array))
    throw new InferenceError(
      'FOLIO_MODEL_OUTPUT',
      `${path}: \`${name}\` is ${t.type}, expected float32 (logits are compared in fp32 for the lossless guarantee)`,
    );
  return t.data;
}
