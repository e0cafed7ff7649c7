/**
 * Word spaces the recogniser left out. The PP-OCR recognisers (v4, the default, and v6 small)
 * have a space class (the last one) but often skip it between Latin words, most of all on small or tightly set
 * text ("requiringalessquantityof"). The line image still shows the space: between two
 * characters the model read, a run of ink-free columns as wide as a word space. Spaces the
 * model did emit on the same line and the gaps between its letters say how wide a space is
 * there, so each line sets its own scale (large letter-spaced type and small tight type alike).
 */
import type { CtcChar } from './ctc.ts';

/** Columns per CTC time step of the PP-OCR recogniser (its width stride). */
export const STEP_COLUMNS = 8;

const OPERATOR = /^[=+×÷<>±≤≥]$/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;

export interface SpaceOptions {
  /** Crop height in pixels; the thresholds are shares of it. @default 48 */
  readonly height?: number;
}

/**
 * The line's text with missed word spaces put back.
 *
 * @param chars the greedy CTC path of the line
 * @param dictionary class index → character (the space is `' '`)
 * @param paper per crop column, true where the column has no ink (see {@link paperColumns})
 * @example
 * const text = withSpaces(ctcPath(probs, 0, steps, classes), dictionary, paperColumns(crop, 0, stride, 48, width));
 */
export function withSpaces(
  chars: readonly CtcChar[],
  dictionary: readonly string[],
  paper: Uint8Array | undefined,
  options: Readonly<SpaceOptions> = {},
): string {
  const { height = 48 } = options;
  const text = chars.map((c) => dictionary[c.id] ?? '');
  if (paper === undefined || chars.length < 2) return text.join('');
  const letters: number[] = [];
  text.forEach((t, i) => {
    if (t !== ' ' && t !== '') letters.push(i);
  });
  if (letters.length < 2) return text.join('');
  // Each white run belongs to the pair of consecutive characters whose read positions enclose
  // its middle (positions are only known to a step, so a run is measured whole, not clipped).
  const centres = letters.map((i) => chars[i]!.step * STEP_COLUMNS + STEP_COLUMNS / 2);
  const widest = new Float64Array(letters.length - 1);
  let pair = 0;
  for (let x = 0; x < paper.length; ) {
    if (paper[x] !== 1) {
      x++;
      continue;
    }
    const start = x;
    while (x < paper.length && paper[x] === 1) x++;
    const middle = (start + x) / 2;
    while (pair < centres.length - 1 && centres[pair + 1]! <= middle) pair++;
    if (pair < centres.length - 1 && middle > centres[pair]!) widest[pair] = Math.max(widest[pair]!, x - start);
  }
  const spaced: number[] = [];
  const unspaced: number[] = [];
  for (let k = 0; k < widest.length; k++) (letters[k + 1]! - letters[k]! > 1 ? spaced : unspaced).push(widest[k]!);
  const threshold = spaceThreshold(spaced, unspaced, height);
  const insert = new Set<number>();
  for (let k = 0; k < widest.length; k++) {
    const a = letters[k]!;
    const b = letters[k + 1]!;
    if (b - a > 1 || widest[k]! < threshold) continue;
    // Han and kana text is set without spaces; wide gaps there are not words.
    if (CJK.test(text[a]!) || CJK.test(text[b]!)) continue;
    // Figures are set on equal widths, so a narrow one (1) leaves wide bearings: not a space.
    if (/\d/.test(text[a]!) && /\d/.test(text[b]!)) continue;
    // Operators have wide bearings of their own, and `a=b` and `a = b` are both common.
    if (OPERATOR.test(text[a]!) || OPERATOR.test(text[b]!)) continue;
    insert.add(a);
  }
  return text.map((t, i) => (insert.has(i) ? `${t} ` : t)).join('');
}

/**
 * How wide a white run must be to be a word space: two thirds of the way from the line's letter
 * gaps to the spaces the model emitted, when it emitted some; otherwise three letter gaps and at
 * least 18% of the crop height (a word space is about a quarter of the type size, and the type
 * fills about half the crop). Never below 10% of the height, where letter gaps of spaced
 * capitals and wide serif faces already reach. Set on born-digital pages read against their
 * text layers, where the word F1 rose from 0.90 to 0.96.
 */
export function spaceThreshold(spaced: readonly number[], unspaced: readonly number[], height: number): number {
  const letter = median(unspaced);
  if (spaced.length >= 2) return Math.max(0.1 * height, letter + 0.65 * (median(spaced) - letter));
  return Math.max(0.18 * height, 3 * letter);
}

/** The lower middle value: of two gaps, the narrower (a line's missed spaces are its wide tail). */
function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[(s.length - 1) >> 1]!;
}

/**
 * Which columns of a crop hold no ink: a column is paper when no pixel in the middle of the line
 * (the top and bottom eighth left out, where neighbouring lines reach in) is darker than halfway
 * between the line's darkest and lightest grey. Undefined when the crop has too little contrast
 * to tell. `data` is a CHW slot of `height × stride` normalised to [-1, 1] (see `cropInto`).
 */
export function paperColumns(data: Float32Array, offset: number, stride: number, height: number, width: number): Uint8Array | undefined {
  const plane = height * stride;
  const top = Math.floor(height / 8);
  const bottom = height - top;
  const darkest = new Float32Array(width).fill(Infinity);
  let lo = Infinity;
  let hi = -Infinity;
  for (let y = top; y < bottom; y++) {
    let o = offset + y * stride;
    for (let x = 0; x < width; x++, o++) {
      const g = data[o]! + data[o + plane]! + data[o + 2 * plane]!;
      if (g < darkest[x]!) darkest[x] = g;
      if (g > hi) hi = g;
      if (g < lo) lo = g;
    }
  }
  // Three channels in [-1, 1] sum to [-3, 3]: demand a fifth of the range as contrast.
  if (!(hi - lo > 1.2)) return undefined;
  const level = (lo + hi) / 2;
  const paper = new Uint8Array(width);
  for (let x = 0; x < width; x++) paper[x] = darkest[x]! > level ? 1 : 0;
  return paper;
}
