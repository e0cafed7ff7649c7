/**
 * Fixed-capacity key/value buffers for the step graphs (`decoder_step.onnx`, `mtp_step.onnx`):
 * one `[B, kv, C, d]` Float32Array per cache input, slot = position. Each pass reads the buffers as
 * `past_key_values.*` (onnxruntime reads that memory as it is: nothing copied in) and returns the
 * rows it wrote (`written.*`, `[B, kv, S, d]`), which {@link KvBuffers.write} puts at their
 * positions. A rejected draft needs no rollback: its slots lie past the positions later rows attend
 * to, and get overwritten.
 *
 * (The graphs also offer the whole updated cache as `present.*`, which onnxruntime writes in place
 * when it is bound to the past buffer; but onnxruntime-node copies every fetched output into a new
 * ArrayBuffer afterwards, and that measured slower than the graph's own copy of the cache.)
 *
 * Tensors over the buffers are built once per batch size and reused every step.
 *
 * **Resident mode** (`resident: true`, chosen for a GPU provider): there that copy is the whole
 * cost. Each step would bring every buffer to the CPU and send it back (about 74 MB each way for
 * folio-ocr-mini at batch 32), so the pass's `present.*` (the whole updated cache, left in the
 * device's memory) is {@link KvBuffers.adopt}ed and fed back as the next pass's
 * `past_key_values.*`: nothing crosses. The host arrays serve until the first adoption (the
 * prefilled prompts go up once); after it the device holds the only current copy, so a pass's
 * written rows are not fetched at all (each fetched output is one more wait for the device), and a
 * sequence leaving the batch (`select`) is dropped on the device by the `gather` model
 * (gather-rows.ts). On the CPU the same mode runs too, which is how tests check it gives the same ids.
 */

import { ConfigurationError, InferenceError } from '../../core/errors.ts';
import type { Tensor } from '../runtime/ort.ts';
import { tensor } from '../runtime/ort.ts';
import type { KvLayerNames } from './kv-cache.ts';

/** `tensors[i][rows]` along the batch axis, each result on the tensors' device. */
export type RowGather = (tensors: readonly Tensor[], rows: readonly number[]) => Promise<Tensor[]>;

export interface KvBuffersOptions {
  readonly batch: number;
  /** Slots per sequence: the largest position any pass writes, plus one. */
  readonly capacity: number;
  readonly layers: readonly KvLayerNames[];
  readonly kvHeads: number;
  readonly headDim: number;
  /** Also feed each pass's `present.*` back as the next pass's input (see above). @default false */
  readonly resident?: boolean;
  /** Resident mode: keeps the rows of the cache tensors at `rows`, on their device (`select`). */
  readonly gather?: RowGather;
}

/**
 * @example
 * const cache = new KvBuffers({ batch: 2, capacity: 600, layers, kvHeads: 2, headDim: 64 });
 * const out = await decoder.run({ ...inputs, ...cache.feeds() });
 * cache.write(layers.flatMap((l) => [written(out, l.presentKey), written(out, l.presentValue)]), steps, positions);
 */
export class KvBuffers {
  readonly capacity: number;
  readonly layers: readonly KvLayerNames[];
  readonly kvHeads: number;
  readonly headDim: number;
  readonly resident: boolean;
  readonly #gather: RowGather | undefined;
  #batch: number;
  /** Keys and values of each layer, in `layers` order. */
  #data: Float32Array[];
  #feeds: Record<string, Tensor> | undefined;
  /** Resident mode: the last pass's `present.*`, in `#data`'s order (which holds the same values). */
  #device: Tensor[] | undefined;

