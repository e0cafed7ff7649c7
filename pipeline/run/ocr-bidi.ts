/**
 * Right-to-left text in OCR output. An engine that writes Arabic or Hebrew the way it sits on
 * the page (left to right: visual order) or in presentation forms (`ﺑﻠﻐﺔ`, `ﻻ`) gives text that
 * neither search nor readers can use. Here a page's Markdown is put into logical order, line by
 * line, by the Unicode bidirectional algorithm the text layer uses (`pipeline/layout/bidi.ts`, bidi-js),
 * when the page reads as visual; presentation forms are normalised either way, with lam-alef
 * ligatures kept whole. Markup (grounding tags, HTML tags, Markdown markers) stays where it is.
 *
 * Which order a page is in shows in its words: in logical order a word never starts with a final
 * form (Hebrew `ם ן ץ ף ך`, Arabic `ة ى`, a final or isolated presentation form after a joining
 * one) nor ends with the article `ال`; in visual order the same letters sit at the other end.
 */
import { hasRtl, normalizeArabic, visualToLogical } from '../layout/index.ts';

const HEBREW_FINALS = new Set(['ך', 'ם', 'ן', 'ף', 'ץ']);
const ARABIC_FINALS = new Set(['ة', 'ى']);
/** Lam-alef ligatures (isolated and final forms of the four alefs). */
const LAM_ALEF = /[\ufef5-\ufefc]/gu;
const RTL_WORD = /[\u0590-\u05ff\u0600-\u06ff\ufb1d-\ufdff\ufe70-\ufefc]{2,}/gu;

/** Votes for the page being in visual order and in logical order. */
export function orderVotes(text: string): { visual: number; logical: number } {
  let visual = 0;
  let logical = 0;
  for (const raw of text.match(RTL_WORD) ?? []) {
    const word = normalizeArabic(raw.replace(LAM_ALEF, ''));
    if (word.length < 2) continue;
    const first = word.charAt(0);
    const last = word.charAt(word.length - 1);
    if (HEBREW_FINALS.has(first) || ARABIC_FINALS.has(first)) visual++;
    if (HEBREW_FINALS.has(last) || ARABIC_FINALS.has(last)) logical++;
    if (word.length >= 3 && word.startsWith('ال')) logical++;
    if (word.length >= 4 && word.endsWith('لا')) visual++;
  }
  return { visual, logical };
}

/** Whether a page's text reads as right-to-left text in visual order. */
export function readsVisual(text: string): boolean {
  const { visual, logical } = orderVotes(text);
  return visual >= 2 && visual > 2 * logical;
}

/**
 * A visual line → logical. A lam-alef ligature is one character in visual order; its letters are
 * written alef first (as they sit on the page), so that turning the line puts lam first.
 */
function lineToLogical(visual: string): string {
  const spread = visual.replace(LAM_ALEF, (ligature) => [...ligature.normalize('NFKC')].reverse().join(''));
  return visualToLogical(spread);
}

const MARKER = /^(\s*(?:#{1,6}\s+|[-*+]\s+|\d{1,9}[.)]\s+|>\s*)?)(.*)$/su;
const TAG = /(<\|[^|]*\|>|<[^>]+>|\|)/u;

/** Turn the text between markup on one line, markers and tags staying put. */
function convertLine(line: string, toLogical: boolean): string {
  if (!hasRtl(line)) return line;
  const [, marker = '', rest = ''] = MARKER.exec(line) ?? [];
  const parts = rest.split(TAG).map((part, i) => {
    if (i % 2 === 1 || !hasRtl(part)) return part;
    if (!toLogical) return normalizeArabic(part);
    const lead = /^\s*/u.exec(part)![0];
    const trail = /\s*$/u.exec(part)![0];
    return `${lead}${lineToLogical(part.trim())}${trail}`;
  });
  return `${marker}${parts.join('')}`;
}

/**
 * A page of OCR Markdown with its right-to-left text in logical order and presentation forms
 * normalised. Pages without right-to-left letters come back as they are.
 *
 * @example
 * logicalOcrMarkdown('Python و R ةغلب ﺔﺠﻣﺮﺒﻟﺍ') // 'البرمجة بلغة R و Python'
 */
export function logicalOcrMarkdown(markdown: string): string {
  if (!hasRtl(markdown)) return markdown;
  const toLogical = readsVisual(markdown);
  return markdown
    .split('\n')
    .map((line) => convertLine(line, toLogical))
    .join('\n');
}
