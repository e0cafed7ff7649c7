/**
 * Readings of image crops kept with the engine that made them, across every document it reads:
 * the letterhead, logo or stamp an organisation puts on every document is read once per run, not
 * once per document. One cache per engine object, so two engines (or two settings of one) never
 * share a reading. Bounded: past {@link MAX_READINGS} the oldest reading goes.
 */
import type { OcrEngine, OcrPageResult } from '../../inference/engine.ts';

/** Readings kept (each a few kilobytes: the crop's Markdown and lines). */
const MAX_READINGS = 2048;

/** A Map that forgets its oldest entry once it holds `limit`. */
class BoundedMap<K, V> extends Map<K, V> {
  readonly #limit: number;

  constructor(limit: number) {
    super();
    this.#limit = limit;
  }

  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.#limit) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
  }
}

const caches = new WeakMap<OcrEngine, Map<string, OcrPageResult>>();

/**
 * The crop readings `engine` has made, keyed by `readRegions` with the crop's size and pixel hash.
 *
 * @example
 * const cache = readingCacheOf(engine); // the same Map for every document this engine reads
 */
export function readingCacheOf(engine: OcrEngine): Map<string, OcrPageResult> {
  let cache = caches.get(engine);
  if (cache === undefined) {
    cache = new BoundedMap<string, OcrPageResult>(MAX_READINGS);
    caches.set(engine, cache);
  }
  return cache;
}
