/** Character-level Levenshtein distance, normalised by the longer length. */

/**
 * Levenshtein distance over code points, two rows of memory.
 *
 * @example
 * levenshtein('kitten', 'sitting') // 3
 */
export function levenshtein(a: string, b: string): number {
  const s = Array.from(a);
  const t = Array.from(b);
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  // Code points to integers once, so the inner loop compares numbers.
  const ids = new Map<string, number>();
  const id = (c: string): number => {
    let v = ids.get(c);
    if (v === undefined) ids.set(c, (v = ids.size));
    return v;
  };
  const x = Int32Array.from(s, id);
  const y = Int32Array.from(t, id);
  let prev = new Int32Array(y.length + 1);
  let cur = new Int32Array(y.length + 1);
  for (let j = 0; j <= y.length; j++) prev[j] = j;
  for (let i = 1; i <= x.length; i++) {
    cur[0] = i;
    const xi = x[i - 1]!;
    for (let j = 1; j <= y.length; j++) {
      const sub = prev[j - 1]! + (xi === y[j - 1]! ? 0 : 1);
      const del = prev[j]! + 1;
      const ins = cur[j - 1]! + 1;
      cur[j] = sub < del ? Math.min(sub, ins) : Math.min(del, ins);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[y.length]!;
}

/**
 * Levenshtein distance divided by the longer length: 0 identical, 1 nothing in common.
 *
 * @example
 * normalizedEditDistance('abc', 'abd') // 0.333…
 */
export function normalizedEditDistance(a: string, b: string): number {
  const longest = Math.max(Array.from(a).length, Array.from(b).length);
  return longest === 0 ? 0 : levenshtein(a, b) / longest;
}
