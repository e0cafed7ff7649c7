/**
 * Display formulas on an OCR page, found from the engine's recognised lines: a line recogniser
 * reads a formula as a garbled line of letters and symbols, and a layout without a formula label
 * merges it into the paragraph around it. The cues are general ones of typeset display math:
 *
 * - the line (or a stack of short lines: a fraction, a matrix, limits under an operator) stands
 *   apart from the prose: shorter than the column and centred in it, the equation number at the
 *   right margin aside;
 * - its text is not prose: few words of three letters or more, or many symbols, digits and
 *   single letters, or characters the recogniser was unsure of.
 *
 * No rule looks at one document's words; the model's guard (KaTeX, confidence) still decides
 * whether a reading replaces the recogniser's text.
 */
import type { OcrLine } from '../../core/types.ts';

type Box = readonly [number, number, number, number];

export interface ScanFormula {
  /** The recognised lines the formula was read as, top to bottom (equation numbers left out). */
  readonly lines: readonly OcrLine[];
  /** Their union, on the page's 0–999 grid. */
  readonly box: Box;
  /**
   * How far the formula's ink may reach (page grid): the column across, up to the rows above and
   * below, short of an equation number. Glyphs the recogniser read no line for (a fraction bar, a
   * large operator, limits) lie inside it.
   */
  readonly room: Box;
}

