/**
 * A batched key/value cache for a decoder exported with "past in, present out" (ARCHITECTURE.md):
 * the model concatenates `past_key_values.*` [B,kv,P,d] with the new keys and returns
 * `present.*` [B,kv,P+S,d]. The cache keeps those arrays plus a validity bit per slot and
 * sequence; the attention mask the model reads is built from those bits, so a slot that was
 * rolled back is simply masked.
 *
 * Speculative decoding writes K+1 slots per step and keeps 1..K+1 of them. {@link KvCache.rollback}
 * clears the rejected slots and trims trailing slots no sequence uses, so at batch 1 the cache after
 * a step holds exactly the accepted tokens, in the same layout greedy decoding produces: the
 * attention reductions then run over the same keys in the same order in both paths.
 * In a batch the sequences accept different counts and the shorter ones keep masked holes;
 * {@link KvCache.compact} packs them once holes pass a fraction of the cache.
 */

import { InferenceError } from '../../core/errors.ts';
import type { Tensor } from '../runtime/ort.ts';
import { tensor } from '../runtime/ort.ts';

/** fp32 caches, or fp16 ones kept as raw 16-bit words (only copied, never read). */
export type KvArray = Float32Array | Uint16Array;

export interface KvCacheOptions {
  /** Sequences in the batch. */
  readonly batch: number;
  /** One entry per layer: the input names of its past key and value and the output names of its present key and value. */
  readonly layers: readonly KvLayerNames[];
  readonly kvHeads: number;
  readonly headDim: number;
  /** Element type of the cache tensors. @default 'float32' */
  readonly dtype?: 'float32' | 'float16';
}

export interface KvLayerNames {
  readonly pastKey: string;
  readonly pastValue: string;
  readonly presentKey: string;
  readonly presentValue: string;
}

/**
 * @example
 * const cache = new KvCache({ batch: 1, layers, kvHeads: 2, headDim: 64 });
 * const out = await decoder.run({ ...cache.pastFeeds(), attention_mask, … });
 * cache.update(out, valid, steps);
 * cache.rollback([accepted + 1], steps);
 */
export class KvCache {
  readonly kvHeads: number;
  readonly headDim: number;
  readonly dtype: 'float32' | 'float16';
  readonly layers: readonly KvLayerNames[];
  #batch: number;
  #length = 0;
  #keys: KvArray[];
  #values: KvArray[];
  /** [batch × length] 1 where a sequence may attend to the slot. */
  #valid: Uint8Array = new Uint8Array(0);

  constructor(options: Readonly<KvCacheOptions>) {
    const { batch, layers, kvHeads, headDim, dtype = 'float32' } = options;
    this.#batch = batch;
    this.layers = layers;
    this.kvHeads = kvHeads;
    this.headDim = headDim;
    this.dtype = dtype;
    this.#keys = layers.map(() => this.#alloc(0));
    this.#values = layers.map(() => this.#alloc(0));
  }

  get batch(): number {
    return this.#batch;
  }

  /** Slots per sequence (valid or not): the `P` of the next forward pass. */
  get length(): number {
    return this.#length;
  }

