/**
 * The records that flow through Folio, one stage to the next (see ARCHITECTURE.md):
 * SourceDocument → PageMarkdown → Element[] → Chunk → index. Each carries its provenance
 * (document, page, bbox) to the end.
 */

/** A document as a connector yields it: bytes plus where they came from. */
export interface SourceDocument {
  /** Deterministic id: a hash of the source URI. */
  readonly id: string;
  /** `file:///abs/path.pdf` or `https://…`. */
  readonly uri: string;
  /** Path relative to the common root of the inputs (used for output names), or the URL's last segment. */
  readonly relativePath: string;
  /** Sniffed from the bytes, not the extension: `application/pdf`, `image/png`, `text/markdown`, … */
  readonly mime: string;
  readonly bytes: Uint8Array;
  /** sha256 of the bytes, hex. */
  readonly contentHash: string;
  readonly modifiedAt?: Date;
  /**
   * The source's own version of the document, known before its bytes are read (an S3 object's
   * ETag, size and date; an HTTP ETag or Last-Modified): a sync compares it to skip downloads.
   */
  readonly version?: string;
  /** Set on a document found inside another (an e-mail's attachment): converted and indexed on its own, pruned with its parent. */
  readonly parent?: DocumentParent;
}

/** Where a child document (an attachment) came from. */
export interface DocumentParent {
  /** The `id` of the document that holds it. */
  readonly id: string;
  readonly uri: string;
  /** 1 for an attachment of a top-level document, 2 for an attachment of that attachment, … */
  readonly depth: number;
}

/** A box in page coordinates (PDF points for PDFs, pixels for images), origin top-left. */
export type BBox = readonly [x1: number, y1: number, x2: number, y2: number];

/** Why a page went the way it went: recorded per page. */
export interface RouteDecision {
  /** The engine that produced the page's Markdown: `text`, `paddle`, `onnx`, `remote`, `reader`, `markdown`. */
  readonly engine: string;
  /** A short machine-readable reason, e.g. `text-layer-good`, `no-text-layer`, `garbage-text`, `invisible-text`, `mostly-image`. */
  readonly reason: string;
  /** Extra figures behind the decision (character counts, image coverage, …). */
  readonly details?: Readonly<Record<string, number | string | boolean>>;
}

/** One page of one document as Markdown, whichever engine wrote it. */
export interface PageMarkdown {
  readonly docId: string;
  /** 1-based. */
  readonly pageNumber: number;
  /** Page size in the units of the bboxes (PDF points or pixels). */
  readonly width: number;
  readonly height: number;
  /** Markdown; tables as HTML, formulas as LaTeX, optionally DeepSeek-style grounding tags. */
  readonly markdown: string;
  readonly route: RouteDecision;
  /** Engine statistics (tokens, timings in ms, …). */
  readonly stats?: Readonly<Record<string, number>>;
}

export type ElementKind = 'heading' | 'paragraph' | 'list' | 'table' | 'formula' | 'figure' | 'caption' | 'code' | 'pageHeader' | 'pageFooter' | 'footnote';

/** A table as a grid, with spans expanded (a spanning cell repeats its text in every slot it covers). */
export interface TableData {
  /** rows × columns of cell text. */
  readonly cells: readonly (readonly string[])[];
  /** How many leading rows are header rows. */
  readonly headerRows: number;
  /** Clean HTML rendering (spans kept). */
  readonly html: string;
  /** GFM pipe table when the grid is representable, else undefined. */
  readonly markdown?: string;
  /** One line per body row: `Header: value; Header: value`. */
  readonly rowsText: readonly string[];
  /** True when `headerRows` was guessed from the content rather than read from markup (`<th>`, `<thead>`, a GFM delimiter row). */
  readonly headerGuessed?: boolean;
  /** Structural problems found while reading the table (ragged rows, unclosed tags); the quality gate grades them. */
  readonly issues?: readonly string[];
}

export interface FormulaData {
  readonly latex: string;
  readonly display: boolean;
  readonly valid: boolean;
  readonly error?: string;
  /** Plain text for search. */
  readonly text: string;
}

