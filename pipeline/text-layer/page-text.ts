/**
 * A PDFium text page → {@link Run}s in displayed page coordinates, plus what the old pdfjs
 * operator-list pass was needed for: how many glyphs are drawn invisibly (render mode 3 or 7,
 * the OCR layer over a scan) and which fonts are monospaced.
 *
 * PDFium gives one record per character in content order, with its own generated spaces and
 * line breaks. Characters are grouped back into runs much as pdfjs grouped them into text items:
 * a run ends at a line break, a change of font or size, a baseline shift (sub/superscripts), a
 * gap wider than {@link SPLIT_GAP} em, or a step backwards (right-to-left text, which PDFium
 * lists in logical order, runs backwards on purpose). `toFragments` then joins runs of a row as
 * it joined pdfjs items. TeX's spacing accents, which PDFium may list out of order, are put back
 * before the letter under them (`open-runs.ts`).
 *
 * Cost matters here (hundreds of thousands of characters a second): each character costs three
 * wasm calls (code point, text object, advance box), and everything that is per text object
 * (matrix, size, font, render mode, baseline) is read once per object and cached.
 */

import { isRtlCode } from '../layout/index.ts';
import type { PdfiumPage } from '../pdf/index.ts';
import type { Accent, OpenRun } from './open-runs.ts';
import { CharBuffer, placeAccent, toRun } from './open-runs.ts';
import { StyleReader } from './page-styles.ts';
import type { Run, SidewaysPiece } from './types.ts';

export interface PageText {
  readonly runs: Run[];
  /** Text of characters that are not horizontal on the displayed page (stamps, axis labels). */
  readonly rotated: string[];
  /** The same pieces set at a quarter turn, with their boxes: table headers set sideways (`sideways-headers.ts`). */
  readonly turned: SidewaysPiece[];
  /** Runs and rotated pieces: the counterpart of pdfjs' text items. */
  readonly items: number;
  /** Characters drawn (spaces and PDFium's generated characters left out). */
  readonly glyphs: number;
  /** Of those, drawn with render mode 3 (invisible) or 7 (clip only). */
  readonly invisibleGlyphs: number;
  /**
   * The characters left out of the runs because they are never painted (`dropUnpainted`), in
   * drawing order without spaces: what the text-layer check still weighs.
   */
  readonly unpaintedText: string;
  /** Font keys (as in {@link Run.font}) of fixed-pitch fonts. */
  readonly monoFonts: ReadonlySet<string>;
  /**
   * When most of the page's text runs one other way (a landscape table set sideways on a portrait
   * page, a page whose `/Rotate` turns its text): that quarter turn, clockwise; else 0. Read the
   * page again through {@link turnPage} to get it upright.
   */
  readonly sideways: number;
}

/** Share of the glyphs one other direction needs, and the most the upright text may have, to turn the page. */
const SIDEWAYS_SHARE = 0.6;
const UPRIGHT_AT_MOST = 0.2;

/** A gap wider than this many ems ends a run, so `toFragments` can split columns and cells. */
const SPLIT_GAP = 0.6;
/** A baseline shift beyond this many ems ends a run (sub- and superscripts are runs of their own). */
const BASELINE_SHIFT = 0.15;
/** PDFium's marker for a hyphen that ends a line. */
const LINE_END_HYPHEN = 0x02;

/**
 * Spacing accents as TeX sets them: a separate glyph over the letter, which PDFium may list out
 * of order (after the letter, or at the end of the line). `cleanText` composes them with the
 * letter that follows, so they are put back right before the letter under them.
 */
const ACCENTS = new Set([0xb4, 0x2c6, 0x2dc, 0xa8, 0x2c7, 0x2d8, 0x2da, 0x2d9, 0xaf, 0x60]);

/**
 * Distinct characters of equal advance width that make a font monospaced when its flags do not
 * say (pdfjs looked at the whole width table; a page shows only the characters it uses, and in
 * Times a dozen lower-case letters share one width, so the bar is high).
 */
const MONO_EVIDENCE = 10;
/** Characters looked at per font for that: enough for a verdict, bounded. */
const MONO_SAMPLE = 24;

/**
 * The page seen turned by `turn` degrees counter-clockwise, so text running `turn` degrees
 * clockwise reads left to right: coordinates, width and height are those of the turned page.
 * {@link unturnBox} maps boxes back to the displayed page.
 *
 * @example
 * const upright = readPageText(turnPage(page, 90)); // a landscape table set sideways
 */
