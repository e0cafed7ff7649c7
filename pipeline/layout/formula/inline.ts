/**
 * Inline formulas inside a sentence: the runs of a fragment that are math (`cues.ts`: a math
 * font, a math-only glyph, a raised or lowered script, a single italic letter), with the upright
 * operators, digits and brackets between them, are one formula; read without doubt it is written
 * `$…$`, otherwise its text stays. A formula of italic letters alone (`x`, `a b`) needs an operator
 * or another formula in the sentence: prose sets words, not formulas, in italics. Only fragments
 * that kept their runs are looked at.
 */
import type { Fragment, Piece } from '../types.ts';
import type { Atom } from './atoms.ts';
import { GREEK_WORD, italicLetter, strongMathCue } from './cues.ts';
import { layoutLatex } from './layout.ts';
import { toReading } from './reading.ts';

/** Upright text that belongs to a formula around it: operators, digits, brackets, function names. */
const JOINER = /^[=+\-−<>()[\]|/0-9.,′'!:;]+$|^(?:sin|cos|tan|log|ln|exp|max|min|sup|inf|lim|det)$/;

export interface InlineText {
  /** The fragment's text with each formula replaced by `\uE000<k>\uE001`. */
  readonly text: string;
  /** LaTeX of the formulas, by k. */
  readonly latex: readonly string[];
}

/** An operator between letters or figures: with it, italic letters are a formula (`x = y`). */
const OPERATOR = /[=+\-−<>]/;

/** A script: smaller and off the baseline. */
const isScript = (p: Piece, f: Fragment): boolean => p.size < 0.85 * f.size && Math.abs(p.y - f.y) > 0.1 * f.size;

/**
 * How a piece is math: `strong` on its own; `letter` (a single italic letter) and `script` (a
 * raised or lowered run) with other cues: a script on an italic letter is a formula (`x²`), one
 * on a word is a footnote mark.
 */
function mathKind(p: Piece, f: Fragment, greekProse: boolean): 'strong' | 'letter' | 'script' | undefined {
  const font = p.font ?? '';
  if (strongMathCue(p.text, font, greekProse)) return 'strong';
  if (isScript(p, f)) return 'script';
  return italicLetter(p.text, font) ? 'letter' : undefined;
}

/**
 * An upright piece set tight against both neighbours, without a space inside it (`Ann` in
 * `R/Ann(x)`), is an operator name of the formula: prose words are set apart by spaces.
 */
function touching(sorted: readonly Piece[], i: number, size: number): boolean {
  const p = sorted[i]!;
  const before = sorted[i - 1];
  const after = sorted[i + 1];
  if (before === undefined || after === undefined || /\s/.test(p.text.trim())) return false;
  return p.x0 - before.x1 < 0.12 * size && after.x0 - p.x1 < 0.12 * size;
}

/**
 * A run that starts with an operator and its figure and goes on in words (`= 1 is given`: the
 * figure is set in the text font, so it runs on into the sentence) is cut after the figure,
 * each part given its share of the run's width by characters.
 */
function splitOperatorHeads(pieces: readonly Piece[]): Piece[] {
  return pieces.flatMap((p): Piece[] => {
    // Also the closing brackets of a formula that the sentence's text run carries on from
    // (`(x_n`, then `) is bounded`), and the last word of a run that a subscript hangs on: an
    // operator name (`Recall that Ann`, then `R` lowered).
    const m = /^([=+\-−<>]\s*[0-9.]*|[)\]]+)(\s*\S.*)$/u.exec(p.text) ?? /^(.*\s)(\p{L}{2,})$/u.exec(p.text);
    if (m === null || m[1]!.trim() === '' || m[2]!.trim() === '') return [p];
    if (/\s$/.test(m[1]!) && !carriesSubscript(p, pieces)) return [p];
    const width = (p.x1 - p.x0) / p.text.length;
    const cut = p.x0 + width * m[1]!.trimEnd().length;
    const skip = m[1]!.length - m[1]!.trimEnd().length + (m[2]!.length - m[2]!.trimStart().length);
    return [
      { ...p, text: m[1]!.trimEnd(), x1: cut },
      { ...p, text: m[2]!.trim(), x0: cut + width * skip },
    ];
  });
}