/**
 * Where an element sits in a file whose units are not pages: a sheet and its cells (XLSX, ODS,
 * CSV), or a slide (PPTX, ODP, whose page number is the slide's too).
 */
export interface ElementLocation {
  /** The sheet's name (a CSV's is its file name, as a spreadsheet application names it). */
  readonly sheet?: string;
  /** The cells, A1-style with the sheet: `Sheet1!A1:D40`, `'Q3 sales'!B2:F9`. */
  readonly range?: string;
  /** 1-based slide number. */
  readonly slide?: number;
}

/** A typed block of a page. */
export interface Element {
  readonly kind: ElementKind;
  /** Plain text of the element (what BM25 and embeddings see). */
  readonly text: string;
  /** Heading level 1–6, for headings. */
  readonly level?: number;
  /** Titles of the enclosing headings, outermost first. */
  readonly headingPath: readonly string[];
  readonly pageNumber: number;
  /** All pages the element spans (a table merged across pages lists both). */
  readonly pages: readonly number[];
  readonly bbox?: BBox;
  /** Grounding label from the OCR model (`title`, `text`, `table`, `image`, …). */
  readonly label?: string;
  readonly table?: TableData;
  readonly formulas?: readonly FormulaData[];
  /** Nested list items, for lists. */
  readonly items?: readonly ListItem[];
  readonly ordered?: boolean;
  /** Source offsets into the page Markdown: [start, end). */
  readonly position?: readonly [start: number, end: number];
  /** Every box of the element with its page, when there is more than `bbox` (a table merged across pages, several grounding tags). */
  readonly bboxes?: readonly { readonly page: number; readonly bbox: BBox }[];
  /** Clean Markdown of the element (grounding tags gone, formulas in `$…$`/`$$…$$`, tables as HTML), for re-rendering. */
  readonly markdown?: string /** Set on an element read from the page's pixels inside a text-layer page: the engine that read it (`paddle`, `folio-ocr-math`). */;
  readonly engine?: string;
  /** That engine's confidence: paddle's mean line confidence (0–1), folio-ocr-math's smallest logit gap. */
  readonly confidence?: number;
  /** Sheet and cells, or slide, for spreadsheets and presentations. */
  readonly location?: ElementLocation;
}

export interface ListItem {
  readonly text: string;
  readonly items?: readonly ListItem[];
}

/** One graded term of the quality gate: 1 is perfect, 0 is worst. */
export interface QualityTerm {
  readonly name: string;
  readonly score: number;
  readonly reasons: readonly string[];
}

export interface QualityReport {
  readonly pageNumber: number;
  /** Overall score in [0, 1]. */
  readonly score: number;
  readonly passed: boolean;
  readonly terms: readonly QualityTerm[];
  readonly reasons: readonly string[];
}

/** The unit that is embedded and indexed. */
export interface Chunk {
  /** Deterministic: hash of the document id and the chunk's position. */
  readonly id: string;
  readonly docId: string;
  /** The document this chunk's document was attached to (see `SourceDocument.parent`). */
  readonly parentId?: string;
  readonly source: string;
  readonly title?: string;
  /** Starts with the heading path, then the content. */
  readonly text: string;
  readonly headingPath: readonly string[];
  readonly pages: readonly number[];
  readonly bboxes: readonly { readonly page: number; readonly bbox: BBox }[];
  readonly kinds: readonly ElementKind[];
  readonly tokens: number;
  /** Position of the chunk in its document, 0-based. */
  readonly index: number;
  readonly table?: { readonly html: string; readonly rowsText: readonly string[]; readonly header: readonly string[] };
  readonly formulas?: readonly { readonly latex: string; readonly valid: boolean }[];
  readonly quality?: { readonly score: number; readonly passed: boolean; readonly reasons: readonly string[] };
  readonly contentHash: string;
  readonly engine: string;
  /** Sheets and cell ranges, or slides, of the chunk's elements, in order (spreadsheets and presentations). */
  readonly locations?: readonly ElementLocation[];
  /** Line range of the chunk in the document's Markdown, 1-based inclusive (LangChain's `loc.lines`). */
  readonly lines?: { readonly from: number; readonly to: number };
  readonly vector?: readonly number[];
}

