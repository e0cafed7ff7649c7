/**
 * Display formulas on OCR pages read by folio-ocr-math: the lines `findScanFormulas` takes for
 * display math are cropped from the page image at the scale the model was trained on, read in one
 * batch for all pages of an OCR call, and put into the page's Markdown as `$$…$$` where the model's
 * guard accepts the reading; elsewhere the recogniser's text stays.
 */
import type { OcrLine } from '../../core/types.ts';
import type { PageImage } from '../../inference/engine.ts';
import type { FormulaReader } from '../formula/index.ts';
import type { TaggedBlock } from './blocks.ts';
import { joinBlocks, splitBlocks } from './blocks.ts';
import { growToInk } from './ink-box.ts';
import { findScanFormulas } from './scan-formulas.ts';
import { mergeScanFormula } from './scan-merge.ts';
import { fromUpright, type Turn, toUpright, turnGrey } from './upright.ts';

export interface ScanFormulaPage {
  /** The OCR engine's tagged Markdown of the page. */
  readonly markdown: string;
  readonly image: PageImage;
  /** The engine's recognised lines (page grid); a page without them is left as it is. */
  readonly lines?: readonly OcrLine[];
  /** The image's resolution, when known (a rendered PDF page); else it is judged from the lines. */
  readonly dpi?: number;
  /** The clockwise turn that made the image upright for the engine. @default 0 */
  readonly turn?: Turn;
}

export interface ScanFormulaResult {
  readonly markdown: string;
  /** The formula blocks written, with engine and confidence, for the elements to record. */
  readonly read: readonly TaggedBlock[];
  readonly details: Readonly<Record<string, number | string>>;
}

/**
 * Scanned formulas are read at 200 DPI (scans of more are brought down to it): a 10 pt line is then
 * ~28 px tall, inside the 14–32 px folio-ocr-math was trained on, and the scanner's blur and noise
 * spread over more pixels than at 150 DPI, where text-layer pages are read. On the formula scans
 * (`bench/quality/formulas/scans.ts`, their first 13 pages) 150 DPI kept 15 readings, 13 right;
 * 200 DPI kept 21, 17 right.
 */
const FORMULA_DPI = 200;
/**
 * Without a known resolution: the detector's box of a line of 10 pt body text (taller than the
 * type: it takes in ascenders, descenders and a margin) is about this many pixels tall at 200 DPI
 * (measured on the formula scans' pages).
 */
const LINE_PX_AT_FORMULA_DPI = 62;

type Box = readonly [number, number, number, number];
/** A formula of one character (a digit, a letter) is left as read: the line recogniser has it. */
const MIN_CHARS = 2;

/**
 * @example
 * const [page] = await readScanFormulas([{ markdown, image, lines, dpi: 200 }], () => sharedFormulaReader('cpu'));
 */
export async function readScanFormulas(pages: readonly ScanFormulaPage[], reader: () => Promise<FormulaReader>): Promise<ScanFormulaResult[]> {
  // Found upright, where rows run across; each upright line remembers the line as given, which
  // the Markdown's blocks are placed by.
  const given = new Map<OcrLine, OcrLine>();
  const found = pages.map((page) => {
    const turn = page.turn ?? 0;
    const upright = (page.lines ?? []).map((line) => {
      const turned = { ...line, box: toUpright(line.box, turn) };
      given.set(turned, line);
      return turned;
    });
    return findScanFormulas(upright).filter((f) => f.lines.reduce((n, l) => n + l.text.replace(/\s/g, '').length, 0) >= MIN_CHARS);
  });
  const crops = pages.flatMap((page, i) => {
    const turn = page.turn ?? 0;
    const uprightHeight = turn === 90 || turn === 270 ? page.image.width : page.image.height;
    const bodyLine = median((page.lines ?? []).map((l) => ((l.box[3] - l.box[1]) / 999) * uprightHeight));
    return found[i]!.map((f) => cropFormula(page, f.box, f.room, f.lines, bodyLine, uprightHeight));
  });
  const readings = crops.length === 0 ? [] : await (await reader()).read(crops.map((image) => ({ image, display: true, fallback: '' })));
  let next = 0;
  return pages.map((page, i) => {
    const formulas = found[i]!;
    if (formulas.length === 0) return { markdown: page.markdown, read: [], details: {} };
    let blocks = splitBlocks(page.markdown);
    const read: TaggedBlock[] = [];
    const refused: string[] = [];
    formulas.forEach((formula, k) => {
      const reading = readings[next++]!;
      if (reading.engine !== 'folio-ocr-math') {
        refused.push(`formula ${k + 1}: ${reading.reason ?? 'refused'}`);
        return;
      }
      const turn = page.turn ?? 0;
      const lines = formula.lines.map((l) => given.get(l) ?? l);
      const merged = mergeScanFormula(blocks, lines, fromUpright(formula.box, turn), reading.markdown, {
        engine: reading.engine,
        confidence: Math.round(reading.confidence * 1000) / 1000,
      });
      if (merged === undefined) {
        refused.push(`formula ${k + 1}: its lines are not in the page's text as read`);
        return;
      }
      blocks = merged.blocks;
      read.push(merged.added);
    });
    const details: Record<string, number | string> = { formulaRegions: formulas.length, formulaRegionsRead: read.length, formulaEngine: 'folio-ocr-math' };
    if (refused.length > 0) details.regionsRefused = refused.slice(0, 8).join('; ');
    return { markdown: read.length === 0 ? page.markdown : `${joinBlocks(blocks)}\n`, read, details };
  });
}

