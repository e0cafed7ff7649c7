/**
 * The OCR route into the layout stage: an engine's recognised lines (pixels of the upright,
 * deskewed page) and the rules found in its pixels become a positioned page in points, which
 * is laid out like a text-layer page (columns, reading order, tables drawn and aligned, headings,
 * lists), with a table's rows never taken for furniture.
 *
 * A scan does not say its resolution, and the layout's measures are in points: the page is
 * scaled so its body text comes out at {@link BODY_SIZE} points, the size of most printed body
 * text, and each line's type size is estimated from its box height.
 */
import type { BoxMapper } from '../../core/ocr-frame.ts';
import type { OcrPositionedLine, PixelRules } from '../../core/types.ts';
import { FurnitureModel, marginRows } from '../text-layer/furniture.ts';
import type { PositionedPage } from './page.ts';
import type { LaidOutPage } from './stage.ts';
import { layoutPage } from './stage.ts';
import type { Fragment } from './types.ts';

/** What an OCR engine hands the layout stage for one page. */
export interface OcrPageLayout {
  /** 1-based. */
  readonly pageNumber: number;
  /** Size of the upright, deskewed frame in pixels. */
  readonly width: number;
  readonly height: number;
  readonly lines: readonly OcrPositionedLine[];
  /** Column gutters found from the whitespace (x positions, same frame). @default [] */
  readonly gutters?: readonly number[];
  /** Rules found in the pixels, in the same frame. @default none */
  readonly rules?: PixelRules;
  /** A box of the frame onto the 0–999 grid of the image as it was given. */
  readonly toGrid: BoxMapper;
}

/** Points the body text of a scan is scaled to. */
const BODY_SIZE = 10;
/**
 * Type size over line box height. A detector's line box spans ascenders to descenders and a
 * margin besides (DB's boxes carry about a fifth of their height on each side).
 */
const SIZE_OF_BOX = 0.7;
/** Share of the body's line box height within which a line box counts as body size. */
const SAME_SIZE = 0.3;
/** The same for furniture, which tells a footer a size smaller from the body (paddle's own rule's tolerance). */
const FURNITURE_SAME_SIZE = 0.15;
/** Baseline height above the box bottom, as a share of the box height (descenders and margin). */
const BASELINE = 0.25;

/**
 * The positioned page of an OCR page, and how its boxes map back to the image's grid.
 *
 * @example
 * const page = ocrPositionedPage({ pageNumber: 1, width: 1700, height: 2200, lines, toGrid });
 */
export function ocrPositionedPage(input: OcrPageLayout): PositionedPage {
  return positioned(input).page;
}

