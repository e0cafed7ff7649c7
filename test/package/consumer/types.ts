// Type-checked inside the temporary project (tsc, moduleResolution nodenext): every subpath's
// `types` entry resolves and the main names have the types a user writes against.

import type { Chunk, FolioErrorCode, RunSummary } from '@folio-ocr/folio';
import { convert, ERROR_CODES, FolioError, sourcesFrom, withLayout } from '@folio-ocr/folio';
import { fileSource } from '@folio-ocr/folio/connector';
import { createEsSink, hybridSearch, installMappings } from '@folio-ocr/folio/elasticsearch';
import type { OcrEngine } from '@folio-ocr/folio/engines';
import { createEngine, OCR_ENGINES } from '@folio-ocr/folio/engines';
import { FolioEmbeddings, FolioLoader, FolioRetriever } from '@folio-ocr/folio/langchain';
import { processDocument } from '@folio-ocr/folio/pipeline';
import { startOcrServer } from '@folio-ocr/folio/server';

const code: FolioErrorCode = 'FOLIO_PDF_PASSWORD';
const meaning: string = ERROR_CODES[code];
const summary: Promise<RunSummary> = convert(sourcesFrom(['a.pdf']), { outDir: 'out' });
const engine: Promise<OcrEngine> = createEngine(OCR_ENGINES[0]).then(withLayout);
const loader = new FolioLoader({ inputs: 'a.pdf', mode: 'page' });
const chunk = (c: Chunk): string => c.text;
export const all = [
  meaning,
  summary,
  engine,
  loader,
  chunk,
  FolioError,
  FolioEmbeddings,
  FolioRetriever,
  installMappings,
  hybridSearch,
  createEsSink,
  processDocument,
  fileSource,
  startOcrServer,
];
