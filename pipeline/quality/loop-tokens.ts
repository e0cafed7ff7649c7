/**
 * The word tokens the repetition scan compares: an HTML tag, one CJK character, a run of other
 * non-space characters, or a lone `<`. The same tokens as
 * `/<\/?[A-Za-z][^<>]{0,60}>|[CJK]|[^\s<CJK]+|</gu` (CJK: Han, Hiragana, Katakana, Hangul), by
 * hand: that expression, with its Unicode property classes, was most of the scan's cost, and the
 * scan runs on every page. Only characters from U+1100 up can be CJK, so the property test is
 * made (and remembered) only for those.
 */

/** Token boundaries as parallel arrays of offsets into the text. */
export interface LoopTokens {
  readonly starts: number[];
  readonly ends: number[];
}

const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;
/** Below this code point no character is Han, Hiragana, Katakana or Hangul. */
const FIRST_CJK = 0x1100;
/** The longest a tag's attributes may run, in code points. */
const TAG_BODY = 60;
const cjkCache = new Map<number, boolean>();

function isCjk(cp: number): boolean {
  if (cp < FIRST_CJK) return false;
  let known = cjkCache.get(cp);
  if (known === undefined) {
    known = CJK.test(String.fromCodePoint(cp));
    cjkCache.set(cp, known);
  }
  return known;
}

/** `\s` of a Unicode regular expression. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** Length of the tag starting with the `<` at `at`, or 0 when none starts there. */
function tagLength(text: string, at: number): number {
  let i = at + 1;
  if (text.charCodeAt(i) === 0x2f) i++;
  if (!isLetter(text.charCodeAt(i))) return 0;
  i++;
  for (let n = 0; n < TAG_BODY && i < text.length; n++) {
    const c = text.charCodeAt(i);
    if (c === 0x3c || c === 0x3e) break;
    i += (text.codePointAt(i) as number) > 0xffff ? 2 : 1;
  }
  return text.charCodeAt(i) === 0x3e ? i + 1 - at : 0;
}

/**
 * Split `text` into loop tokens.
 *
 * @example
 * loopTokens('<td>a b</td>') // starts [0, 4, 6, 7], ends [4, 5, 7, 12]
 */
export function loopTokens(text: string): LoopTokens {
  const starts: number[] = [];
  const ends: number[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === 0x3c) {
      const tag = tagLength(text, i);
      starts.push(i);
      i += tag === 0 ? 1 : tag;
      ends.push(i);
      continue;
    }
    const cp = text.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    starts.push(i);
    i += width;
    if (!isCjk(cp)) {
      while (i < n) {
        const next = text.codePointAt(i) as number;
        if (next === 0x3c || isSpace(next) || isCjk(next)) break;
        i += next > 0xffff ? 2 : 1;
      }
    }
    ends.push(i);
  }
  return { starts, ends };
}
