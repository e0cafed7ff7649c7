/**
 * Whether a reading of an image adds words: words drawn as text over an image are already in the
 * text layer, and a reading of nothing but specks (`I l .`) adds none.
 */
const WORD = /[\p{L}\p{N}]{2,}/gu;

/**
 * Whether most words of `read` (two letters or digits and up) are ones `known` does not have.
 *
 * @example
 * addsWords('ACME Corp', '') // true
 * addsWords('Figure 12 axis', 'Figure 12 axis') // false
 */
export function addsWords(read: string, known: string): boolean {
  const have = new Set(known.toLowerCase().match(WORD) ?? []);
  const words =
    read
      .replace(/<\|ref\|>.*?<\|\/det\|>/g, ' ')
      .toLowerCase()
      .match(WORD) ?? [];
  const fresh = words.filter((w) => !have.has(w)).length;
  return fresh >= 1 && fresh >= 0.5 * words.length;
}
