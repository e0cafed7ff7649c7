/** Levenshtein distance over UTF-16 code units, two rows of memory. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = new Uint32Array(b.length + 1).map((_v, i) => i);
  let current = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/** Edit distance over the longer length, after collapsing whitespace: 0 is identical, 1 all different. */
export function normalisedEditDistance(a: string, b: string): number {
  const x = a.replace(/\s+/gu, ' ').trim();
  const y = b.replace(/\s+/gu, ' ').trim();
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 0 : editDistance(x, y) / longest;
}
