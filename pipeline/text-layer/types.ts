/**
 * The records of text-layer extraction. Coordinates are PDF points in the displayed page
 * (rotation applied), origin top-left, y growing down. The pieces a page is laid out from
 * (fragments, runs, lines, blocks) are the layout stage's (`pipeline/layout`).
 */

import type { FormulaRegion, TextLayerRegion } from '../layout/index.ts';

export type { Block, BlockLabel, FormulaRegion, Fragment, Line, Piece, Run, SidewaysPiece, TextLayerRegion } from '../layout/index.ts';

/** Whether a page's text layer can stand in for OCR, and the figures behind the verdict. */
export interface TextLayerAssessment {
  readonly usable: boolean;
  /** `text-layer-good`, `no-text-layer`, `too-little-text`, `garbage-text`, `invisible-text`. */
  readonly reason: string;
  readonly details: Readonly<Record<string, number | string | boolean>>;
}

/** One page of a PDF's text layer as Markdown with grounding tags. */
export interface TextLayerPage {
  /** 1-based. */
  readonly pageNumber: number;
  /** Displayed page size in points (rotation applied). */
  readonly width: number;
  readonly height: number;
  /** Markdown; every block preceded by a `<|ref|>label<|/ref|><|det|>[[…]]<|/det|>` line (0–999 grid). */
  readonly markdown: string;
  readonly assessment: TextLayerAssessment;
  /**
   * Regions the text layer cannot read well, for an engine to read from the rendered page
   * (`pipeline/regions`): raster images that may carry words, formula blocks without LaTeX.
   */
  readonly regions?: readonly TextLayerRegion[];
  /**
   * The display formulas found on the page, sure or not: the sure ones are in `markdown` as
   * `$$…$$`; an unsure one kept its text there, and its box can go to the formula model.
   */
  readonly formulas?: readonly FormulaRegion[];
}