/** A row of lines sharing a baseline, with its equation number (if any) set apart. */
interface Row {
  readonly lines: OcrLine[];
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** `(12)`, `(3a)`, `(2.4)`: an equation number, set at the column's edge. */
const EQUATION_NUMBER = /^\(\s*\d{1,3}(?:\.\d{1,3})?[a-z]?\s*\)$/;
/** Digits with the punctuation of numbers and page numbers (`12`, `- 12 -`, `3.5`, `(iv)` aside). */
const NUMBER_ONLY = /^[\p{N}\s.,:;()[\]\-–—/%]+$/u;
/** A word of prose: three letters or more, lower case after the first. */
const PROSE_WORD = /^[\p{Lu}\p{Ll}]\p{Ll}{2,}[.,;:]?$/u;
/** Characters of mathematics that a line recogniser writes for formula glyphs. */
const MATH_CHARS = /[=+<>≤≥≠≈∼∑∏∫√∞∂∇±×÷·→←↔⇒⇔∈∉⊂⊆⊃∪∩∧∨¬∀∃△^_{}|\\/\u0370-\u03ff]/gu;

/** A centred line: margins on both sides at least this share of the column's width… */
const MIN_MARGIN = 0.08;
/** …differing by at most this share of it. */
const MAX_OFF_CENTRE = 0.2;
/** A row at least this share of the column wide is prose, whatever it reads. */
const MAX_WIDTH = 0.8;
/** Lines of prose are at least this wide (page grid)… */
const MIN_PROSE_WIDTH = 250;
/** …and the lines of one column start within this of each other (page grid; indents are smaller). */
const COLUMN_START_SPREAD = 60;
/** Lines of a stack (a fraction's numerator and denominator) lie at most this many line heights apart. */
const STACK_GAP = 0.9;

/**
 * @example
 * findScanFormulas(result.lines) // [{ lines: [{ text: 'e=max(u△t) ≥p', … }], box: [310, 120, 690, 140] }]
 */
export function findScanFormulas(lines: readonly OcrLine[]): ScanFormula[] {
  const found: ScanFormula[] = [];
  for (const column of findColumns(lines)) {
    // Each column on its own: a row of one column must not take in the other's line beside it.
    const inside = lines.filter((l) => (l.box[0] + l.box[2]) / 2 >= column[0] && (l.box[0] + l.box[2]) / 2 <= column[1]);
    const { rows, numbers } = toRows(inside);
    found.push(...columnFormulas(rows, numbers, column));
  }
  return found;
}

function columnFormulas(rows: readonly Row[], numbers: readonly Box[], column: readonly [number, number]): ScanFormula[] {
  const lineHeight = median(rows.map((r) => r.y1 - r.y0));
  const found: ScanFormula[] = [];
  let group: Row[] = [];
  let above = 0;
  const flush = (below: number): void => {
    if (group.length > 0 && isDisplay(group, column)) {
      const kept = group.flatMap((r) => r.lines);
      const box = union(kept.map((l) => l.box));
      // An equation number beside the formula (on its row, or between its rows) bounds it on the right.
      const beside = numbers.filter((n) => n[0] >= box[2] && overlap(n[1], n[3], box[1], box[3]) > 0);
      const numberAt = Math.min(column[1], ...beside.map((n) => n[0]));
      found.push({
        lines: kept,
        box,
        room: [column[0], Math.max(above, box[1] - lineHeight), Math.max(box[2], numberAt), Math.min(below, box[3] + lineHeight)],
      });
    }
    group = [];
  };
  for (const [i, row] of rows.entries()) {
    const short = row.x1 - row.x0 < MAX_WIDTH * (column[1] - column[0]) && !isProse(row.lines);
    if (!short) {
      flush(row.y0);
      above = row.y1;
      continue;
    }
    const last = group.at(-1);
    if (last !== undefined && row.y0 - last.y1 > STACK_GAP * lineHeight) {
      flush(row.y0);
      above = rows[i - 1]!.y1;
    }
    group.push(row);
  }
  flush(999);
  return found;
}

/**
 * The page's text columns, from where its lines of prose start and end: lines at least a quarter
 * of the page wide, clustered by their left edge; a cluster of three or more is a column.
 */
function findColumns(lines: readonly OcrLine[]): (readonly [number, number])[] {
  const wide = lines.filter((l) => l.box[2] - l.box[0] >= MIN_PROSE_WIDTH).sort((a, b) => a.box[0] - b.box[0]);
  const clusters: OcrLine[][] = [];
  for (const line of wide) {
    const last = clusters.at(-1);
    if (last !== undefined && line.box[0] - last.at(-1)!.box[0] <= COLUMN_START_SPREAD) last.push(line);
    else clusters.push([line]);
  }
  // Edges near the extremes: the last line of a paragraph ends short, its first may be indented.
  const columns = clusters
    .filter((c) => c.length >= 3)
    .map(
      (c) =>
        [
          quantile(
            c.map((l) => l.box[0]),
            0.1,
          ),
          quantile(
            c.map((l) => l.box[2]),
            0.9,
          ),
        ] as const,
    );
  // Equation numbers are set flush with the column's right edge: where paragraphs are short lines
  // (one sentence each), they show the edge better than the prose does.
  const numbers = lines.filter((l) => EQUATION_NUMBER.test(l.text.trim()));
  return columns.map(([x0, x1], k) => {
    const next = columns[k + 1]?.[0] ?? 1000;
    const right = numbers.filter((n) => n.box[0] > x0 && n.box[2] < next).map((n) => n.box[2]);
    return [x0, Math.max(x1, ...right)] as const;
  });
}

/** A group of short rows is a display formula when it sits centred in its column and reads as mathematics. */
function isDisplay(group: readonly Row[], column: readonly [number, number]): boolean {
  const width = column[1] - column[0];
  const x0 = Math.min(...group.map((r) => r.x0));
  const x1 = Math.max(...group.map((r) => r.x1));
  const left = x0 - column[0];
  const right = column[1] - x1;
  if (left < MIN_MARGIN * width || right < MIN_MARGIN * width || Math.abs(left - right) > MAX_OFF_CENTRE * width) return false;
  const lines = group.flatMap((r) => r.lines);
  // A number alone (a page number at the foot, a chart's tick, a figure in a table) is no formula.
  if (NUMBER_ONLY.test(lines.map((l) => l.text).join(' '))) return false;
  return isMath(lines) || (group.length >= 2 && !lines.some((l) => PROSE_WORD.test(l.text.trim())));
}

/** Text that is mostly words of prose, read with confidence. */
function isProse(lines: readonly OcrLine[]): boolean {
  const text = lines.map((l) => l.text).join(' ');
  const tokens = text.split(/\s+/).filter((t) => t !== '');
  const words = tokens.filter((t) => PROSE_WORD.test(t));
  const letters = words.reduce((s, w) => s + w.length, 0);
  return words.length >= 3 && letters >= 0.6 * text.replace(/\s/g, '').length;
}

/** Many symbols, few words of prose, or a reading the recogniser was unsure of. */
function isMath(lines: readonly OcrLine[]): boolean {
  const text = lines.map((l) => l.text).join(' ');
  const chars = text.replace(/\s/g, '').length;
  if (chars === 0) return false;
  const symbols = (text.match(MATH_CHARS) ?? []).length;
  const words = text.split(/\s+/).filter((t) => PROSE_WORD.test(t));
  const proseLetters = words.reduce((s, w) => s + w.length, 0);
  const confidence =
    lines.reduce((s, l) => s + l.confidence * l.text.length, 0) /
    Math.max(
      1,
      lines.reduce((s, l) => s + l.text.length, 0),
    );
  return symbols >= 1 || proseLetters < 0.5 * chars || confidence < 0.85;
}

/** Lines on one baseline as rows, top to bottom; equation numbers (at a row's right end) apart. */
function toRows(lines: readonly OcrLine[]): { rows: Row[]; numbers: Box[] } {
  const numbers = lines.filter((l) => EQUATION_NUMBER.test(l.text.trim())).map((l) => l.box);
  const sorted = lines.filter((l) => !EQUATION_NUMBER.test(l.text.trim())).sort((a, b) => a.box[1] + a.box[3] - (b.box[1] + b.box[3]));
  const rows: Row[] = [];
  for (const line of sorted) {
    const [x0, y0, x1, y1] = line.box;
    const row = rows.find((r) => overlap(r.y0, r.y1, y0, y1) > 0.5 * Math.min(r.y1 - r.y0, y1 - y0));
    if (row === undefined) rows.push({ lines: [line], x0, y0, x1, y1 });
    else {
      row.lines.push(line);
      row.x0 = Math.min(row.x0, x0);
      row.x1 = Math.max(row.x1, x1);
      row.y0 = Math.min(row.y0, y0);
      row.y1 = Math.max(row.y1, y1);
    }
  }
  for (const row of rows) row.lines.sort((a, b) => a.box[0] - b.box[0]);
  return { rows: rows.sort((a, b) => a.y0 - b.y0), numbers };
}

function union(boxes: readonly Box[]): Box {
  return [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])), Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))];
}

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.min(a1, b1) - Math.max(a0, b0);
}

function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}