/** A lowered, smaller run set right against the end of `p`: its subscript. */
function carriesSubscript(p: Piece, pieces: readonly Piece[]): boolean {
  return pieces.some((q) => q !== p && q.size < 0.85 * p.size && q.y > p.y + 0.1 * p.size && Math.abs(q.x0 - p.x1) < 0.1 * p.size);
}

/** An upright word with a subscript on it (`Ann_R`, `Hom_S`): an operator name of a formula. */
function operatorName(p: Piece, pieces: readonly Piece[]): boolean {
  return /^\p{L}{2,}$/u.test(p.text.trim()) && !italicLetter(p.text, p.font ?? '') && carriesSubscript(p, pieces);
}

/**
 * Whether the fragment's text has a space before each piece: text layers that draw spaces as
 * glyphs leave no gap between a word and the space-ended run before it.
 */
function spacedBefore(f: Fragment, sorted: readonly Piece[]): boolean[] {
  let cursor = 0;
  return sorted.map((p, i) => {
    const at = f.text.indexOf(p.text.trim(), cursor);
    const gap = i > 0 && p.x0 - sorted[i - 1]!.x1 > 0.15 * f.size;
    if (at < 0) return gap;
    cursor = at + p.text.trim().length;
    return i > 0 && (gap || f.text[at - 1] === ' ');
  });
}

const depth = (text: string): number => (text.match(/[([]/g)?.length ?? 0) - (text.match(/[)\]]/g)?.length ?? 0);

/**
 * A formula closes the brackets it opens: pieces at its end that close a bracket of the sentence
 * (`(n = 260)`, `254).` and the footnote mark after it) go back to the text, as do the pieces
 * from a bracket it opens and never closes (the formula's text run is cut short there).
 */
function balanceBrackets(sorted: readonly Piece[], math: boolean[]): void {
  for (let i = 0; i < sorted.length; ) {
    if (!math[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < sorted.length && math[j]) j++;
    let end = j;
    const start = i;
    const open = (): number =>
      depth(
        sorted
          .slice(start, end)
          .map((p) => p.text)
          .join(''),
      );
    while (end > start && open() < 0) math[--end] = false;
    while (end > start && open() > 0) math[--end] = false;
    i = j;
  }
}

/**
 * Closing brackets right after a formula that close brackets it opened (`Ann_R(x_i))`): they are
 * its own, not the sentence's (a run of closers, set in the text font, is no joiner on its own).
 */
function closes(sorted: readonly Piece[], math: readonly boolean[], i: number): boolean {
  const closers = sorted[i]!.text.trim();
  if (!/^[)\]]+$/.test(closers)) return false;
  let start = i;
  while (start > 0 && math[start - 1]) start--;
  const open = depth(
    sorted
      .slice(start, i)
      .map((p) => p.text)
      .join(''),
  );
  return open >= closers.length;
}

/** Join pieces as the text layer spaced them. */
function joinPieces(pieces: readonly Piece[]): string {
  let out = '';
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    const gap = i === 0 ? 0 : p.x0 - pieces[i - 1]!.x1;
    if (i > 0 && gap > 0.15 * p.size && !out.endsWith(' ')) out += ' ';
    out += p.text;
  }
  return out;
}

/**
 * A fragment's inline formulas, or undefined when it has none read without doubt.
 *
 * @example
 * inlineFormulas(fragment) // { text: 'where \uE0000\uE001 is given.', latex: ['x^{2}'] }
 */
