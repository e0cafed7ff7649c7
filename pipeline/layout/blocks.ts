/**
 * Lines of a region → typed blocks: paragraphs, headings, list items, tables.
 *
 * Headings are told by size relative to the page's body text (≥ 1.12×) or, at body size, by a
 * different font on a short standalone line (bold section titles such as `5.1 Hyper Parameter
 * Optimization`). "A font other than the body font" stands in for bold (it was all pdfjs gave;
 * PDFium's font weights could sharpen it, untried). A line that opens with a run-in head
 * (`**Proof.** Let …`, `run-in.ts`) starts a paragraph, never a heading.
 */

import { formulaLatex, formulaLike } from './formula/index.ts';
import { runInHead } from './run-in.ts';
import { findTables } from './tables.ts';
import type { Block, Line } from './types.ts';

export interface PageStyle {
  /** Most common font size by characters. */
  readonly bodySize: number;
  /** Most common font by characters. */
  readonly bodyFont: string;
  /** Monospaced fonts (fixed-pitch flag, or even advance widths): their lines are code. */
  readonly monoFonts: ReadonlySet<string>;
}

const BULLET = /^([•●▪■◦○‣∙·►▸➢✓✔\-–—*])\s*(?=\S)/u;
const ENUMERATOR = /^(\(?(?:\d{1,3}|[a-z]|[ivxlc]{1,5})[.)])\s+(?=\S)/u;
const SECTION_NUMBER = /^(\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+\p{Lu}/u;

function listMarker(text: string): string | undefined {
  const bullet = BULLET.exec(text);
  if (bullet !== null) {
    // `-3.5` or `—` dashes inside prose are not bullets: need a space or a bullet glyph.
    if ((bullet[1] === '-' || bullet[1] === '–' || bullet[1] === '—' || bullet[1] === '*') && !/^.\s/u.test(text)) return undefined;
    return bullet[1];
  }
  const enumerator = ENUMERATOR.exec(text);
  return enumerator?.[1];
}

/** `1. Introduction`, `2.3 Results`: a section number, then a capitalised title, short, no sentence end. */
function numberedHeading(text: string): boolean {
  return SECTION_NUMBER.test(text) && text.length <= 90 && !/[.,;:]$/.test(text);
}

/**
 * A relation between terms (`tau = E[a] + 1`): an equation line, whatever its size or font.
 * Headings carry no `=`; a display formula set apart (centred, italic, bigger) otherwise looks
 * just like one.
 */
const RELATION = /[=≈≠≤≥∝≡]|:=|<=|>=/u;

function equationLike(line: Line, regionX0: number, regionX1: number): boolean {
  if (!RELATION.test(line.text)) return false;
  // Set apart from the left margin (centred or indented) when the region tells where that is.
  const width = regionX1 - regionX0;
  return width <= line.x1 - line.x0 + 1 || line.x0 > regionX0 + 0.1 * width;
}

/** A short line in a non-body font at least body size, not ending like a sentence. */
function headingByFont(line: Line, style: PageStyle): boolean {
  return (
    line.font !== style.bodyFont &&
    line.size >= 0.95 * style.bodySize &&
    line.text.length <= 90 &&
    line.text.length >= 2 &&
    !/[.,;:]$/.test(line.text) &&
    /^[\p{Lu}\d]/u.test(line.text) &&
    // A wide gap after a section number splits the line; that is still one heading.
    (line.fragments.length === 1 || (line.fragments.length === 2 && /^[\dA-Z]{1,3}(\.\d{1,2})*\.?$/.test(line.fragments[0]?.text ?? '')))
  );
}

function sizeRatio(line: Line, style: PageStyle): number {
  return style.bodySize > 0 ? line.size / style.bodySize : 1;
}

/** Segment one region's lines (top to bottom) into blocks. */
export function toBlocks(lines: readonly Line[], style: PageStyle): Block[] {
  const blocks: Block[] = [];
  const tables = findTables(lines);
  let t = 0;
  let current: Block | undefined;
  const regionX0 = Math.min(...lines.map((l) => l.x0));
  const regionX1 = Math.max(...lines.map((l) => l.x1));
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) gaps.push((lines[i] as Line).top - (lines[i - 1] as Line).bottom);
  const typicalGap = median(gaps.filter((g) => g >= 0)) ?? 0;

  // Formula lines first: each is a block of its own, its limit lines (over and under an
  // integral sign) go into it.
  const formulas = new Map<number, Block>();
  const limits = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    const band = line.fragments[0]?.formula;
    if (band !== undefined) {
      // A display formula read on the page (`formula/bands.ts`): its LaTeX is already checked.
      formulas.set(
        i,
        band.unsure ? { label: 'equation', lines: [line] } : { label: 'equation', lines: [line], latex: band.latex, confidence: band.confidence },
      );
      continue;
    }
    if (limits.has(i) || line.fragments[0]?.table !== undefined || style.monoFonts.has(line.font) || !formulaLike(line, style.bodySize)) continue;
    const found = formulaLatex(line, limits.has(i - 1) ? undefined : lines[i - 1], lines[i + 1]);
    if (found === undefined) {
      // Mathematics the glyphs could not be rebuilt from: a block of its own, its text kept, so a
      // formula reader can read its pixels (`pipeline/regions`).
      formulas.set(i, { label: 'equation', lines: [line] });
      continue;
    }
    const members = [line];
    if (found.above) {
      limits.add(i - 1);
      formulas.delete(i - 1);
      members.unshift(lines[i - 1] as Line);
    }
    if (found.below) {
      limits.add(i + 1);
      members.push(lines[i + 1] as Line);
    }
    formulas.set(i, { label: 'equation', lines: members, latex: found.latex, confidence: found.confidence });
  }

  for (let i = 0; i < lines.length; i++) {
    const formula = formulas.get(i);
    if (formula !== undefined && !(tables[t] !== undefined && (tables[t] as { start: number }).start <= i)) {
      current = undefined;
      blocks.push(formula);
      continue;
    }
    if (limits.has(i)) continue;
    const table = tables[t];
    if (table !== undefined && table.start === i) {
      current = undefined;
      blocks.push({ label: 'table', lines: lines.slice(table.start, table.end), cells: table.cells });
      i = table.end - 1;
      t++;
      continue;
    }
    const line = lines[i] as Line;
    const standIn = line.fragments[0]?.table;
    if (standIn !== undefined) {
      current = undefined;
      blocks.push({ label: 'table', lines: [line], cells: standIn });
      continue;
    }
    const prev = i > 0 ? (lines[i - 1] as Line) : undefined;
    const code = style.monoFonts.has(line.font);
    if (code) {
      // Code keeps its lines; it goes on over blank-line gaps but not over other text.
      if (current?.code === true && prev !== undefined && line.top - prev.bottom < 2.5 * line.size) current.lines.push(line);
      else {
        current = { label: 'text', lines: [line], code: true };
        blocks.push(current);
      }
      continue;
    }
    if (current?.code === true) current = undefined;
    const fontHeading = headingByFont(line, style);
    const bigger = sizeRatio(line, style) >= 1.12;
    // `1. How a page travels` set bigger than the body, or bold, is a numbered section heading:
    // list items are set in the body style.
    const marker = (bigger || fontHeading) && numberedHeading(line.text) ? undefined : listMarker(line.text);
    const sameStyle = prev !== undefined && prev.font === line.font && Math.abs(prev.size - line.size) <= 0.05 * line.size;
    // A bold or italic lead-in followed by sentence text opens a paragraph, however large or
    // emphasised the line looks as a whole (amsthm's `Theorem 2.1.` before an italic statement),
    // and after a sentence's end it opens one even without a gap (`<p><b>Note.</b> …` in a browser).
    const leadIn = marker === undefined ? runInHead(line, style) : undefined;
    const leadInStarts = leadIn !== undefined && prev !== undefined && /[.!?:]["”’)]?$/.test(prev.text) && current?.label !== 'list';
    let startNew = current === undefined || prev === undefined || marker !== undefined || (fontHeading && !sameStyle) || leadInStarts;
    if (!startNew && prev !== undefined && current !== undefined) {
      const gap = line.top - prev.bottom;
      const size = Math.max(line.size, prev.size);
      const sizeChanged = Math.abs(line.size - prev.size) > 0.12 * size;
      const wideGap = gap > Math.max(typicalGap * 1.8, typicalGap + 0.35 * size);
      const prevShort = prev.x1 < regionX1 - 3 * size && /[.!?:]["”’)]?$/.test(prev.text);
      const indented = line.x0 > regionX0 + 0.8 * size && line.x0 > prev.x0 + 0.8 * size && /[.!?:]["”’)]?$/.test(prev.text);
      // A heading goes on over lines of its own style (a two-line title), and ends otherwise.
      const headingEnds = (current.label === 'title' || current.label === 'sub_title' || current.label === 'equation') && !sameStyle;
      const newSentence = prevShort && /^[\p{Lu}\d"“(]/u.test(line.text);
      // A hanging bullet puts the item's first line left of its text; a paragraph after the list
      // starts right of the bullet too, so an item also ends where a short line ends a sentence.
      const listGoesOn = current.label === 'list' && line.x0 > (current.lines[0]?.x0 ?? 0) + 0.5 * size && !wideGap && !sizeChanged && !newSentence;
      startNew = !listGoesOn && (sizeChanged || wideGap || newSentence || indented || headingEnds || current.label === 'list');
    }
    if (startNew) {
      current = { label: 'text', lines: [line] };
      if (leadIn !== undefined) {
        current.leadIn = leadIn;
      } else if (marker !== undefined) {
        current.label = 'list';
        current.marker = marker;
      } else if ((bigger || fontHeading) && equationLike(line, regionX0, regionX1)) {
        current.label = 'equation';
      } else if (bigger && line.text.length <= 200) {
        current.label = 'sub_title';
      } else if (fontHeading) {
        current.label = 'sub_title';
      }
      blocks.push(current);
    } else if (current !== undefined) {
      current.lines.push(line);
    }
  }
  return blocks.map((block) => classify(block, style));
}

/** Settle heading levels; demote "headings" that turned out long. */
function classify(block: Block, style: PageStyle): Block {
  if (block.label !== 'sub_title') return block;
  const text = block.lines.map((l) => l.text).join(' ');
  if (block.lines.length > 3 || text.length > 200) return { ...block, label: 'text' };
  const first = block.lines[0] as Line;
  const ratio = sizeRatio(first, style);
  const numbered = SECTION_NUMBER.exec(text);
  let level: number;
  if (ratio >= 1.6) level = 1;
  else if (numbered?.[1] !== undefined) level = Math.min(4, 2 + (numbered[1].split('.').length - 1));
  else if (ratio >= 1.25) level = 2;
  else level = 3;
  return { ...block, label: level === 1 ? 'title' : 'sub_title', level };
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
