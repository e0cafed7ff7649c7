/**
 * A seeded random source for the scan degrader: the same seed gives the same dev set on every
 * machine, so a CER figure can be reproduced and compared across commits.
 */

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [lo, hi). */
  uniform(lo: number, hi: number): number;
  /** Standard normal (Box–Muller). */
  gaussian(): number;
  /** One of `items`, uniformly. */
  pick<T>(items: readonly T[]): T;
}

/**
 * Mulberry32 seeded with a string (FNV-1a of it), so each page can have its own stream derived
 * from the set's seed and the page's name: adding a document does not reshuffle the others.
 *
 * @example
 * const r = seededRandom('folio-scans-1/eu-001.pdf#2'); r.uniform(-2, 2);
 */
export function seededRandom(seed: string): Random {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  let state = h;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let spare: number | undefined;
  return {
    next,
    uniform: (lo, hi) => lo + (hi - lo) * next(),
    gaussian() {
      if (spare !== undefined) {
        const s = spare;
        spare = undefined;
        return s;
      }
      const u = Math.max(next(), 1e-12);
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}
