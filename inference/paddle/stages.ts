/**
 * Milliseconds per stage of one page (detection input, detection run, DB boxes, classifier,
 * crops, recognition runs, decoding, layout), so a profile says where a page's time goes
 * without a profiler attached. Stages add up when they run more than once (a turned page is
 * detected twice).
 */
export type StageTimes = Record<string, number>;

/**
 * Add the time since `since` to `stage` and return now, so consecutive stages chain:
 * `t = lap(times, 'detPre', t)`. Without `times` it only reads the clock.
 *
 * @example
 * let t = performance.now(); work(); t = lap(times, 'work', t);
 */
export function lap(times: StageTimes | undefined, stage: string, since: number): number {
  const now = performance.now();
  if (times !== undefined) times[stage] = (times[stage] ?? 0) + (now - since);
  return now;
}
