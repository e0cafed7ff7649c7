/**
 * The text of one atom → LaTeX: Unicode symbols to commands, TeX's extension glyphs to big
 * operators, letters to their alphabet by font (`\mathbf`, `\mathcal`, `\mathbb`, upright words to
 * `\sin` or `\operatorname`), accents onto the letter after them, the crossing solidus onto the
 * relation after it, primes kept as `'`.
 */
import { COMBINING_ACCENTS, OPERATOR_NAMES, symbolLatex } from '../../math-symbols/index.ts';
import type { Atom } from './atoms.ts';
import { ACCENTS, alphabetOf, CMEX_DELIMITERS, CMEX_OPERATORS, MATH_FONT, NEGATED } from './symbols.ts';

/** Join LaTeX pieces, a space only where a control word meets a letter. */
export function joinLatex(parts: readonly string[]): string {
  let out = '';
  for (const p of parts) {
    if (p === '') continue;
    // A one-character script before a letter reads better apart: `\sum_{i=1}^k c`, not `^kc`.
    if ((/\\[a-zA-Z]+$/.test(out) || /[_^][a-zA-Z0-9]$/.test(out)) && /^[a-zA-Z]/.test(p)) out += ' ';
    out += p;
  }
  return out;
}

/** Upright words that are prose inside a formula (`\text{if}`), not operator names. */
const TEXT_WORDS = new Set([
  'if',
  'for',
  'and',
  'or',
  'otherwise',
  'else',
  'where',
  'with',
  'all',
  'some',
  'then',
  'when',

  'on',
  'in',
  'as',
  'is',
  'not',
  'of',
  'such',
  'that',
]);

/** Upright operator names that take limits under them in display style. */
const LIMIT_NAMES = new Set(['lim', 'liminf', 'limsup', 'max', 'min', 'sup', 'inf']);

/** A big operator's command when the atom is one (`∑`, cmex's `X`, an upright `lim`), else undefined. */
export function bigOperatorOf(atom: Atom): string | undefined {
  const text = atom.text.trim();
  const word = text.replace(/\s+/g, '');
  if (LIMIT_NAMES.has(word) && atom.font !== '' && !MATH_FONT.test(atom.font)) return `\\${word}`;
  if (/CMEX/i.test(atom.font)) return CMEX_OPERATORS[text];
  const command = symbolLatex(text);
  return command !== undefined &&
    ['\\sum', '\\prod', '\\coprod', '\\int', '\\iint', '\\oint', '\\bigcup', '\\bigcap', '\\bigoplus', '\\bigotimes'].includes(command)
    ? command
    : undefined;
}

export interface AtomLatex {
  readonly latex: string;
  /** Glyphs it could not read (an extension-font delimiter without a code, say). */
  readonly unknown: number;
  /** A sized delimiter of the extension font: written with `\left`/`\right`. */
  readonly delimiter?: boolean;
}

/** An atom's text → LaTeX. */
export function atomLatex(atom: Atom): AtomLatex {
  if (/CMEX/i.test(atom.font)) {
    // Codes below 0x20 are control characters: read them before any whitespace is trimmed.
    const code = atom.text.replace(/ +$/, '').replace(/^ +/, '');
    const delimiter = CMEX_DELIMITERS.get(code.slice(0, 1));
    if (delimiter !== undefined && code.length === 1) return { latex: delimiter, unknown: 0, delimiter: true };
  }
  const text = atom.text.replace(/[\u200b\s]+/g, ' ').trim();
  if (text === '') return { latex: '', unknown: 1 };
  if (text === '\u0338') return { latex: '', unknown: 0 };
  const big = bigOperatorOf(atom);
  if (big !== undefined) return { latex: big, unknown: 0 };
  if (/CMEX/i.test(atom.font)) {
    // Big delimiters: cmex codes that read as ASCII brackets keep their meaning; others are unknown.
    if (/^[()[\]|/]$/.test(text)) return { latex: text, unknown: 0 };
    return { latex: '', unknown: 1 };
  }
  const parts: string[] = [];
  let accent: string | undefined;
  let negate = false;
  let unknown = 0;
  const push = (latex: string): void => {
    let out = latex;
    if (negate) {
      out = NEGATED[latex] ?? `\\not${latex.startsWith('\\') ? '' : ' '}${latex}`;
      negate = false;
    }
    if (accent !== undefined) {
      out = `${accent}{${out}}`;
      accent = undefined;
    }
    parts.push(out);
  };
  // Dotted ellipses come spaced out: `· · ·`, `. . .`.
  const compact = text
    .replace(/(?:·\s*){3}|(?:⋅\s*){3}/g, '⋯')
    .replace(/(?:\.\s){2}\./g, '…')
    .replace(/∼\s*=/g, '≅');
  // Decomposed, an accented letter is the letter then its combining mark (`ŷ` → `y`, U+0302).
  const chars = Array.from(compact.replace(/ /g, '').normalize('NFD'));
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const mark = COMBINING_ACCENTS[c];
    if ((mark !== undefined || c === '\u0338') && parts.length > 0) {
      const last = parts.pop()!;
      parts.push(c === '\u0338' ? (NEGATED[last] ?? `\\not${last}`) : `${mark}{${last}}`);
      continue;
    }
    if (c === '\u0338') {
      negate = true;
      continue;
    }
    if (ACCENTS[c] !== undefined && i + 1 < chars.length && /\p{L}/u.test(chars[i + 1]!)) {
      accent = ACCENTS[c];
      continue;
    }
    if (/[A-Za-z]/.test(c)) {
      const alphabet = alphabetOf(atom.font, c);
      if (alphabet === '\\mathrm' || alphabet === undefined) {
        // A run of upright letters: a function name, else a word or an upright letter.
        let j = i;
        while (j + 1 < chars.length && /[A-Za-z]/.test(chars[j + 1]!)) j++;
        const word = chars.slice(i, j + 1).join('');
        if (alphabet === '\\mathrm') {
          if (OPERATOR_NAMES.has(word)) push(`\\${word}`);
          else if (TEXT_WORDS.has(word.toLowerCase())) push(`\\text{${word}}`);
          else if (word.length > 1) push(`\\operatorname{${word}}`);
          else push(`\\mathrm{${word}}`);
          i = j;
          continue;
        }
        push(c);
        continue;
      }
      push(`${alphabet}{${c}}`);
      continue;
    }
    // TeX's symbol font puts the set difference where ASCII has the backslash. A radical sign on
    // the line opens the radical over what follows it (the shared table's `\\surd` is the glyph alone).
    const mapped = c === '\\' ? (/CMSY/i.test(atom.font) ? '\\setminus' : '\\backslash') : c === '√' ? '\\sqrt' : symbolLatex(c);
    if (mapped === undefined && !/[\p{N}\p{P}\p{S}\p{L}]/u.test(c)) unknown += 1;
    push(mapped ?? c);
  }
  return { latex: joinLatex(parts), unknown };
}