export function turnPage(page: PdfiumPage, turn: number): PdfiumPage {
  const { width: w, height: h } = page;
  // (x, y) on the displayed page (y down) → (X, Y) on the turned one.
  const turned: Record<number, readonly [number, number, number, number, number, number]> = {
    90: [0, -1, 1, 0, 0, w],
    180: [-1, 0, 0, -1, w, h],
    270: [0, 1, -1, 0, h, 0],
  };
  const m = turned[turn];
  if (m === undefined) return page;
  const [a, b, c, d, e, f] = page.toDisplay;
  const [ra, rb, rc, rd, re, rf] = m;
  const sideways = turn !== 180;
  return {
    ...page,
    width: sideways ? h : w,
    height: sideways ? w : h,
    toDisplay: [ra * a + rc * b, rb * a + rd * b, ra * c + rc * d, rb * c + rd * d, ra * e + rc * f + re, rb * e + rd * f + rf],
  };
}

/** A box `[x0, y0, x1, y1]` on a page turned by {@link turnPage} → the same box on the displayed page. */
export function unturnBox(box: readonly [number, number, number, number], turn: number, width: number, height: number): [number, number, number, number] {
  const [x0, y0, x1, y1] = box;
  // `width` and `height` are the displayed page's.
  if (turn === 90) return [width - y1, x0, width - y0, x1];
  if (turn === 180) return [width - x1, height - y1, width - x0, height - y0];
  if (turn === 270) return [y0, height - x1, y1, height - x0];
  return [x0, y0, x1, y1];
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0xa0 || code === 0x09 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a);
}

/**
 * Read a page's characters as runs.
 *
 * @example
 * const text = pdf.readPage(1, readPageText);
 * text.runs[0]; // { text: 'Introduction', x0: 72, x1: 141.3, y: 96.2, size: 14.3, font: 'ABCDEF+Times-Bold', … }
 */
export interface ReadPageTextOptions {
  /**
   * Leave never-painted glyphs (render mode 3) out of the runs: on a page that is read from its text
   * layer they are nobody's reading (font samples, search keywords, text parked off the page);
   * an OCR layer over a scan is caught by the invisible-text check before this matters.
   * @default false
   */
  readonly dropUnpainted?: boolean;
}

