/**
 * The document factory's contracts. A family plans documents (source + truth) from real text; a
 * renderer turns the sources into PDFs with the engines real documents come from (Chromium,
 * LibreOffice, pdflatex); the builder records the truth, checks it against the PDF's own text layer
 * and writes olmOCR-Bench-style tests from it.
 */
import type { Random } from '../scans/random.ts';
import type { Corpus } from './corpus/index.ts';

/** One cell of a table, in grid slots (row and column of its top-left slot). */
export interface TruthCell {
  readonly row: number;
  readonly col: number;
  readonly rowspan: number;
  readonly colspan: number;
  readonly text: string;
  /** A header cell (`<th>`): column headers and row-group labels set as headers. */
  readonly header: boolean;
}

export interface TruthTable {
  readonly rows: number;
  readonly cols: number;
  /** Rows at the top that are column headers. */
  readonly headerRows: number;
  readonly cells: readonly TruthCell[];
}

/**
 * One block of the body, in reading order. Inline emphasis is not marked: `text` is what a reader
 * sees. Inline formulas inside a paragraph are written `$…$`.
 */
export type TruthBlock =
  | { readonly kind: 'heading'; readonly level: number; readonly text: string }
  | { readonly kind: 'paragraph'; readonly text: string }
  | { readonly kind: 'list'; readonly ordered: boolean; readonly items: readonly { readonly text: string; readonly depth: number }[] }
  | { readonly kind: 'table'; readonly table: TruthTable; readonly caption?: string }
  | { readonly kind: 'formula'; readonly latex: string }
  | { readonly kind: 'code'; readonly text: string }
  /** A form's label and its value, however printed (grid, boxes, `Label: value`): written `Label: value`. */
  | { readonly kind: 'field'; readonly label: string; readonly value: string }
  | { readonly kind: 'caption'; readonly text: string };

/** The furniture printed on one page: running heads, feet, page numbers, letterheads' repeated lines. */
export interface PageFurniture {
  readonly header: readonly string[];
  readonly footer: readonly string[];
}

/** What a renderer needs: the source text or bytes and how to print it. */
export type DocumentSource =
  | {
      readonly renderer: 'chromium';
      readonly html: string;
      /** Paper, margins and Chromium's own header/footer templates (which carry page numbers). */
      readonly print: Readonly<ChromiumPrint>;
    }
  | { readonly renderer: 'libreoffice'; readonly extension: 'docx' | 'odt' | 'pptx' | 'odp'; readonly bytes: Uint8Array }
  | { readonly renderer: 'pdflatex'; readonly tex: string };

export interface ChromiumPrint {
  readonly format: 'A4' | 'Letter' | 'A5' | 'Legal';
  readonly landscape?: boolean;
  /** CSS lengths (`'20mm'`). */
  readonly margin: { readonly top: string; readonly bottom: string; readonly left: string; readonly right: string };
  /** Chromium's header/footer templates (`<span class="pageNumber">`, `totalPages`): page numbers that do not move the body. */
  readonly headerTemplate?: string;
  readonly footerTemplate?: string;
}

/** A planned document: its source and its truth, before rendering. */
export interface PlannedDocument {
  /** `<family>-<variant>-<nnn>`: unique in a build, a file name. */
  readonly id: string;
  readonly family: string;
  readonly variant: string;
  /** Script of the body for the report (`latin`, `arabic`, `hebrew`, `persian`, `chinese`, `korean`). @default 'latin' */
  readonly script?: string;
  readonly source: DocumentSource;
  /** The body in reading order, furniture excluded. */
  readonly blocks: readonly TruthBlock[];
  /** The document's title where it has one (it is never furniture). */
  readonly title?: string;
  /** The furniture of page `page` (1-based) of `pages`, once the page count is known. */
  furniture(page: number, pages: number): PageFurniture;
}

/** What a family gets to plan one document. */
export interface PlanContext {
  /** This document's own random stream (derived from the seed and its id). */
  readonly random: Random;
  readonly corpus: Corpus;
  /** Index of the document within its family (0-based): families cycle their variants by it. */
  readonly index: number;
  /** The document's id, already chosen. */
  readonly id: string;
}

/** A family of documents with its own look and variants. */
export interface Family {
  readonly name: string;
  /** One line for the report. */
  readonly description: string;
  /** Variants the family cycles through (named in ids and the report). */
  readonly variants: readonly string[];
  /** Share of the documents this family gets (weights are normalised). @default 1 */
  readonly weight?: number;
  plan(variant: string, context: Readonly<PlanContext>): PlannedDocument | Promise<PlannedDocument>;
}

/** The truth written per document (`<id>.truth.json`) after rendering. */
export interface DocumentTruth {
  readonly id: string;
  readonly family: string;
  readonly variant: string;
  readonly script: string;
  readonly renderer: DocumentSource['renderer'];
  readonly pages: number;
  readonly title?: string;
  readonly blocks: readonly TruthBlock[];
  /** `furniture[i]` is page i+1's. */
  readonly furniture: readonly PageFurniture[];
  /** The body as Markdown: headings, paragraphs, lists, HTML tables with spans, `$$…$$` formulas, code fences. */
  readonly markdown: string;
}
