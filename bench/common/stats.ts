/** Small statistics for benchmarks: medians over repeated runs and peak memory. */

/**
 * The median of a list of numbers (mean of the middle two for an even count), NaN when empty.
 *
 * @example
 * median([3, 1, 2]) // 2
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = values.toSorted((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Peak resident set size of this process so far, in MiB. */
export function peakRssMiB(): number {
  // maxRSS is in kilobytes.
  return Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
}

/** Round for display: 3 significant digits, at most 3 decimals. */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export interface TimedRuns {
  readonly runsMs: readonly number[];
  readonly medianMs: number;
}

export interface TimeRunsOptions {
  /**
   * Timed runs after the warm-up.
   * @default 3
   */
  readonly runs?: number;
  /**
   * Untimed warm-up runs (JIT, file cache).
   * @default 1
   */
  readonly warmup?: number;
}

/**
 * Run `fn` a few times and return each duration and the median.
 *
 * @example
 * const { medianMs } = await timeRuns(() => work(), { runs: 5 })
 */
export async function timeRuns(fn: () => Promise<unknown>, { runs = 3, warmup = 1 }: Readonly<TimeRunsOptions> = {}): Promise<TimedRuns> {
  if (!Number.isInteger(runs) || runs < 1) throw new RangeError(`Expected \`runs\` to be an integer from 1 up, got \`${runs}\` (${typeof runs})`);
  for (let i = 0; i < warmup; i++) await fn();
  const runsMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    runsMs.push(performance.now() - start);
  }
  return { runsMs, medianMs: median(runsMs) };
}
