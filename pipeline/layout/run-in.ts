/**
 * Run-in heads: a paragraph that opens with an emphasised lead-in set in the same line as its
 * text, as amsthm sets `Theorem 2.1 (Name).`, `Proof.`, `Definition.` and as documents set a bold
 * `Note:` or `Example 3.`. Such a line looks like a heading (a non-body font, maybe larger type),
 * but the block is a paragraph: the lead-in is a phrase of its own font ending in `.` or `:`, and
 * the words after it are ordinary sentence text in another font.
 */

import { strongMathCue } from './formula/index.ts';
import type { Line } from './types.ts';

/** A paragraph's emphasised lead-in. */
export interface RunInHead {
  /** The lead-in as it begins the line's text (`Corollary 4.17.`). */
  readonly text: string;
  /** How Markdown keeps it: `strong` (`**…**`) for bold or an unknown face, `emphasis` (`*…*`) for italic. */
  readonly emphasis: 'strong' | 'emphasis';
}

interface Styled {
  readonly text: string;
  readonly font: string;
}

/** The longest lead-in read as one: `Theorem 2.1 (Fundamental Lemma of Calculus).` fits. */
const MAX_HEAD_CHARS = 60;
const MAX_HEAD_WORDS = 8;

const ITALIC_FACE = /ital|oblique|slant|-it$|-it[a-z]*mt$|^cmti|^cmsl|^lmroman\d*-it/i;
const BOLD_FACE = /bold|black|heavy|semibold|demi|medi|^cmbx|^cmb\d|-bd/i;

/** The face a lead-in font name tells: italic only when it is not bold as well. */
function emphasisOf(font: string): RunInHead['emphasis'] {
  const name = font.replace(/^[A-Z]{6}\+/, '');
  return ITALIC_FACE.test(name) && !BOLD_FACE.test(name) ? 'emphasis' : 'strong';
}

function piecesOf(line: Line): Styled[] {
  return line.fragments.flatMap((f) =>
    f.pieces === undefined ? [{ text: f.text, font: f.font }] : f.pieces.map((p) => ({ text: p.text, font: p.font ?? f.font })),
  );
}

const words = (text: string): string[] => text.split(/\s+/).filter((w) => /\p{L}/u.test(w));

/**
 * Sentence text, not a title: several words with one in lower case (titles capitalise theirs),
 * or a short sentence with its end (`Trivial.`).
 */
function sentenceLike(text: string): boolean {
  const list = words(text);
  if (list.length >= 3) return list.slice(1).some((w) => /^\p{Ll}/u.test(w));
  return list.length >= 1 && /[.!?]["”’)]?$/u.test(text.trim());
}

/** The line's text up to where `head` (its characters, spaces aside) ends. */
function prefixOf(text: string, head: string): string | undefined {
  const want = head.replace(/\s+/g, '');
  let seen = 0;
  for (let i = 0; i < text.length && seen < want.length; i++) {
    const c = text[i] as string;
    if (/\s/.test(c)) continue;
    if (c !== want[seen]) return undefined;
    seen++;
    if (seen === want.length) return text.slice(0, i + 1);
  }
  return undefined;
}

/**
 * The run-in head that opens `line`, or undefined. A lead-in in the body font is not emphasised,
 * and one in a monospaced font is code.
 *
 * @example
 * runInHead(line, style) // { text: 'Proof.', emphasis: 'emphasis' } for `Proof. Let S be …`
 */
export function runInHead(line: Line, style: Readonly<{ bodyFont: string; monoFonts: ReadonlySet<string> }>): RunInHead | undefined {
  const pieces = piecesOf(line);
  const first = pieces[0];
  if (pieces.length < 2 || first === undefined || first.font === style.bodyFont || style.monoFonts.has(first.font) || !/^\p{Lu}/u.test(first.text.trim()))
    return undefined;
  const lead = first.font;
  let head = '';
  let end = -1;
  let inNote = false;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] as Styled;
    const text = piece.text.trim();
    // A note in parentheses may be set in the text face (amsthm's `(Name)`), and so may the
    // number (amsthm's remark style: `Remark 1.2.`); the head goes on after them.
    if (piece.font !== lead && !inNote && !(i > 0 && (text.startsWith('(') || /^[\dA-Z]{1,3}(\.[\dA-Z]{1,3})*$/.test(text)))) break;
    if (piece.font === lead && strongMathCue(piece.text, piece.font)) return undefined;
    if (text.startsWith('(')) inNote = true;
    if (inNote && text.includes(')')) inNote = false;
    head = head === '' ? text : `${head} ${text}`;
    if (head.length > MAX_HEAD_CHARS || words(head).length > MAX_HEAD_WORDS) return undefined;
    if (!inNote && piece.font === lead && /[.:]$/.test(head)) {
      end = i;
      break;
    }
    if (!inNote && piece.font !== lead && /\)[.:]$/.test(head)) {
      end = i;
      break;
    }
  }
  const next = pieces[end + 1];
  // The text after the head is in another face: a wholly emphasised block is a heading or emphasis, not a lead-in.
  if (end < 0 || next === undefined || next.font === lead || !/\p{L}{2}/u.test(head)) return undefined;
  const text = prefixOf(line.text, head);
  if (text === undefined || !sentenceLike(line.text.slice(text.length))) return undefined;
  return { text, emphasis: emphasisOf(lead) };
}
