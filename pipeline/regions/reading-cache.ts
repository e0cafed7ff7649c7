/**
 * Readings of image crops kept with the engine that made them, across every document it reads:
 * the letterhead, logo or stamp an organisation puts on every document is read once per run, not
 * once per document. One cache per engine object, so two engines (or two settings of one) never
 * share a reading. Bounded: past {@link MAX_READINGS} the least recently used reading goes.
 */
import { Lru } from '../../core/lru.ts';
import type { OcrEngine, OcrPageResult } from '../../inference/engine.ts';

/** Readings kept (each a few kilobytes: the crop's Markdown and lines). */
const MAX_READINGS = 2048;

/** What `readRegions` needs of a cache of readings: a `Map`, or the engine's own {@link Lru}. */
export interface ReadingCache {
  get(key: string): OcrPageResult | undefined;
  set(key: string, reading: OcrPageResult): unknown;
}

const caches = new WeakMap<OcrEngine, ReadingCache>();

/**
 * The crop readings `engine` has made, keyed by `readRegions` with the crop's size and pixel hash.
 *
 * @example
 * const cache = readingCacheOf(engine); // the same cache for every document this engine reads
 */
export function readingCacheOf(engine: OcrEngine): ReadingCache {
  let cache = caches.get(engine);
  if (cache === undefined) {
    cache = new Lru<OcrPageResult>({ maxEntries: MAX_READINGS });
    caches.set(engine, cache);
  }
  return cache;
}