/**
 * The formula's box (upright grid) grown to its ink, cut from the page with a little paper around
 * it, brought to 200 DPI and turned upright.
 */
function cropFormula(page: ScanFormulaPage, box: Box, room: Box, lines: readonly OcrLine[], bodyLine: number, uprightHeight: number): PageImage {
  const { image } = page;
  const turn = page.turn ?? 0;
  const lineHeight = median(lines.map((l) => ((l.box[3] - l.box[1]) / 999) * uprightHeight)) || 20;
  const scale = Math.min(1, page.dpi !== undefined ? FORMULA_DPI / page.dpi : LINE_PX_AT_FORMULA_DPI / Math.max(1, bodyLine));
  const px = (upright: Box): Box => {
    const b = fromUpright(upright, turn);
    return [
      Math.max(0, Math.floor((b[0] / 999) * image.width)),
      Math.max(0, Math.floor((b[1] / 999) * image.height)),
      Math.min(image.width, Math.ceil((b[2] / 999) * image.width)),
      Math.min(image.height, Math.ceil((b[3] / 999) * image.height)),
    ];
  };
  const limit = px(room);
  const inked = growToInk(image, px(box), limit, Math.round(0.5 * lineHeight));
  // Paper around the ink, as around the training formulas, but none of the next line's.
  const pad = Math.max(2, Math.round(0.15 * lineHeight));
  const x0 = Math.max(limit[0], inked[0] - pad);
  const y0 = Math.max(limit[1], inked[1] - pad);
  const x1 = Math.min(limit[2], inked[2] + pad);
  const y1 = Math.min(limit[3], inked[3] + pad);
  const cut = x1 > x0 && y1 > y0 ? shrinkGrey(image, x0, y0, x1, y1, scale) : shrinkGrey(image, inked[0], inked[1], inked[2], inked[3], scale);
  return turnGrey(cut, turn);
}

/** The rectangle as grey pixels, shrunk by `scale` (≤ 1) with each output pixel the mean of the input pixels it covers. */
function shrinkGrey(image: PageImage, x0: number, y0: number, x1: number, y1: number, scale: number): PageImage {
  const { data, width, channels } = image;
  const w = Math.max(1, Math.round((x1 - x0) * scale));
  const h = Math.max(1, Math.round((y1 - y0) * scale));
  const out = new Uint8Array(w * h);
  const grey = (x: number, y: number): number => {
    const i = (y * width + x) * channels;
    if (channels < 3) return data[i]!;
    return (data[i]! * 299 + data[i + 1]! * 587 + data[i + 2]! * 114) / 1000;
  };
  for (let oy = 0; oy < h; oy++) {
    const sy0 = y0 + Math.floor((oy * (y1 - y0)) / h);
    const sy1 = Math.max(sy0 + 1, y0 + Math.floor(((oy + 1) * (y1 - y0)) / h));
    for (let ox = 0; ox < w; ox++) {
      const sx0 = x0 + Math.floor((ox * (x1 - x0)) / w);
      const sx1 = Math.max(sx0 + 1, x0 + Math.floor(((ox + 1) * (x1 - x0)) / w));
      let sum = 0;
      for (let y = sy0; y < sy1; y++) for (let x = sx0; x < sx1; x++) sum += grey(x, y);
      out[oy * w + ox] = Math.round(sum / ((sy1 - sy0) * (sx1 - sx0)));
    }
  }
  return { ...image, data: out, width: w, height: h, channels: 1 };
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}
