/**
 * What `folio bench speed` measures: per set, the converters side by side (each a whole process
 * timed from spawn to exit, as a user runs it), then `folio ingest` with and without embeddings,
 * into NDJSON and Elasticsearch, over the corpus once and four times, and one long document.
 */
import type { QualityEngine, QualitySet } from '../quality/types.ts';

/** The born-digital sets whose pages every converter reads, and the scanned one for OCR against Tesseract. */
export const SPEED_SETS = ['docling', 'olmocr', 'factory', 'factory-scans'] as const;

/** A converter run on a set: quality engines measured for time, CPU and memory. */
export interface ConverterPhase {
  readonly kind: 'convert';
  readonly set: QualitySet;
  readonly engine: QualityEngine;
}

/** `folio ingest` over a set's PDFs (`copies` times, under other paths). */
export interface IngestPhase {
  readonly kind: 'ingest';
  readonly set: QualitySet;
  /** `--engine`. */
  readonly engine: 'auto' | 'text';
  /** `--embed`: the default local model or none. */
  readonly embed: 'local' | 'none';
  /** Elasticsearch, or NDJSON when absent. */
  readonly es?: string;
  readonly copies: number;
}

/** One PDF made of a set's PDFs joined over and over, read by `folio convert --engine text`. */
export interface LongPhase {
  readonly kind: 'long';
  readonly set: QualitySet;
  /** Fewest pages of the joined document. */
  readonly pages: number;
}

export type SpeedPhase = ConverterPhase | IngestPhase | LongPhase;

/** The phase's name in the report: `docling/folio-auto`, `docling/ingest-es-embed-x4`, `docling/long`. */
export function phaseName(phase: SpeedPhase): string {
  if (phase.kind === 'convert') return `${phase.set.name}/${phase.engine.name}`;
  if (phase.kind === 'long') return `${phase.set.name}/long-${phase.pages}`;
  const target = phase.es === undefined ? 'ndjson' : 'es';
  const engine = phase.engine === 'text' ? '-text' : '';
  const embed = phase.embed === 'local' ? '-embed' : '';
  return `${phase.set.name}/ingest${engine}-${target}${embed}${phase.copies > 1 ? `-x${phase.copies}` : ''}`;
}
