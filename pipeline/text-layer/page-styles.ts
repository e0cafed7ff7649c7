/**
 * What PDFium knows per text object — font, effective size, direction on the displayed page,
 * render mode, where the baseline sits in a character's box — read once per object and cached,
 * since a page has a few hundred objects and thousands of characters.
 */
import type { PdfiumPage } from '../pdf/index.ts';

export interface FontInfo {
  /** The base font name (`ABCDEF+Times-Bold`), or `font#<handle>` for unnamed fonts. */
  readonly key: string;
  /** The descriptor says fixed pitch. */
  readonly fixedPitch: boolean;
  /** Advance widths (in ems) of the characters seen, for fonts whose flags do not tell. */
  widthMin: number;
  widthMax: number;
  readonly distinct: Set<number>;
  /**
   * For fonts whose glyph space is not the usual 1/1000 em (Type 3 fonts with their own font
   * matrix, which PDFium does not fold into the size): the factor that turns the nominal size
   * into one measured from the glyphs, found on the font's first object.
   */
  sizeScale?: number;
}

export interface ObjectStyle {
  readonly font: FontInfo;
  /** Font size in points on the page (the `Tf` size scaled by the text matrix). */
  readonly size: number;
  /** Left-to-right and level on the displayed page. */
  readonly horizontal: boolean;
  /**
   * Which way the text runs on the displayed page, clockwise from left-to-right: 0, 90 (top to
   * bottom), 180 (upside down), 270 (bottom to top), or -1 (at a slant).
   */
  readonly turn: number;
  /** The same in whole degrees, clockwise from left-to-right, 0–359, slants included. */
  readonly angle: number;
  /** Render mode 3 (neither filled nor stroked) or 7 (clip only): counted for the invisible-layer check. */
  readonly invisible: boolean;
  /**
   * Render mode 3 alone: never painted. Mode 7 glyphs clip what is painted after them (text filled
   * with an image or a gradient), so they can be seen and stay.
   */
  readonly unpainted: boolean;
  /** Displayed baseline minus the displayed bottom of a character's advance box. */
  readonly baselineOffset: number;
}

/** Below this many points a size is taken to be a font-matrix artefact and measured from the glyphs. */
const MIN_SIZE = 1;
/** `FPDF_FONT_FIXEDPITCH` in the font descriptor's flags. */
const FIXED_PITCH = 1;

/** Reads and caches the style of the text objects of one text page. */
export class StyleReader {
  readonly fonts = new Map<number, FontInfo>();
  readonly #styles = new Map<number, ObjectStyle>();
  readonly #page: PdfiumPage;
  readonly #textPage: number;
  readonly #count: number;
  // The display matrix, unpacked once: this runs for every text object of every page.
  readonly #ta: number;
  readonly #tb: number;
  readonly #tc: number;
  readonly #td: number;
  readonly #tf: number;

  constructor(page: PdfiumPage, textPage: number, count: number) {
    this.#page = page;
    this.#textPage = textPage;
    this.#count = count;
    const [ta, tb, tc, td, , tf] = page.toDisplay;
    this.#ta = ta;
    this.#tb = tb;
    this.#tc = tc;
    this.#td = td;
    this.#tf = tf;
  }