export function inlineFormulas(f: Fragment): InlineText | undefined {
  const pieces = f.pieces;
  if (pieces === undefined || pieces.length < 2) return undefined;
  const greekProse = GREEK_WORD.test(f.text);
  const sorted = splitOperatorHeads([...pieces].sort((p, q) => p.x0 - q.x0));
  const spaced = spacedBefore(f, sorted);
  const kinds = sorted.map((p) => mathKind(p, f, greekProse) ?? (operatorName(p, sorted) ? 'strong' : undefined));
  if (kinds.every((k) => k === undefined)) return undefined;
  const math = kinds.map((k) => k !== undefined);
  // Upright joiners between two math pieces belong to the formula (`x = 2y`), and so do the ones
  // right before or after it that carry an operator or a function name (`lim x`, `x + 1`).
  for (let i = 1; i < sorted.length - 1; i++) {
    if (math[i]) continue;
    const next = math.indexOf(true, i + 1);
    if (math[i - 1] && next > i && sorted.slice(i, next).every((p, k) => JOINER.test(p.text.replace(/\s+/g, '')) || touching(sorted, i + k, f.size)))
      for (let k = i; k < next; k++) math[k] = true;
  }
  const attached = (p: Piece): boolean => JOINER.test(p.text.replace(/\s+/g, '')) && !/^[.,;:]+$/.test(p.text.trim()) && /[=+\-−<>0-9a-z]/.test(p.text);
  for (let i = 1; i < sorted.length; i++)
    if (!math[i] && math[i - 1] && (attached(sorted[i]!) || closes(sorted, math, i)) && sorted[i]!.x0 - sorted[i - 1]!.x1 < 0.5 * f.size) math[i] = true;
  for (let i = sorted.length - 2; i >= 0; i--)
    if (!math[i] && math[i + 1] && attached(sorted[i]!) && sorted[i + 1]!.x0 - sorted[i]!.x1 < 0.5 * f.size) math[i] = true;
  balanceBrackets(sorted, math);
  // The spans of math pieces; one of italic letters and scripts alone counts when an operator
  // joins them or a script sits on a letter, else when another span of the sentence counts.
  const spans: { i: number; j: number; math: boolean }[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && math[j] === math[i]) j++;
    spans.push({ i, j, math: math[i]! });
    i = j;
  }
  const strongSpan = (s: { i: number; j: number }): boolean => {
    const range = kinds.slice(s.i, s.j);
    if (range.includes('strong')) return true;
    if (!range.includes('letter')) return false;
    const scripted = range.some((k, n) => k === 'script' && n > 0 && range[n - 1] === 'letter');
    return scripted || sorted.slice(s.i, s.j).some((p, k) => kinds[s.i + k] === undefined && OPERATOR.test(p.text));
  };
  const anyStrong = spans.some((s) => s.math && strongSpan(s));
  const latex: string[] = [];
  const parts: string[] = [];
  for (const s of spans) {
    const { i, j } = s;
    const span = sorted.slice(i, j);
    const text = joinPieces(span);
    const gap = spaced[i] ? ' ' : '';
    // A formula has letters or figures: a bullet or a dash in a symbol font is text.
    if (s.math && anyStrong && /[\p{L}\p{N}]/u.test(text)) {
      // Sentence punctuation after a formula is set in the math font too: it stays text.
      const trail = /[.,;:]$/.test(span.at(-1)!.text.trim()) ? span.at(-1)!.text.trim().slice(-1) : '';
      const atoms: Atom[] = span.map((p) => ({ text: p.text, x0: p.x0, x1: p.x1, y: p.y, size: p.size, font: p.font ?? '' }));
      if (trail !== '') {
        const last = atoms.at(-1)!;
        atoms[atoms.length - 1] = { ...last, text: last.text.trim().slice(0, -1) };
      }
      const layout = layoutLatex(atoms, []);
      const reading = toReading(layout.latex, layout.doubts);
      if (!reading.unsure && reading.latex !== '') {
        parts.push(`${gap}\uE000${latex.length}\uE001${trail}`);
        latex.push(reading.latex);
      } else parts.push(gap + text);
    } else parts.push(gap + text);
  }
  return latex.length === 0 ? undefined : { text: parts.join('').replace(/\s+/g, ' ').trim(), latex };
}
