/** An LLM answer split into text and `[n]` citations (no DOM here: the tests import it in Node). */

export type AnswerPart = { readonly text: string } | { readonly cite: number };

/**
 * `[2]`, `[1, 3]` and `[1][2]` become citation parts when each number names one of `count`
 * passages; anything else stays text.
 *
 * @example
 * splitCitations('Stop nuts hold [1, 2].', 2) // [{ text: 'Stop nuts hold ' }, { cite: 1 }, { cite: 2 }, { text: '.' }]
 */
export function splitCitations(answer: string, count: number): AnswerPart[] {
  const parts: AnswerPart[] = [];
  let at = 0;
  for (const match of answer.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    const numbers = match[1]!.split(',').map((n) => Number(n.trim()));
    if (!numbers.every((n) => Number.isInteger(n) && n >= 1 && n <= count)) continue;
    if (match.index > at) parts.push({ text: answer.slice(at, match.index) });
    for (const n of numbers) parts.push({ cite: n });
    at = match.index + match[0].length;
  }
  if (at < answer.length) parts.push({ text: answer.slice(at) });
  return parts;
}