/** A dead-letter record: an input, page or chunk that did not make it, and why. */
export interface FailureRecord {
  readonly source: string;
  readonly docId?: string;
  readonly pageNumber?: number;
  readonly chunkId?: string;
  /** Where it failed: `source`, `open`, `render`, `ocr`, `parse`, `quality`, `index`. */
  readonly stage: string;
  /** Stable error code (`FolioError.code`). */
  readonly code: string;
  readonly reason: string;
  readonly at: string;
}

/** A rendered page: interleaved 8-bit pixels, top-left origin. */
export interface PageImage {
  /** Names the page in errors and stats. */
  readonly docId: string;
  readonly source: string;
  readonly pageNumber: number;
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** 1 (grey), 3 (RGB) or 4 (RGBA). */
  readonly channels: 1 | 3 | 4;
}

/** What an OCR engine returns for one page (see `inference/engine.ts`). */
export interface OcrPageResult {
  readonly markdown: string;
  /** The engine's name, e.g. `paddle`, `onnx`, `remote`. */
  readonly engine: string;
  /** Figures per page: `tokens`, `steps`, `ms`, `retries`, … */
  readonly stats: Readonly<Record<string, number>>;
  /**
   * The recognised lines the Markdown was laid out from, for engines that read line by line
   * (paddle): what later stages need to find display formulas the layout merged into paragraphs.
   * Filled by the layout stage from `positioned`, not by the engine.
   */
  readonly lines?: readonly OcrLine[];
  /**
   * The page as an engine that finds and reads lines saw it, before layout. Such an engine leaves
   * `markdown` empty: the layout stage every route shares (`pipeline/layout`, `layoutOcrResult`)
   * writes it, so text-layer and OCR pages get the same reading order, tables and furniture.
   * Plain data, so it crosses worker threads and processes.
   */
  readonly positioned?: OcrPositionedPage;
}

/** A page's recognised lines, in pixels of its upright, deskewed frame, and how that frame maps back onto the image. */
export interface OcrPositionedPage {
  /** Size of the upright, deskewed frame in pixels. */
  readonly width: number;
  readonly height: number;
  readonly lines: readonly OcrPositionedLine[];
  /** Rules found in the pixels, in the same frame. */
  readonly rules: PixelRules;
  /** Column gutters found from the whitespace (x positions, same frame). */
  readonly gutters: readonly number[];
  readonly frame: OcrImageFrame;
}

/** One recognised line (or piece of one) in pixels of the layout frame. */
export interface OcrPositionedLine {
  readonly text: string;
  /** `[x0, top, x1, bottom]` in pixels of the upright, deskewed page. */
  readonly box: readonly [number, number, number, number];
  /** Mean character confidence, 0–1. */
  readonly confidence: number;
}

/** A rule in pixels of the deskewed frame: horizontal ones run `from`–`to` in x at `at` = y. */
export interface PixelRule {
  at: number;
  from: number;
  to: number;
}

export interface PixelRules {
  readonly horizontal: PixelRule[];
  readonly vertical: PixelRule[];
}

/**
 * How an engine turned the image as given into its layout frame: turned clockwise by `rotation`
 * to stand upright, then turned by `-skew` radians about the upright page's centre
 * (`core/ocr-frame.ts` maps boxes back).
 */
export interface OcrImageFrame {
  readonly rotation: 0 | 90 | 180 | 270;
  /** Text axis angle of the upright page in radians (y down: a line rising to the right is negative). */
  readonly skew: number;
  /** The image as given, in pixels. */
  readonly imageWidth: number;
  readonly imageHeight: number;
}

/** One recognised line (or piece of a line) of a page image. */
export interface OcrLine {
  /** As recognised, before Markdown escaping. */
  readonly text: string;
  /** On the 0–999 grid of the image as given, like the Markdown's grounding boxes. */
  readonly box: readonly [number, number, number, number];
  /** Mean character confidence, 0–1. */
  readonly confidence: number;
}