export function readPageText(page: PdfiumPage, options: Readonly<ReadPageTextOptions> = {}): PageText {
  const { dropUnpainted = false } = options;
  const { lib, heap, scratch } = page.pdfium;
  const textPage = page.textPage();
  const count = lib.FPDFText_CountChars(textPage);
  const [ta, tb, tc, td, te, tf] = page.toDisplay;
  const styles = new StyleReader(page, textPage, count);
  const buffer = new CharBuffer();
  const open: OpenRun[] = [];
  const accents: Accent[] = [];
  const rotated: string[] = [];
  const turned: SidewaysPiece[] = [];
  let rotatedText = '';
  /** The box and style of the quarter-turned piece being read; undefined when it is not one. */
  /** Origin of the piece's last glyph on the displayed page. */
  let lastX = 0;
  let lastY = 0;
  let piece: { x0: number; x1: number; top: number; bottom: number; size: number; font: string; turn: number } | undefined;
  let run: OpenRun | undefined;
  let pendingSpace = false;
  /** Index of the whitespace character behind `pendingSpace`. */
  let spaceAt = -1;
  let afterAccent = false;
  let glyphs = 0;
  let invisible = 0;
  let unpaintedText = '';
  /** Glyphs by the way they run: 0, 90, 180, 270 degrees. */
  const turns = [0, 0, 0, 0];
  const box = scratch >>> 2;

  const endRun = (): void => {
    if (run === undefined) return;
    // A space before whatever comes next on the line: `toFragments` keeps it as the word break.
    run.trailingSpace = pendingSpace;
    run.to = buffer.length;
    open.push(run);
    run = undefined;
  };
  const endRotated = (): void => {
    const text = rotatedText.trim();
    if (text !== '') rotated.push(text);
    if (text !== '' && piece !== undefined) turned.push({ text, ...piece });
    rotatedText = '';
    piece = undefined;
  };

  /** Left edge of a space from its own box; `guess` when it has none. */
  const spaceX = (index: number, guess: number): number => {
    lib.FPDFText_GetLooseCharBox(textPage, index, scratch);
    const f32 = heap.f32;
    const left = f32[box] as number;
    const right = f32[box + 2] as number;
    if (!(right > left)) return guess;
    const top = f32[box + 1] as number;
    const bottom = f32[box + 3] as number;
    return Math.min(ta * left + tc * top + te, ta * right + tc * bottom + te);
  };

  /**
   * A character that is not horizontal joins the rotated piece; a steep one (sideways, or at a
   * slant of more than 30°) also widens the piece's box. A change of angle, or a gap along the piece wider than an em, starts another
   * (two sideways headers side by side are two pieces, however PDFium orders them).
   */
  const readTurned = (i: number, code: number, turn: number, angle: number, size: number, font: string): void => {
    // Set steeper than 30°: a header turned up or down, square or at a slant.
    const quarter = Math.abs(Math.sin((angle * Math.PI) / 180)) >= 0.5;
    let x0 = 0;
    let x1 = 0;
    let top = 0;
    let bottom = 0;
    let originX = 0;
    let originY = 0;
    if (quarter) {
      lib.FPDFText_GetLooseCharBox(textPage, i, scratch);
      const f32 = heap.f32;
      const [l, t, r, b] = [f32[box] as number, f32[box + 1] as number, f32[box + 2] as number, f32[box + 3] as number];
      const xa = ta * l + tc * t + te;
      const xb = ta * r + tc * b + te;
      const ya = tb * l + td * t + tf;
      const yb = tb * r + td * b + tf;
      [x0, x1, top, bottom] = [Math.min(xa, xb), Math.max(xa, xb), Math.min(ya, yb), Math.max(ya, yb)];
      const p = piece;
      // A ligature PDFium splits (`fi`) may come with a box elsewhere on the page: it belongs to
      // the piece it is read in, and says nothing of where that piece is.
      if (p !== undefined && p.turn === angle && (turn === 90 || turn === 270) && bottom - top > 1.5 * size) {
        if (pendingSpace) rotatedText += ' ';
        pendingSpace = false;
        rotatedText += String.fromCodePoint(code);
        return;
      }
      // The glyph's origin on the displayed page: it continues the piece when it lies ahead of the
      // last one along the piece's direction and on its baseline (slanted headers side by side
      // overlap in their boxes, never on one baseline).
      lib.FPDFText_GetCharOrigin(textPage, i, scratch, scratch + 8);
      const f64 = heap.f64;
      const ox = f64[scratch >>> 3] as number;
      const oy = f64[(scratch >>> 3) + 1] as number;
      originX = ta * ox + tc * oy + te;
      originY = tb * ox + td * oy + tf;
      let apart = false;
      if (p !== undefined) {
        const rad = (angle * Math.PI) / 180;
        const dx = originX - lastX;
        const dy = originY - lastY;
        const along = dx * Math.cos(rad) + dy * Math.sin(rad);
        const across = -dx * Math.sin(rad) + dy * Math.cos(rad);
        apart = Math.abs(p.turn - angle) > 2 || along < -0.2 * size || along > 1.5 * size || Math.abs(across) > 0.4 * size;
      }
      if (apart || (p === undefined && rotatedText.trim() !== '')) endRotated();
    } else if (piece !== undefined) {
      endRotated();
    }
    if (pendingSpace) rotatedText += ' ';
    pendingSpace = false;
    rotatedText += String.fromCodePoint(code);
    if (!quarter) return;
    lastX = originX;
    lastY = originY;
    if (piece === undefined) piece = { x0, x1, top, bottom, size, font, turn: angle };
    else {
      piece.x0 = Math.min(piece.x0, x0);
      piece.x1 = Math.max(piece.x1, x1);
      piece.top = Math.min(piece.top, top);
      piece.bottom = Math.max(piece.bottom, bottom);
    }
  };

  for (let i = 0; i < count; i++) {
    let code = lib.FPDFText_GetUnicode(textPage, i);
    if (code === 0x0d || code === 0x0a) {
      pendingSpace = false;
      endRun();
      // PDFium breaks the line between sideways glyphs (each steps down, not right): a quarter-turned
      // piece ends where its geometry says (`readTurned`), not here.
      if (piece === undefined) endRotated();
      continue;
    }
    if (isSpace(code)) {
      // PDFium puts a space where the pen jumps back to an accent and forward again: not a word break.
      if (afterAccent && lib.FPDFText_IsGenerated(textPage, i) === 1) continue;
      pendingSpace = true;
      spaceAt = i;
      continue;
    }
    const object = lib.FPDFText_GetTextObject(textPage, i);
    if (object === 0) continue;
    if (code === LINE_END_HYPHEN) code = 0x2d;
    const style = styles.styleOf(object, i);
    glyphs++;
    if (style.invisible) invisible++;
    if (dropUnpainted && style.unpainted) {
      unpaintedText += String.fromCodePoint(code);
      continue;
    }
    if (style.turn >= 0) (turns[style.turn / 90] as number)++;
    if (!style.horizontal) {
      readTurned(i, code, style.turn, style.angle, style.size, style.font.key);
      continue;
    }
    lib.FPDFText_GetLooseCharBox(textPage, i, scratch);
    const f32 = heap.f32;
    const left = f32[box] as number;
    const top = f32[box + 1] as number;
    const right = f32[box + 2] as number;
    const bottom = f32[box + 3] as number;
    const xa = ta * left + tc * top + te;
    const xb = ta * right + tc * bottom + te;
    const x0 = Math.min(xa, xb);
    const x1 = Math.max(xa, xb);
    // The displayed bottom edge of the box (y down), for any quarter-turn page, then the baseline.
    const y = Math.max(tb * left + td * top, tb * right + td * bottom) + tf + style.baselineOffset;
    const size = style.size;
    const font = style.font;
    if (ACCENTS.has(code)) {
      accents.push({ code, x0, x1, y, style });
      if (pendingSpace && lib.FPDFText_IsGenerated(textPage, spaceAt) === 1) pendingSpace = false;
      afterAccent = true;
      continue;
    }
    afterAccent = false;
    if (font.distinct.size < MONO_SAMPLE && code > 0x20 && !(code >= 0x30 && code <= 0x39)) {
      const width = (x1 - x0) / size;
      if (width < font.widthMin) font.widthMin = width;
      if (width > font.widthMax) font.widthMax = width;
      font.distinct.add(code);
    }
    if (run !== undefined) {
      const same = run.style === style || (run.style.font === font && Math.abs(run.style.size - size) <= 0.01 * size);
      if (same && Math.abs(y - run.y) <= BASELINE_SHIFT * size) {
        if (run.rtl === true || isRtlCode(code)) {
          // Right-to-left text comes in any order producers draw it (logical, word by word,
          // cluster by cluster): anything on the line within reach joins, sorted by x later.
          if (x1 >= run.x0 - SPLIT_GAP * size && x0 <= run.x1 + SPLIT_GAP * size) {
            if (pendingSpace) {
              // The space goes where its own box is, so sorting puts it between the right words;
              // one whose box starts where the next letter's does is a jump between glyph
              // clusters of one word, not a word break.
              const at = spaceX(spaceAt, x0 < run.lastX0 ? (x1 + run.lastX0) / 2 : x0 - 0.01 * size);
              if (Math.abs(at - x0) > 0.1 * size) buffer.push(0x20, at);
            }
            pendingSpace = false;
            buffer.push(code, x0);
            run.rtl = true;
            if (x0 < run.x0) run.x0 = x0;
            if (x1 > run.x1) run.x1 = x1;
            run.lastX0 = x0;
            continue;
          }
        } else {
          // Ligatures PDFium splits (`fi`) share one box, so stepping back to the last character's
          // left edge is still forward; stepping back further is another line or a column.
          const forward = run.dir !== -1 && x0 >= run.lastX0 - 0.05 * size && x0 - run.x1 <= SPLIT_GAP * size;
          const backward = !forward && run.dir !== 1 && x0 < run.lastX0 && x1 <= run.lastX0 + 0.2 * size && run.x0 - x1 <= SPLIT_GAP * size;
          if (forward || backward) {
            if (pendingSpace) buffer.push(0x20, run.x1);
            pendingSpace = false;
            buffer.push(code, x0);
            if (backward) run.dir = -1;
            else if (x0 > run.lastX0 + 0.05 * size) run.dir = 1;
            if (x0 < run.x0) run.x0 = x0;
            if (x1 > run.x1) run.x1 = x1;
            run.lastX0 = x0;
            continue;
          }
        }
      }
      endRun();
    }
    pendingSpace = false;
    run = { from: buffer.length, to: buffer.length, x0, x1, lastX0: x0, dir: 0, y, style, trailingSpace: false, rtl: isRtlCode(code) };
    buffer.push(code, x0);
  }
  pendingSpace = false;
  endRun();
  endRotated();
  for (const accent of accents) placeAccent(accent, open, buffer);
  const monoFonts = new Set<string>();
  for (const font of styles.fonts.values()) {
    const evenWidths = font.distinct.size >= MONO_EVIDENCE && font.widthMax - font.widthMin <= 0.02 * font.widthMax;
    if (font.fixedPitch || evenWidths) monoFonts.add(font.key);
  }
  const runs = open.map((r) => toRun(r, buffer));
  let sideways = 0;
  for (let t = 1; t < 4; t++) {
    if (glyphs >= 20 && (turns[t] as number) >= SIDEWAYS_SHARE * glyphs && (turns[0] as number) <= UPRIGHT_AT_MOST * glyphs) sideways = t * 90;
  }
  return { runs, rotated, turned, items: runs.length + rotated.length, glyphs, invisibleGlyphs: invisible, unpaintedText, monoFonts, sideways };
}
