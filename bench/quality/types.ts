/** The contracts of `folio bench quality`: a set of documents with a scorer, and an engine that converts them. */

/** One PDF of a set. */
export interface QualityDocument {
  /** Output name: the PDF's path inside the set without `.pdf` (`headers_footers/ff0f…_pg2`). */
  readonly name: string;
  /** Path of the PDF. */
  readonly pdf: string;
  readonly pages: number;
}

/** What a set reports for one engine. */
export interface SetScore {
  /** The set's headline figure, a fraction (higher is better). */
  readonly headline: number;
  /** What the headline is, e.g. `adjacency-relation F1`. */
  readonly headlineName: string;
  /** Further named figures (fractions or counts), e.g. `precision`, `rtl`. */
  readonly figures: Readonly<Record<string, number>>;
  /** Per-document rows for the report: `[name, ...values]`, headed by {@link QualitySet.columns}. */
  readonly rows: readonly (readonly string[])[];
}

/**
 * A named dev set. To add one (`--set scans`), implement this in its own folder and add it to
 * `QUALITY_SETS` in `sets.ts`.
 */
export interface QualitySet {
  readonly name: string;
  /** One line for the report: what the documents are and where they come from. */
  readonly description: string;
  /** Table-structure sets also run the table-only baselines (tabula). @default false */
  readonly tables?: boolean;
  /** Image-only pages: the OCR-only baselines (Tesseract) run too. @default false */
  readonly scanned?: boolean;
  /** Column headings of the per-document rows (the first is the document). */
  readonly columns: readonly string[];
  /** The documents; a ConfigurationError when the data is missing. */
  documents(): Promise<QualityDocument[]>;
  /** Score a folder of `<name>.md`; a missing file scores as empty output, never a throw. */
  score(markdownDir: string, documents: readonly QualityDocument[]): Promise<SetScore>;
}

/** The outcome of one engine converting one set. */
export interface ConvertRun {
  readonly wallMs: number;
  /** CPU seconds (user + system) of the engine's processes, all threads, when `/usr/bin/time` measured them. */
  readonly cpuSeconds?: number;
  /** Largest peak RSS of the engine's processes, MiB, when `/usr/bin/time` measured them. */
  readonly peakRssMiB?: number;
  /** `name: reason` per document that failed. */
  readonly failures: readonly string[];
}

export interface QualityEngine {
  readonly name: string;
  /** Folio itself, or a peer run for comparison. */
  readonly kind: 'folio' | 'baseline';
  /** Only tables come out (tabula): run on table sets only. @default false */
  readonly tablesOnly?: boolean;
  /** Reads images only (Tesseract): run on scanned sets only. @default false */
  readonly scansOnly?: boolean;
  /** Install what the engine needs (idempotent); resolves to the reason it cannot run, or undefined. */
  prepare(): Promise<string | undefined>;
  /** Write `<out>/<name>.md` for every document. */
  convert(documents: readonly QualityDocument[], out: string): Promise<ConvertRun>;
  /** Version string for the report. */
  version(): Promise<string>;
}