  /** The style of `object`, whose character `index` is one of its own. */
  styleOf(object: number, index: number): ObjectStyle {
    const known = this.#styles.get(object);
    if (known !== undefined) return known;
    const { lib, heap, scratch } = this.#page.pdfium;
    const ta = this.#ta;
    const tb = this.#tb;
    const tc = this.#tc;
    const td = this.#td;
    const tf = this.#tf;
    const textPage = this.#textPage;
    const box = scratch >>> 2;
    // A negative `Tf` only mirrors the glyphs; the size is its magnitude.
    const nominal = Math.abs(lib.FPDFText_GetFontSize(textPage, index));
    lib.FPDFText_GetMatrix(textPage, index, scratch);
    let f32 = heap.f32;
    const a = f32[box] as number;
    const b = f32[box + 1] as number;
    const c = f32[box + 2] as number;
    const d = f32[box + 3] as number;
    // The text's axes on the displayed page.
    const ma = ta * a + tc * b;
    const mb = tb * a + td * b;
    const mc = ta * c + tc * d;
    const md = tb * c + td * d;
    const font = this.#font(lib.FPDFTextObj_GetFont(object));
    // Math.hypot is several times slower than this.
    let size = nominal * Math.sqrt(mc * mc + md * md);
    if (font.sizeScale === undefined && size > 0 && size < MIN_SIZE) font.sizeScale = this.#glyphSize(object, index, c, d) / size;
    if (font.sizeScale !== undefined && Number.isFinite(font.sizeScale) && font.sizeScale > 0) size *= font.sizeScale;
    const scaleX = Math.sqrt(ma * ma + mb * mb);
    const horizontal = size > 0.5 && scaleX > 0 && Math.abs(mb) <= 0.1 * scaleX && ma > 0;
    const turn = !(scaleX > 0) ? -1 : Math.abs(mb) <= 0.1 * scaleX ? (ma > 0 ? 0 : 180) : Math.abs(ma) <= 0.1 * scaleX ? (mb > 0 ? 90 : 270) : -1;
    const angle = (Math.round((Math.atan2(mb, ma) * 180) / Math.PI) + 360) % 360;
    let baselineOffset = 0;
    if (horizontal) {
      lib.FPDFText_GetCharOrigin(textPage, index, scratch, scratch + 8);
      const f64 = heap.f64;
      const originY = tb * (f64[scratch >>> 3] as number) + td * (f64[(scratch >>> 3) + 1] as number) + tf;
      lib.FPDFText_GetLooseCharBox(textPage, index, scratch);
      f32 = heap.f32;
      const left = f32[box] as number;
      const top = f32[box + 1] as number;
      const right = f32[box + 2] as number;
      const bottom = f32[box + 3] as number;
      // Displayed bottom edge (y down) of the advance box, for any quarter-turn page.
      baselineOffset = originY - (Math.max(tb * left + td * top, tb * right + td * bottom) + tf);
    }
    const mode = lib.FPDFTextObj_GetTextRenderMode(object);
    const style: ObjectStyle = { font, size, horizontal, turn, angle, invisible: mode === 3 || mode === 7, unpainted: mode === 3, baselineOffset };
    this.#styles.set(object, style);
    return style;
  }

  #font(font: number): FontInfo {
    let known = this.fonts.get(font);
    if (known === undefined) {
      const { lib, heap, scratch } = this.#page.pdfium;
      const length = font === 0 ? 0 : lib.FPDFFont_GetBaseFontName(font, scratch, 200);
      const name = length > 1 ? new TextDecoder().decode(heap.u8.subarray(scratch >>> 0, (scratch >>> 0) + Math.min(length, 200) - 1)) : '';
      known = {
        // Unnamed fonts (Type 3, broken descriptors) are still told apart by their handle.
        key: name === '' ? `font#${font}` : name,
        fixedPitch: font !== 0 && (lib.FPDFFont_GetFlags(font) & FIXED_PITCH) !== 0,
        widthMin: Infinity,
        widthMax: 0,
        distinct: new Set(),
      };
      this.fonts.set(font, known);
    }
    return known;
  }

  /**
   * A size read off the glyphs of one text object: the tallest ink box among its first
   * characters over 0.7 (capitals and ascenders stand about 0.7 em tall), measured along the
   * text's own y axis `(c, d)` in user space.
   */
  #glyphSize(object: number, index: number, c: number, d: number): number {
    const { lib, heap, scratch } = this.#page.pdfium;
    let tallest = 0;
    for (let j = index; j < Math.min(this.#count, index + 40) && lib.FPDFText_GetTextObject(this.#textPage, j) === object; j++) {
      if (!lib.FPDFText_GetCharBox(this.#textPage, j, scratch, scratch + 8, scratch + 16, scratch + 24)) continue;
      const f64 = heap.f64;
      const at = scratch >>> 3;
      // left, right, bottom, top
      const height = Math.abs(c) > Math.abs(d) ? (f64[at + 1] as number) - (f64[at] as number) : (f64[at + 3] as number) - (f64[at + 2] as number);
      tallest = Math.max(tallest, Math.abs(height));
    }
    return tallest / 0.7;
  }
}
