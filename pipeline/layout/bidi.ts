/**
 * Right-to-left text. Runs reach here in visual order (left to right on the page, `open-runs.ts`
 * turns PDFium's right-to-left runs around); a fragment or line whose text holds Arabic or Hebrew
 * is put back into logical (reading) order by the Unicode bidirectional algorithm (bidi-js),
 * which for a visual string of one paragraph level is its own inverse. Arabic presentation forms
 * are normalised (NFKC on those blocks only), and lam-alef ligatures whose text comes out alef
 * first are put right.
 */

import type { Bidi } from 'bidi-js';
import bidiModule from 'bidi-js';

// bidi-js is CommonJS whose typings declare an ES default export: take the factory either way.
const bidiFactory = ((bidiModule as unknown as { default?: () => Bidi }).default ?? bidiModule) as unknown as () => Bidi;
const bidi = bidiFactory();

/** Hebrew, Arabic, Syriac, Thaana, NKo… and the presentation-form blocks: strong right-to-left letters. */
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;
const RTL_ALL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/gu;
const LTR_ALL = /[A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]/g;
const PRESENTATION = /[\ufb1d-\ufdff\ufe70-\ufefc]+/gu;
const LAM = 0x644;
const ALEFS = new Set([0x622, 0x623, 0x625, 0x627]);

/** Whether the text holds right-to-left letters. */
export function hasRtl(text: string): boolean {
  return RTL.test(text);
}

/** More right-to-left letters than left-to-right ones: a line read from the right. */
export function isRtlDominant(text: string): boolean {
  if (!RTL.test(text)) return false;
  const rtl = text.match(RTL_ALL)?.length ?? 0;
  return rtl > 0 && rtl >= (text.match(LTR_ALL)?.length ?? 0);
}

/**
 * Presentation forms (`ﻻ`, `ﺑ`) → their letters (`لا`, `ب`); nothing else is touched, so
 * compatibility characters of other scripts stay as they are.
 */
export function normalizeArabic(text: string): string {
  return text.replace(PRESENTATION, (forms) => forms.normalize('NFKC'));
}

/** Whether a code point is a right-to-left letter (Hebrew, Arabic and their presentation forms…). */
export function isRtlCode(code: number): boolean {
  return (code >= 0x590 && code <= 0x8ff) || (code >= 0xfb1d && code <= 0xfdff) || (code >= 0xfe70 && code <= 0xfefc);
}

const isMark = (unit: number): boolean =>
  (unit >= 0x64b && unit <= 0x65f) ||
  unit === 0x670 ||
  (unit >= 0x591 && unit <= 0x5c7) ||
  (unit >= 0x300 && unit <= 0x36f) ||
  (unit >= 0x6d6 && unit <= 0x6ed);

/**
 * A run's UTF-16 units, each with the left edge of its character, in visual order: sorted left to
 * right, stably. Combining marks and low surrogates stay with the character before them. Where
 * one glyph carries several characters (one box), they keep the producer's order, except that a
 * lam-alef ligature is put alef first, its visual order: alef never joins the letter after it, so
 * in reading order a glyph can only be lam + alef, and producers list it either way.
 *
 * @example
 * visualOrder(Uint16Array.of(0x644, 0x627), Float64Array.of(10, 10)) // 'ال' (visual), read 'لا'
 */
export function visualOrder(units: Uint16Array, xs: Float64Array): string {
  const clusters: { x: number; at: number; text: string }[] = [];
  for (let i = 0; i < units.length; i++) {
    const u = units[i] as number;
    const last = clusters[clusters.length - 1];
    if (last !== undefined && ((u >= 0xdc00 && u <= 0xdfff) || isMark(u))) {
      last.text += String.fromCharCode(u);
      continue;
    }
    clusters.push({ x: xs[i] as number, at: i, text: String.fromCharCode(u) });
  }
  for (let i = 1; i < clusters.length; i++) {
    const a = clusters[i - 1]!;
    const b = clusters[i]!;
    if (a.x === b.x && a.text.charCodeAt(0) === LAM && ALEFS.has(b.text.charCodeAt(0))) {
      [a.at, b.at] = [b.at, a.at];
    }
  }
  clusters.sort((p, q) => p.x - q.x || p.at - q.at);
  return clusters.map((c) => c.text).join('');
}

/**
 * A line in visual order → logical order. Left-to-right text without RTL letters comes back as
 * it is; otherwise the paragraph direction is that of the majority of strong letters.
 *
 * @example
 * visualToLogical('Python و R ةغلب') // 'بلغة R و Python'
 */
export function visualToLogical(visual: string): string {
  if (!hasRtl(visual)) return visual;
  const text = normalizeArabic(visual);
  const levels = bidi.getEmbeddingLevels(text, isRtlDominant(text) ? 'rtl' : 'ltr');
  const chars = text.split('');
  for (const segment of bidi.getReorderSegments(text, levels)) {
    const start = segment[0] ?? 0;
    const slice = chars.slice(start, (segment[1] ?? start) + 1).reverse();
    chars.splice(start, slice.length, ...slice);
  }
  // Reversing UTF-16 units breaks surrogate pairs and puts marks before their letter: undo both.
  return chars
    .join('')
    .replace(/([\udc00-\udfff])([\ud800-\udbff])/g, '$2$1')
    .replace(/(\p{M}+)(\P{M})/gu, '$2$1');
}
