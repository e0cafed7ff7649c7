/**
 * The factory's text: real prose, headings, list items, code and tables from the READMEs the
 * lockfile pins ({@link harvestReadmes}), and numbers, dates and names drawn per document.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Random } from '../../scans/random.ts';
import { harvestReadmes, type ReadmeHarvest } from './readmes.ts';

export interface Corpus extends ReadmeHarvest {
  /** `count` distinct items of `pool`, drawn with `random`. */
  draw<T>(random: Random, pool: readonly T[], count: number): T[];
}

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let cached: Promise<Corpus> | undefined;

/** The corpus, harvested once per process. */
export function loadCorpus(nodeModules = path.join(ROOT, 'node_modules')): Promise<Corpus> {
  cached ??= harvestReadmes(nodeModules).then((h) => ({
    ...h,
    draw<T>(random: Random, pool: readonly T[], count: number): T[] {
      const out: T[] = [];
      const taken = new Set<number>();
      const n = Math.min(count, pool.length);
      while (out.length < n) {
        const i = Math.floor(random.next() * pool.length);
        if (taken.has(i)) continue;
        taken.add(i);
        out.push(pool[i]!);
      }
      return out;
    },
  }));
  return cached;
}

export { isProse } from './readmes.ts';
