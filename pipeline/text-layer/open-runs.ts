/**
 * Runs while a page is read: their characters go into one growing UTF-16 buffer per page (with
 * the left edge of each), so a page of thousands of characters allocates a few typed arrays and
 * one record per run instead of an array per run. Only one run is open at a time, so each run's
 * characters are one contiguous range of the buffer.
 */
import { visualOrder } from '../layout/index.ts';
import type { ObjectStyle } from './page-styles.ts';
import type { Run } from './types.ts';

/** Share of the font size above the baseline; as for pdfjs items, fonts' own metrics vary too much. */
const ASCENT = 0.78;
const DESCENT = 0.22;

export interface OpenRun {
  /** Range of the run's UTF-16 units in the page buffer: [from, to). */
  readonly from: number;
  to: number;
  x0: number;
  x1: number;
  /** Left edge of the last character: a left-to-right run never steps back past it. */
  lastX0: number;
  /** 1 left to right, -1 right to left (PDFium lists Arabic and Hebrew in logical order), 0 not known yet. */
  dir: number;
  /**
   * Holds right-to-left letters: characters join in any order within reach and the run's text is
   * its characters sorted left to right (visual order), put back into reading order once the
   * line is joined (`bidi.ts`), whatever order the producer drew them in.
   */
  rtl: boolean;
  readonly y: number;
  readonly style: ObjectStyle;
  /** A space came after the run's last character, before whatever follows on the line. */
  trailingSpace: boolean;
  /** Accents put back into the run: before the unit at `at`. */
  accents?: { at: number; code: number }[];
}

/** A spacing accent drawn over a letter, placed into its run once all runs are known. */
export interface Accent {
  readonly code: number;
  readonly x0: number;
  readonly x1: number;
  readonly y: number;
  readonly style: ObjectStyle;
}

export class CharBuffer {
  units = new Uint16Array(1024);
  /** Left edge of the character each unit belongs to. */
  xs = new Float64Array(1024);
  length = 0;

  push(code: number, x: number): void {
    if (this.length + 2 > this.units.length) this.#grow();
    if (code > 0xffff) {
      const v = code - 0x10000;
      this.units[this.length] = 0xd800 + (v >> 10);
      this.xs[this.length++] = x;
      this.units[this.length] = 0xdc00 + (v & 0x3ff);
    } else {
      this.units[this.length] = code;
    }
    this.xs[this.length++] = x;
  }

  text(from: number, to: number): string {
    let out = '';
    // `apply` takes a typed array as is; chunks keep the argument count small.
    for (let at = from; at < to; at += 4096) out += String.fromCharCode.apply(null, this.units.subarray(at, Math.min(to, at + 4096)) as unknown as number[]);
    return out;
  }

  #grow(): void {
    const units = new Uint16Array(this.units.length * 2);
    units.set(this.units);
    this.units = units;
    const xs = new Float64Array(this.xs.length * 2);
    xs.set(this.xs);
    this.xs = xs;
  }
}

/** Put an accent right before the letter under its middle; alone, it becomes a run of its own. */
export function placeAccent(accent: Accent, runs: OpenRun[], buffer: CharBuffer): void {
  const middle = (accent.x0 + accent.x1) / 2;
  const size = accent.style.size;
  for (const run of runs) {
    if (run.dir === -1 || Math.abs(run.y - accent.y) > 0.3 * size || middle < run.x0 || middle > run.x1) continue;
    let k = run.to - 1;
    while (k > run.from && (buffer.xs[k] as number) > middle) k--;
    (run.accents ??= []).push({ at: k, code: accent.code });
    return;
  }
  const from = buffer.length;
  buffer.push(accent.code, accent.x0);
  runs.push({
    from,
    to: buffer.length,
    x0: accent.x0,
    x1: accent.x1,
    lastX0: accent.x0,
    dir: 0,
    y: accent.y,
    style: accent.style,
    trailingSpace: false,
    rtl: false,
  });
}

export function toRun(run: OpenRun, buffer: CharBuffer): Run {
  const { from, to, x0, x1, y, style, trailingSpace, accents } = run;
  let text: string;
  if (accents === undefined) {
    text = buffer.text(from, to);
  } else {
    accents.sort((p, q) => p.at - q.at);
    text = '';
    let cursor = from;
    for (const accent of accents) {
      text += buffer.text(cursor, accent.at) + String.fromCodePoint(accent.code);
      cursor = accent.at;
    }
    text += buffer.text(cursor, to);
  }
  // PDFium lists right-to-left text in logical order; runs are joined left to right on the
  // page, so such a run is turned to visual order here and back to logical once joined (`bidi.ts`).
  if (run.rtl === true) text = visualOrder(buffer.units.subarray(from, to), buffer.xs.subarray(from, to));
  if (trailingSpace) text += ' ';
  return { text, x0, x1, y, top: y - ASCENT * style.size, bottom: y + DESCENT * style.size, size: style.size, font: style.font.key, space: false };
}
