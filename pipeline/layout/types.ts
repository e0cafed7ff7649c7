/**
 * The records of the layout stage: the pieces of a positioned page (fragments, their runs and
 * pieces, sideways text), the lines and blocks layout builds from them, and the regions it hands
 * on. Coordinates are points in the page's layout frame (the displayed page, or the page turned
 * upright when its text runs sideways), origin top-left, y growing down.
 */

import type { FormulaReading } from './formula/index.ts';
import type { RunInHead } from './run-in.ts';

/** A display formula found in the text layer (`formula/bands.ts`). */
export interface FormulaRegion extends FormulaReading {
  /** `[x0, top, x1, bottom]` in displayed page points, the equation number left out. */
  readonly box: readonly [number, number, number, number];
  /** Its equation number, `(3)` → `3`. */
  readonly number?: string;
}

/** A region of a text-layer page worth reading from its pixels. Box in displayed page points. */
export type TextLayerRegion =
  | {
      readonly kind: 'image';
      readonly box: readonly [number, number, number, number];
      /** The text-layer words drawn over the image, so words read from its pixels are not written twice. */
      readonly overlaid: string;
    }
  | {
      readonly kind: 'formula';
      readonly box: readonly [number, number, number, number];
      /** The block as it stands in the page Markdown (grounding line and text), to be replaced by the reading. */
      readonly block: string;
      readonly display: boolean;
    };

/** A horizontal run of text: characters of one style on one baseline with no wide gap (`page-text.ts`). */
export interface Run {
  readonly text: string;
  readonly x0: number;
  readonly x1: number;
  /** Baseline y. */
  readonly y: number;
  readonly top: number;
  readonly bottom: number;
  /** Font size in points. */
  readonly size: number;
  readonly font: string;
  /** Whitespace-only items mark a word break and are dropped after that. */
  readonly space: boolean;
}

/**
 * Text set sideways (or steeper than 30°) on the displayed page (a column header set sideways, a margin
 * stamp), in reading order along its baseline, with its box (`page-text.ts`).
 */
export interface SidewaysPiece {
  readonly text: string;
  readonly x0: number;
  readonly x1: number;
  readonly top: number;
  readonly bottom: number;
  /** Font size in points. */
  readonly size: number;
  readonly font: string;
  /** Which way it runs, in degrees clockwise from left-to-right: 90 reads top to bottom, 270 bottom to top, others at a slant. */
  readonly turn: number;
}

/** One run inside a fragment of several runs (formulas read their baselines, tables split at them). */
export interface Piece {
  readonly text: string;
  readonly x0: number;
  readonly x1: number;
  readonly y: number;
  readonly size: number;
  /** Its font, where known: inline formulas (`formula/inline.ts`) tell math from text by it. */
  readonly font?: string;
}

/** Runs on one baseline with no wide gap between them: a line piece, or a table cell. */
export interface Fragment {
  text: string;
  x0: number;
  x1: number;
  y: number;
  top: number;
  bottom: number;
  size: number;
  /** The font carrying most of the characters. */
  font: string;
  /** Set on the stand-in for a whole table found before reading order: its cells. */
  table?: string[][];
  /** Its runs, when it has several: `formula/` and `tables.ts` read them. */
  pieces?: Piece[];
  /** Set on the stand-in for a display formula read before reading order (`formula/bands.ts`). */
  formula?: FormulaReading;
  /** Mean character confidence (0–1) of a recognised piece (OCR pages); unset on the text layer. */
  confidence?: number;
}

/** Fragments of one region that share a baseline, left to right. */
export interface Line {
  readonly fragments: readonly Fragment[];
  readonly text: string;
  readonly x0: number;
  readonly x1: number;
  readonly y: number;
  readonly top: number;
  readonly bottom: number;
  readonly size: number;
  readonly font: string;
}

export type BlockLabel = 'title' | 'sub_title' | 'text' | 'table' | 'page_header' | 'page_footer' | 'list' | 'equation' | 'image';

/** A typed block ready to be written as Markdown. */
export interface Block {
  label: BlockLabel;
  lines: Line[];
  /** Heading level for `title`/`sub_title`. */
  level?: number;
  /** For `list`: the marker as found (`-`, `1.`). */
  marker?: string;
  /** For `table`: cell texts, rows × columns. */
  cells?: string[][];
  /** Set in a monospaced font: written as a fenced code block, line by line. */
  code?: boolean;
  /** For `equation`: LaTeX rebuilt from the glyphs and accepted by KaTeX (`$$…$$`); else the text is kept. */
  latex?: string;
  /** For `equation`: how sure the geometry leaves the LaTeX (`formula/reading.ts`). */
  confidence?: number;
  /** For `text`: the emphasised lead-in that opens the paragraph (`run-in.ts`), kept as `**…**` or `*…*`. */
  leadIn?: RunInHead;
}
