/**
 * A least-recently-used map bounded by entry count and by a size the caller assigns (bytes): the
 * web app's rendered pages and analysed documents (a viewer revisits the same few pages), an OCR
 * engine's readings of image crops.
 */
export interface LruOptions {
  /** @default 64 */
  readonly maxEntries?: number;
  /** @default Infinity */
  readonly maxSize?: number;
}

export class Lru<V> {
  readonly #entries = new Map<string, { value: V; size: number }>();
  readonly #maxEntries: number;
  readonly #maxSize: number;
  #size = 0;

  constructor(options: Readonly<LruOptions> = {}) {
    this.#maxEntries = options.maxEntries ?? 64;
    this.#maxSize = options.maxSize ?? Infinity;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    // Re-inserting moves the key to the end: Map keeps insertion order, the oldest comes first.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, size = 0): void {
    this.delete(key);
    this.#entries.set(key, { value, size });
    this.#size += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#size <= this.#maxSize) break;
      if (oldest === key) break;
      this.#entries.delete(oldest);
      this.#size -= entry.size;
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#size -= entry.size;
  }

  get size(): number {
    return this.#entries.size;
  }
}
