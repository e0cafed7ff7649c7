/**
 * Character error rate: edit distance between what an engine read and the reference, divided
 * by the reference length, after both are reduced to plain text (grounding tags, Markdown and
 * HTML syntax removed, whitespace collapsed), so layout syntax is not counted as reading errors.
 */

/** Markdown (with grounding tags or HTML tables) to the plain text a reader sees. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/<\|ref\|>.*?<\|\/ref\|><\|det\|>.*?<\|\/det\|>/g, ' ')
    .replace(/<\/?(td|th)[^>]*>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/\\([\\`*_$<>[\]#|])/g, '$1')
    .replace(/\*\*|__/g, '')
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Levenshtein distance over code points, two rows of memory. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  if (x.length === 0) return y.length;
  let prev = new Uint32Array(y.length + 1).map((_, i) => i);
  let cur = new Uint32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[y.length]!;
}

/**
 * CER of `hypothesis` against `reference` (both Markdown or text); 0 is perfect, and it can
 * exceed 1 when the engine invents text.
 *
 * @example
 * characterErrorRate('# Hello wrld', 'Hello world') // 1/11
 */
export function characterErrorRate(hypothesis: string, reference: string): number {
  const ref = plainText(reference);
  const hyp = plainText(hypothesis);
  if (ref.length === 0) return hyp.length === 0 ? 0 : 1;
  return editDistance(hyp, ref) / [...ref].length;
}