  constructor(options: Readonly<KvBuffersOptions>) {
    const { batch, capacity, layers, kvHeads, headDim, resident = false, gather } = options;
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`capacity\` to be an integer from 1 and up, got \`${capacity}\``);
    this.#batch = batch;
    this.capacity = capacity;
    this.layers = layers;
    this.kvHeads = kvHeads;
    this.headDim = headDim;
    this.resident = resident;
    this.#gather = gather;
    this.#data = layers.flatMap(() => [new Float32Array(batch * this.#rowSize), new Float32Array(batch * this.#rowSize)]);
  }

  get batch(): number {
    return this.#batch;
  }

  get #rowSize(): number {
    return this.kvHeads * this.capacity * this.headDim;
  }

  /** `past_key_values.*`: tensors over the first `batch` rows, or (resident) the last pass's `present.*`. */
  feeds(): Record<string, Tensor> {
    if (this.#device !== undefined) {
      const device = this.#device;
      return Object.fromEntries(
        this.layers.flatMap((names, i) => [
          [names.pastKey, device[2 * i]!],
          [names.pastValue, device[2 * i + 1]!],
        ]),
      );
    }
    if (this.#feeds === undefined) {
      const dims = [this.#batch, this.kvHeads, this.capacity, this.headDim];
      const n = this.#batch * this.#rowSize;
      const feeds: Record<string, Tensor> = {};
      this.layers.forEach((names, i) => {
        feeds[names.pastKey] = tensor('float32', this.#data[2 * i]!.subarray(0, n), dims);
        feeds[names.pastValue] = tensor('float32', this.#data[2 * i + 1]!.subarray(0, n), dims);
      });
      this.#feeds = feeds;
    }
    return this.#feeds;
  }

  /**
   * Put the rows a pass wrote at their positions: `rows` holds the keys then the values of each
   * layer, each `[B, kv, steps, d]`; `positions` is `[B, steps]`. `first` offsets the sequences
   * (a page prefilled alone goes to its row of the batch).
   */
  write(rows: readonly Float32Array[], steps: number, positions: readonly number[], first = 0): void {
    if (this.#device !== undefined)
      throw new InferenceError('FOLIO_DECODE_STATE', 'KvBuffers: the device holds this cache since adopt(); its host arrays take no more rows');
    const d = this.headDim;
    const C = this.capacity;
    const B = positions.length / steps;
    // A position past the capacity would land in the next sequence's rows (or past the array).
    for (const p of positions)
      if (!(p >= 0 && p < C)) throw new InferenceError('FOLIO_DECODE_STATE', `KvBuffers: position ${p} is outside the cache's ${C} slots`);
    if (rows.length !== this.#data.length)
      throw new InferenceError('FOLIO_MODEL_OUTPUT', `expected ${this.#data.length} arrays of written rows, got ${rows.length}`);
    for (let b = 0; b < B; b++) {
      const p0 = positions[b * steps]!;
      let run = true;
      for (let s = 1; s < steps && run; s++) run = positions[b * steps + s] === p0 + s;
      rows.forEach((src, i) => {
        if (src.length !== B * this.kvHeads * steps * d)
          throw new InferenceError('FOLIO_MODEL_OUTPUT', `written rows: ${src.length} values, expected [${B},${this.kvHeads},${steps},${d}]`);
        const dst = this.#data[i]!;
        for (let h = 0; h < this.kvHeads; h++) {
          const from = (b * this.kvHeads + h) * steps * d;
          const to = ((first + b) * this.kvHeads + h) * C * d;
          // The usual case, consecutive positions, is one copy per head.
          if (run) dst.set(src.subarray(from, from + steps * d), to + p0 * d);
          else for (let s = 0; s < steps; s++) dst.set(src.subarray(from + s * d, from + (s + 1) * d), to + positions[b * steps + s]! * d);
        }
      });
    }
  }

  /** The names a pass returns the whole updated cache under, in the order `adopt` takes them. */
  presentNames(): string[] {
    return this.layers.flatMap((l) => [l.presentKey, l.presentValue]);
  }

  /**
   * Resident mode: the pass's `present.*` (keys then values of each layer, `[B, kv, C, d]`) become
   * the next pass's input; the previous pass's tensors are disposed. From then on the device holds
   * the cache: `write` refuses rows, `select` gathers on the device.
   */
  adopt(present: readonly Tensor[]): void {
    if (!this.resident) throw new InferenceError('FOLIO_DECODE_STATE', 'KvBuffers: adopt() needs `resident: true`');
    if (present.length !== this.#data.length)
      throw new InferenceError('FOLIO_MODEL_OUTPUT', `expected ${this.#data.length} present tensors, got ${present.length}`);
    const dims = [this.#batch, this.kvHeads, this.capacity, this.headDim];
    for (const t of present)
      if (t.dims.length !== 4 || t.dims.some((d, i) => d !== dims[i]))
        throw new InferenceError('FOLIO_MODEL_OUTPUT', `present: [${t.dims.join(',')}], expected [${dims.join(',')}]`);
    this.#releaseDevice();
    this.#device = [...present];
  }

  /**
   * Keep only the sequences at `rows` (ascending): in the host arrays (rows move down in place), or,
   * once the device holds the cache, on the device with `gather`.
   */
  async select(rows: readonly number[]): Promise<void> {
    if (rows.length === this.#batch && rows.every((row, j) => row === j)) return;
    if (this.#device !== undefined) {
      if (this.#gather === undefined) throw new InferenceError('FOLIO_DECODE_STATE', 'KvBuffers: a resident cache needs `gather` to drop sequences');
      const kept = await this.#gather(this.#device, rows);
      this.#releaseDevice();
      this.#device = kept;
      this.#batch = rows.length;
      return;
    }
    const n = this.#rowSize;
    for (const data of this.#data) rows.forEach((row, j) => row !== j && data.copyWithin(j * n, row * n, (row + 1) * n));
    this.#batch = rows.length;
    this.#feeds = undefined;
  }

  /** Drop the buffers (and the device's). */
  dispose(): void {
    this.#releaseDevice();
    this.#data = [];
    this.#feeds = undefined;
    this.#batch = 0;
  }

  #releaseDevice(): void {
    for (const t of this.#device ?? []) t.dispose();
    this.#device = undefined;
    this.#feeds = undefined;
  }
}