/** The positioned page, and each fragment's type size as its own box measured it (before sizes near the body's were made the body's). */
function positioned(input: OcrPageLayout): { page: PositionedPage; measured: Map<Fragment, number> } {
  const { pageNumber, width, height, lines, rules, gutters = [], toGrid } = input;
  const heights = lines.map((l) => l.box[3] - l.box[1]).filter((h) => h > 0);
  const bodyHeight = median(heights) ?? 20;
  const scale = BODY_SIZE / (SIZE_OF_BOX * bodyHeight);
  const fragments: Fragment[] = [];
  const measured = new Map<Fragment, number>();
  for (const line of lines) {
    const text = line.text.trim();
    const [x0, top, x1, bottom] = line.box;
    if (text === '' || !(x1 > x0 && bottom > top)) continue;
    // A line box's height says the type size only roughly (capitals, descenders and the
    // detector's margin move it by a tenth either way): within SAME_SIZE of the body's it is body
    // size, and every box is set to the height of its size about its middle, so gaps between
    // lines of a paragraph come out even and sizes change only where the type does.
    const measuredHeight = bottom - top;
    const h = Math.abs(measuredHeight / bodyHeight - 1) <= SAME_SIZE ? bodyHeight : measuredHeight;
    const middle = (top + bottom) / 2;
    const fragment: Fragment = {
      text,
      x0: x0 * scale,
      x1: x1 * scale,
      top: (middle - h / 2) * scale,
      bottom: (middle + h / 2) * scale,
      y: (middle + h / 2 - BASELINE * h) * scale,
      size: SIZE_OF_BOX * h * scale,
      font: '',
      confidence: line.confidence,
    };
    fragments.push(fragment);
    measured.set(fragment, SIZE_OF_BOX * measuredHeight * scale);
  }
  const toPoints = (r: { at: number; from: number; to: number }): { at: number; from: number; to: number } => ({
    at: r.at * scale,
    from: r.from * scale,
    to: r.to * scale,
  });
  const page: PositionedPage = {
    pageNumber,
    origin: 'ocr',
    // The grounding boxes are on the image's 0–999 grid: the frame maps straight onto it.
    width: 999,
    height: 999,
    frame: {
      width: width * scale,
      height: height * scale,
      toPage: (box) => {
        const [a, b, c, d] = toGrid([box[0] / scale, box[1] / scale, box[2] / scale, box[3] / scale]);
        return [a, b, c, d];
      },
    },
    fragments,
    rules: { horizontal: (rules?.horizontal ?? []).map(toPoints), vertical: (rules?.vertical ?? []).map(toPoints) },
    images: [],
    gutters: gutters.map((g) => g * scale),
  };
  return { page, measured };
}

/**
 * Lay out an OCR page through the layout stage. Furniture is decided row by row before blocks
 * form, by the hand rules (`core/furniture.ts`) on this page alone; the whole document's pass
 * over its elements follows (`pipeline/run/ocr-furniture.ts`). Rows of a table found on the page
 * are never furniture.
 *
 * @example
 * const { markdown } = layoutOcrPage({ pageNumber: 1, width: 1700, height: 2200, lines, rules, toGrid });
 */
export function layoutOcrPage(input: OcrPageLayout): LaidOutPage {
  return layoutOcrPages([input], new FurnitureModel('ocr'))[0]!;
}

/**
 * Lay out OCR pages of one document (a batch, in page order) with the document's furniture
 * judge, shared by all its OCR pages: every page's margin rows are shown to it before any page
 * of the batch is laid out, so a running head or page number that comes back on an earlier page
 * or another page of the batch is known for what it is before it joins a paragraph (`'ocr'`: the
 * hand rules, and the classifier for rows that come back).
 *
 * @example
 * const furniture = new FurnitureModel('ocr'); // one per document
 * const [first, second] = layoutOcrPages([page1, page2], furniture);
 */
export function layoutOcrPages(inputs: readonly OcrPageLayout[], furniture: FurnitureModel): LaidOutPage[] {
  const pages = inputs.map((input) => {
    const { page, measured } = positioned(input);
    const rows = page.fragments.length === 0 ? [] : marginRows(page.fragments, page.frame?.height ?? page.height, BODY_SIZE);
    furniture.observe(page.pageNumber, rows);
    return { page, measured, rows };
  });
  const style = { bodySize: BODY_SIZE, bodyFont: '', monoFonts: new Set<string>() };
  return pages.map(({ page, measured, rows }) => {
    // Furniture reads type size finer than paragraphs do (a footer a size smaller, a title a size
    // bigger): the row's size as its boxes measured it, within FURNITURE_SAME_SIZE of the body's
    // counting as body size.
    const decide = (row: (typeof rows)[number]): string | undefined => {
      const sizes = row.line.fragments.map((f) => measured.get(f) ?? f.size);
      const size = median(sizes) ?? row.line.size;
      const typeSize = Math.abs(size / BODY_SIZE - 1) <= FURNITURE_SAME_SIZE ? BODY_SIZE : size;
      return furniture.decide({ ...row, line: { ...row.line, size: typeSize } }, style.bodySize);
    };
    return layoutPage({ ...page, style }, { furniture: { rows, decide } });
  });
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
