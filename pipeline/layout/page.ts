/**
 * The positioned page: what every route that yields positioned text hands to the layout stage.
 * The text layer builds it from a PDF's glyph runs and paths (`pipeline/text-layer`), the OCR
 * route from an engine's recognised lines and the rules found in the pixels (`ocr-page.ts`).
 * Layout (`stage.ts`) never asks where a page came from beyond `origin`, which picks the few
 * rules that only hold for one kind of evidence.
 */
import type { PageStyle } from './blocks.ts';
import type { PageRules } from './rules.ts';
import type { Fragment, Run, SidewaysPiece } from './types.ts';

/** `[x0, top, x1, bottom]`. */
export type Box = readonly [number, number, number, number];

/** Where a page's text came from. */
export type PageOrigin = 'text-layer' | 'ocr';

/**
 * How the layout frame maps onto the displayed page, when they differ: a page whose text runs
 * sideways is laid out turned upright; an OCR page is laid out in its deskewed upright frame.
 */
export interface LayoutFrame {
  /** Size of the layout frame. */
  readonly width: number;
  readonly height: number;
  /** A box of the layout frame on the displayed page (`width` × `height` of the page). */
  readonly toPage: (box: [number, number, number, number]) => [number, number, number, number];
}

/**
 * One page of positioned text. Coordinates are points of the layout frame, origin top-left,
 * y growing down: the lines' boxes and baselines, the rules and the image boxes alike.
 */
export interface PositionedPage {
  /** 1-based. */
  readonly pageNumber: number;
  readonly origin: PageOrigin;
  /** Displayed page size: the grounding boxes of the Markdown are on this page. */
  readonly width: number;
  readonly height: number;
  /** Set when the layout frame is not the displayed page. @default undefined (the same) */
  readonly frame?: LayoutFrame;
  /**
   * The text, as fragments: runs on one baseline with no wide gap (text layer), or recognised
   * line pieces (OCR, `confidence` set). Each has its box, baseline `y`, size and font where known.
   */
  readonly fragments: Fragment[];
  /** The body size and font, the monospaced fonts; derived from the fragments when left out. */
  readonly style?: PageStyle;
  /** Drawn horizontal and vertical rules. */
  readonly rules: PageRules;
  /** Raster images' boxes (text layer): words drawn as images may be read from their pixels. */
  readonly images: readonly Box[];
  /** The glyph runs, for display formulas that read their fonts. @default [] */
  readonly runs?: readonly Run[];
  /**
   * Column gutters found from the page's whitespace (x positions): an OCR engine's, where line
   * boxes may touch across a narrow gutter. @default []
   */
  readonly gutters?: readonly number[];
  /** Text set at a quarter turn: sideways column headers. @default [] */
  readonly turned?: readonly SidewaysPiece[];
}

/**
 * The body size and font of a page: the ones carrying the most characters. A typewritten
 * document is set all in a monospaced font: then that font is the body's, not code.
 *
 * @example
 * pageStyle(fragments, new Set(['Courier'])) // { bodySize: 10, bodyFont: 'Times-Roman', monoFonts: Set {'Courier'} }
 */
export function pageStyle(fragments: readonly Fragment[], mono: ReadonlySet<string> = new Set()): PageStyle {
  const bySize = new Map<number, number>();
  const byFont = new Map<string, number>();
  for (const f of fragments) {
    const size = Math.round(f.size * 2) / 2;
    bySize.set(size, (bySize.get(size) ?? 0) + f.text.length);
    byFont.set(f.font, (byFont.get(f.font) ?? 0) + f.text.length);
  }
  const bodyFont = heaviest(byFont) ?? '';
  const monoFonts = new Set([...mono].filter((name) => name !== bodyFont));
  return { bodySize: heaviest(bySize) ?? 10, bodyFont, monoFonts };
}

/** The key of greatest weight; the first seen wins a tie. */
export function heaviest<K>(weights: ReadonlyMap<K, number>): K | undefined {
  let best: K | undefined;
  let bestWeight = -Infinity;
  for (const [key, weight] of weights) {
    if (weight > bestWeight) {
      best = key;
      bestWeight = weight;
    }
  }
  return best;
}