  /** Valid slots of one sequence. */
  validCount(b: number): number {
    let n = 0;
    for (let i = 0; i < this.#length; i++) n += this.#valid[b * this.#length + i]!;
    return n;
  }

  /** Whether slot `i` of sequence `b` is attended to. */
  isValid(b: number, i: number): boolean {
    return this.#valid[b * this.#length + i] === 1;
  }

  /** The `past_key_values.*` feeds for the next forward pass. */
  pastFeeds(): Record<string, Tensor> {
    const dims = [this.#batch, this.kvHeads, this.#length, this.headDim];
    const feeds: Record<string, Tensor> = {};
    this.layers.forEach((names, i) => {
      feeds[names.pastKey] = tensor(this.dtype, this.#keys[i]!, dims);
      feeds[names.pastValue] = tensor(this.dtype, this.#values[i]!, dims);
    });
    return feeds;
  }

  /**
   * The `[B, P+S]` attention mask for a pass of `S` new tokens: the cache's validity bits, then
   * `newValid` (row-major [B,S]) for the new tokens.
   */
  attentionMask(newValid: Uint8Array, steps: number): Uint8Array {
    const P = this.#length;
    const mask = new Uint8Array(this.#batch * (P + steps));
    for (let b = 0; b < this.#batch; b++) {
      mask.set(this.#valid.subarray(b * P, (b + 1) * P), b * (P + steps));
      mask.set(newValid.subarray(b * steps, (b + 1) * steps), b * (P + steps) + P);
    }
    return mask;
  }

  /**
   * Take the `present.*` outputs of a pass of `steps` tokens as the new cache; `newValid`
   * ([B,steps]) says which new slots hold real tokens.
   */
  update(outputs: Readonly<Record<string, Tensor>>, newValid: Uint8Array, steps: number): void {
    const P = this.#length;
    const L = P + steps;
    this.layers.forEach((names, i) => {
      this.#keys[i] = this.#present(outputs, names.presentKey, L);
      this.#values[i] = this.#present(outputs, names.presentValue, L);
    });
    const valid = new Uint8Array(this.#batch * L);
    for (let b = 0; b < this.#batch; b++) {
      valid.set(this.#valid.subarray(b * P, (b + 1) * P), b * L);
      valid.set(newValid.subarray(b * steps, (b + 1) * steps), b * L + P);
    }
    this.#valid = valid;
    this.#length = L;
  }

  /**
   * Keep only the first `keep[b]` of the last `steps` slots of each sequence (the accepted
   * tokens), then, with `trim`, drop trailing slots that no sequence uses any more (one copy of
   * the cache; without it the slots stay as masked holes until {@link KvCache.compact}).
   */
  rollback(keep: readonly number[], steps: number, trim = true): void {
    const L = this.#length;
    for (let b = 0; b < this.#batch; b++) {
      const k = keep[b] ?? 0;
      for (let j = k; j < steps; j++) this.#valid[b * L + L - steps + j] = 0;
    }
    if (!trim) return;
    let end = L;
    while (end > 0 && !this.#anyValidAt(end - 1)) end--;
    if (end < L) this.#resize(end);
  }

  /**
   * Pack each sequence's valid slots to the right end when holes exceed `maxHoleFraction` of the
   * cache. Order is kept, so attention reads the same keys; positions travel in `position_ids`,
   * not in slot indices, so moving a slot changes nothing the model computes.
   */
  compact(maxHoleFraction = 0.25): boolean {
    const L = this.#length;
    let maxValid = 0;
    let total = 0;
    for (let b = 0; b < this.#batch; b++) {
      const n = this.validCount(b);
      total += n;
      maxValid = Math.max(maxValid, n);
    }
    const holes = this.#batch * L - total;
    if (L === 0 || holes <= maxHoleFraction * this.#batch * L) return false;
    const sources: number[][] = [];
    for (let b = 0; b < this.#batch; b++) {
      const slots: number[] = [];
      for (let i = 0; i < L; i++) if (this.#valid[b * L + i]) slots.push(i);
      sources.push(slots);
    }
    this.#gather(maxValid, sources);
    return true;
  }

  /** Keep only the sequences at `rows` (finished pages leave the batch). */
  select(rows: readonly number[]): void {
    const L = this.#length;
    const keepLayer = (src: KvArray): KvArray => {
      const per = this.kvHeads * L * this.headDim;
      const dst = this.#alloc(rows.length * per);
      rows.forEach((row, j) => dst.set(src.subarray(row * per, (row + 1) * per), j * per));
      return dst;
    };
    this.#keys = this.#keys.map(keepLayer);
    this.#values = this.#values.map(keepLayer);
    const valid = new Uint8Array(rows.length * L);
    rows.forEach((row, j) => valid.set(this.#valid.subarray(row * L, (row + 1) * L), j * L));
    this.#valid = valid;
    this.#batch = rows.length;
  }

  /**
   * Stack single-sequence caches (each prefilled alone) into one batch, right-aligned: shorter
   * sequences get masked slots on the left.
   */
  static stack(caches: readonly KvCache[]): KvCache {
    const first = caches[0];
    if (first === undefined) throw new InferenceError('FOLIO_DECODE_STATE', 'KvCache.stack needs at least one cache');
    const L = Math.max(...caches.map((c) => c.length));
    const out = new KvCache({ batch: caches.length, layers: first.layers, kvHeads: first.kvHeads, headDim: first.headDim, dtype: first.dtype });
    const per = first.kvHeads * L * first.headDim;
    const stackLayer = (pick: (c: KvCache) => KvArray): KvArray => {
      const dst = out.#alloc(caches.length * per);
      caches.forEach((c, b) => {
        const pad = L - c.length;
        const src = pick(c);
        for (let h = 0; h < first.kvHeads; h++) {
          const from = h * c.length * first.headDim;
          dst.set(src.subarray(from, from + c.length * first.headDim), b * per + (h * L + pad) * first.headDim);
        }
      });
      return dst;
    };
    out.#keys = first.layers.map((_, i) => stackLayer((c) => c.#keys[i]!));
    out.#values = first.layers.map((_, i) => stackLayer((c) => c.#values[i]!));
    out.#valid = new Uint8Array(caches.length * L);
    caches.forEach((c, b) => out.#valid.set(c.#valid.subarray(0, c.length), b * L + L - c.length));
    out.#length = L;
    return out;
  }

  /** Drop the arrays; the cache is empty afterwards. */
  dispose(): void {
    this.#keys = this.layers.map(() => this.#alloc(0));
    this.#values = this.layers.map(() => this.#alloc(0));
    this.#valid = new Uint8Array(0);
    this.#length = 0;
  }

  #anyValidAt(i: number): boolean {
    for (let b = 0; b < this.#batch; b++) if (this.#valid[b * this.#length + i]) return true;
    return false;
  }

  #alloc(n: number): KvArray {
    return this.dtype === 'float16' ? new Uint16Array(n) : new Float32Array(n);
  }

  #present(outputs: Readonly<Record<string, Tensor>>, name: string, L: number): KvArray {
    const t = outputs[name];
    if (t === undefined) throw new InferenceError('FOLIO_MODEL_OUTPUT', `the model returned no \`${name}\``);
    const expected = this.#batch * this.kvHeads * L * this.headDim;
    const data = t.data as KvArray;
    if (data.length !== expected)
      throw new InferenceError('FOLIO_MODEL_OUTPUT', `\`${name}\` has ${data.length} values, expected [${this.#batch},${this.kvHeads},${L},${this.headDim}]`);
    return data;
  }

  /** Truncate every sequence to its first `end` slots. */
  #resize(end: number): void {
    const slots = Array.from({ length: end }, (_, i) => i);
    this.#gather(
      end,
      Array.from({ length: this.#batch }, () => slots),
    );
  }

  /** Rebuild with `L` slots per sequence; sequence b's slots come from `sources[b]`, right-aligned. */
  #gather(L: number, sources: readonly (readonly number[])[]): void {
    const oldL = this.#length;
    const d = this.headDim;
    const move = (src: KvArray): KvArray => {
      const dst = this.#alloc(this.#batch * this.kvHeads * L * d);
      for (let b = 0; b < this.#batch; b++) {
        const slots = sources[b]!;
        const pad = L - slots.length;
        for (let h = 0; h < this.kvHeads; h++) {
          const srcBase = (b * this.kvHeads + h) * oldL;
          const dstBase = (b * this.kvHeads + h) * L + pad;
          // Runs of consecutive slots move in one `set`: the common case is one run per head.
          let j = 0;
          while (j < slots.length) {
            let run = 1;
            while (j + run < slots.length && slots[j + run] === slots[j]! + run) run++;
            const from = (srcBase + slots[j]!) * d;
            dst.set(src.subarray(from, from + run * d), (dstBase + j) * d);
            j += run;
          }
        }
      }
      return dst;
    };
    this.#keys = this.#keys.map(move);
    this.#values = this.#values.map(move);
    const valid = new Uint8Array(this.#batch * L);
    for (let b = 0; b < this.#batch; b++) {
      const slots = sources[b]!;
      const pad = L - slots.length;
      slots.forEach((s, j) => {
        valid[b * L + pad + j] = this.#valid[b * oldL + s]!;
      });
    }
    this.#valid = valid;
    this.#length = L;
  }
}
