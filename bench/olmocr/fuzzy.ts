/**
 * The fuzzy string measures olmOCR-Bench relies on, written from their definitions:
 * - `ratio` (rapidfuzz `fuzz.ratio`): normalised Indel similarity, `2·LCS / (|a| + |b|)`;
 * - `partialRatio` (rapidfuzz `fuzz.partial_ratio`): the best `ratio` of the shorter string against
 *   any window of the longer one of the same length (windows clipped at either end included);
 * - `nearMatchStarts` (fuzzysearch `find_near_matches`): where a pattern occurs in a text within a
 *   Levenshtein distance.
 */

/** Bit-parallel LCS (Hyyrö): one machine word per 32 characters of `pattern`. */
export class LcsMatcher {
  readonly length: number;
  readonly #words: number;
  readonly #masks = new Map<string, Uint32Array>();
  readonly #empty: Uint32Array;
  readonly #state: Uint32Array;

  constructor(pattern: readonly string[]) {
    this.length = pattern.length;
    this.#words = Math.max(1, Math.ceil(pattern.length / 32));
    this.#empty = new Uint32Array(this.#words);
    this.#state = new Uint32Array(this.#words);
    pattern.forEach((ch, i) => {
      let mask = this.#masks.get(ch);
      if (!mask) {
        mask = new Uint32Array(this.#words);
        this.#masks.set(ch, mask);
      }
      mask[i >>> 5]! |= 1 << (i & 31);
    });
  }

  /** Whether the pattern contains the character (windows are skipped on that basis). */
  has(ch: string): boolean {
    return this.#masks.has(ch);
  }

  /** Length of the longest common subsequence of the pattern and `text[start, end)`. */
  lcs(text: readonly string[], start = 0, end = text.length): number {
    const words = this.#words;
    const v = this.#state;
    v.fill(0xffffffff);
    for (let t = start; t < end; t++) {
      const m = this.#masks.get(text[t]!) ?? this.#empty;
      if (m === this.#empty) continue;
      // V' = (V + U) | (V & ~U) with U = V & M; U is a subset of V, so V - U never borrows.
      let carry = 0;
      for (let w = 0; w < words; w++) {
        const vw = v[w]!;
        const u = (vw & m[w]!) >>> 0;
        const sum = vw + u + carry;
        carry = sum > 0xffffffff ? 1 : 0;
        v[w] = ((sum >>> 0) | (vw & ~u)) >>> 0;
      }
    }
    let zeros = 0;
    for (let i = 0; i < this.length; i++) if (((v[i >>> 5]! >>> (i & 31)) & 1) === 0) zeros++;
    return zeros;
  }
}

/** Split into code points, so astral characters count once as in Python. */
export function codePoints(text: string): string[] {
  return Array.from(text);
}

/**
 * rapidfuzz `fuzz.ratio` / 100: `2·LCS / (|a| + |b|)`, 1 for two empty strings.
 *
 * @example
 * ratio('abcd', 'abce') // 0.75
 */
export function ratio(a: string, b: string): number {
  const ca = codePoints(a);
  const cb = codePoints(b);
  if (ca.length + cb.length === 0) return 1;
  const [shorter, longer] = ca.length <= cb.length ? [ca, cb] : [cb, ca];
  if (shorter.length === 0) return 0;
  return (2 * new LcsMatcher(shorter).lcs(longer)) / (ca.length + cb.length);
}

/**
 * rapidfuzz `fuzz.partial_ratio` / 100: the best {@link ratio} of the shorter string against the
 * windows of the longer one as long as the shorter, plus the windows clipped at either end
 * (rapidfuzz's exact algorithm for needles up to 64 characters; used here for every length).
 *
 * @example
 * partialRatio('hello', 'say hello world') // 1
 */
export function partialRatio(a: string, b: string): number {
  const ca = codePoints(a);
  const cb = codePoints(b);
  const [needle, hay] = ca.length <= cb.length ? [ca, cb] : [cb, ca];
  const m = needle.length;
  const n = hay.length;
  if (m === 0) return n === 0 ? 1 : 0;
  const matcher = new LcsMatcher(needle);
  const need = new Map<string, number>();
  for (const ch of needle) need.set(ch, (need.get(ch) ?? 0) + 1);

  let best = 0;
  const consider = (start: number, end: number): void => {
    const len = end - start;
    if (len <= 0) return;
    // Upper bound: the LCS can be no longer than the shorter string.
    if ((2 * Math.min(len, m)) / (m + len) <= best) return;
    const score = (2 * matcher.lcs(hay, start, end)) / (m + len);
    if (score > best) best = score;
  };

  // The windows rapidfuzz considers: prefixes of the haystack shorter than the needle ending in a
  // needle character, full-length windows ending in one, and suffixes starting with one (the last
  // full-length window among them). A running count of the characters shared with the needle
  // bounds the LCS of a full window from above and skips most of them without running the LCS.
  const have = new Map<string, number>();
  let shared = 0;
  const add = (ch: string, delta: number): void => {
    const want = need.get(ch);
    if (want === undefined) return;
    const before = have.get(ch) ?? 0;
    const after = before + delta;
    have.set(ch, after);
    shared += Math.min(after, want) - Math.min(before, want);
  };
  for (let end = 1; end < m; end++) if (matcher.has(hay[end - 1]!)) consider(0, end);
  for (let i = 0; i < m; i++) add(hay[i]!, 1);
  for (let start = 0; start < n - m; start++) {
    if (start > 0) {
      add(hay[start - 1]!, -1);
      add(hay[start + m - 1]!, 1);
    }
    if ((2 * shared) / (2 * m) > best && matcher.has(hay[start + m - 1]!)) {
      consider(start, start + m);
      if (best === 1) return 1;
    }
  }
  for (let start = n - m; start < n; start++) if (matcher.has(hay[start]!)) consider(start, n);
  return best;
}

/**
 * Start offsets (in code points of `text`) of the substrings of `text` within Levenshtein
 * distance `maxDistance` of `pattern` (fuzzysearch `find_near_matches`, before it merges
 * overlapping matches). Exact search when `maxDistance` is 0.
 *
 * @example
 * nearMatchStarts('abc', 'xxabdxx', 1) // includes 2
 */
export function nearMatchStarts(pattern: string, text: string, maxDistance: number): number[] {
  const p = codePoints(pattern);
  const t = codePoints(text);
  const m = p.length;
  const n = t.length;
  if (m === 0) return [];
  if (maxDistance === 0) {
    const starts: number[] = [];
    outer: for (let s = 0; s + m <= n; s++) {
      for (let i = 0; i < m; i++) if (t[s + i] !== p[i]) continue outer;
      starts.push(s);
    }
    return starts;
  }
  // Sellers' algorithm on the reversed strings: a match "ending" at j in the reversed text is a
  // match starting at n - j in the original.
  const rp = p.toReversed();
  let prev = new Int32Array(m + 1);
  let cur = new Int32Array(m + 1);
  for (let i = 0; i <= m; i++) prev[i] = i;
  const starts: number[] = [];
  if (prev[m]! <= maxDistance) starts.push(n);
  for (let j = 1; j <= n; j++) {
    const ch = t[n - j]!;
    cur[0] = 0;
    for (let i = 1; i <= m; i++) {
      const sub = prev[i - 1]! + (rp[i - 1] === ch ? 0 : 1);
      cur[i] = Math.min(sub, prev[i]! + 1, cur[i - 1]! + 1);
    }
    if (cur[m]! <= maxDistance) starts.push(n - j);
    [prev, cur] = [cur, prev];
  }
  return starts.sort((x, y) => x - y);
}
