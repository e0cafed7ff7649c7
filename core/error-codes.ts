/**
 * Every stable code a Folio error (`FolioError.code`) or failure record (`FailureRecord.code`)
 * carries, with what it means. This is the one list: `FolioError`'s constructor takes only these
 * names, so a new code is added here (and to the README's table, which a test compares) or the
 * build fails. Codes are never renamed; a caller may switch on them.
 *
 * @example
 * import { FolioError, ERROR_CODES } from '@folio-ocr/folio';
 * try { await convert({ inputs, outDir }); } catch (e) {
 *   if (e instanceof FolioError) console.error(e.code, ERROR_CODES[e.code]);
 * }
 */
export const ERROR_CODES = {
  // Configuration: the run cannot start (ConfigurationError).
  FOLIO_BAD_ARGUMENTS: 'the command line could not be parsed',
  FOLIO_BAD_OPTION: 'an option has the wrong type or value; the message names it',
  FOLIO_NODE_VERSION: 'the Node.js running Folio is older than the package supports; the message names both versions',
  FOLIO_BAD_DEVICE: '`--device` / `device` names no execution provider',
  FOLIO_DEVICE_UNAVAILABLE: 'the execution provider asked for is not available on this machine',
  FOLIO_UNKNOWN_ENGINE: '`--engine` / `engine` names no OCR engine',
  FOLIO_CHUNK_OPTIONS: 'a chunking option has the wrong type or value',
  FOLIO_PARSE_OPTIONS: 'a Markdown parsing option has the wrong type or value',
  FOLIO_RENDER_OPTIONS: 'a Markdown rendering option has the wrong type or value',
  FOLIO_QUALITY_OPTIONS: 'a quality-gate option has the wrong type or value',
  FOLIO_SINK_BAD_OPTION: 'a sink option has the wrong type or value',
  FOLIO_SINK_OUT_DIR: 'the NDJSON output folder cannot be written',
  FOLIO_ES_BAD_OPTION: 'an Elasticsearch option (index name, …) is invalid',
  FOLIO_ES_UNREACHABLE: 'Elasticsearch does not answer at the URL given',
  FOLIO_ES_DIMS_MISMATCH: 'the index holds vectors of other dimensions than the embedder makes',
  FOLIO_NO_ELASTICSEARCH: 'the command needs Elasticsearch and no URL was given',
  FOLIO_EMBED_MODEL: 'the local embedding model folder is missing or invalid',
  FOLIO_EMBED_TOKENIZER: "the embedding model's tokenizer cannot be read",
  FOLIO_MODEL_MISSING: "the onnx engine's default model is not installed (`@folio-ocr/folio-ocr-mini`)",
  FOLIO_SERVE_LISTEN: '`folio serve` cannot listen on the host and port given',
  FOLIO_PDFIUM_INIT: 'PDFium (WebAssembly) could not be started',
  FOLIO_BENCH_UNAVAILABLE: '`folio bench` runs only from a checkout of the repository',
  FOLIO_S3_CREDENTIALS: 'the S3 server refused the credentials (unknown key, bad signature, access denied) or none were found',
  FOLIO_S3_UNREACHABLE: 'the S3 endpoint does not answer at the start of the run',

  // Sources: one document cannot be read (SourceError, or a failure record with stage `source`).
  FOLIO_BAD_INPUT: 'an input is neither a path nor a URL',
  FOLIO_NOT_FOUND: 'no such file or folder',
  FOLIO_LISTING_FAILED: 'a folder or glob could not be listed; nothing it covers is pruned',
  FOLIO_UNREADABLE: 'the file cannot be read (permissions, a folder, …)',
  FOLIO_EMPTY_FILE: 'the file or response body is empty',
  FOLIO_TOO_LARGE: 'the file or response body is larger than `maxBytes`',
  FOLIO_UNSUPPORTED_TYPE: 'the content is of no type Folio reads (PDF, image, Markdown, Office, OpenDocument, HTML, EPUB, e-mail, CSV)',
  FOLIO_NESTING_TOO_DEEP: 'an attachment lies deeper inside attachments than Folio reads (ten levels); it is listed, not converted',
  FOLIO_BAD_URL: 'the URL is not valid',
  FOLIO_FETCH_FAILED: 'the URL could not be fetched',
  FOLIO_HTTP_STATUS: 'the server answered with an error status (retried when transient)',
  FOLIO_TIMEOUT: 'no complete response in time (retried)',
  FOLIO_CONNECTION_RESET: 'the connection was lost (retried)',
  FOLIO_UNREACHABLE: 'the host cannot be reached',
  FOLIO_TOO_MANY_REDIRECTS: 'more redirects than `maxRedirects`',
  FOLIO_SOURCE_LOST: 'a source server (S3) stopped answering mid-run past the retries; nothing is pruned (exit 3)',
  FOLIO_OFFICE_ENCRYPTED: 'the Office file (or a zip entry) is encrypted with a password',
  FOLIO_ZIP_CORRUPT: 'the Office, OpenDocument or EPUB container (a zip) is truncated or damaged',
  FOLIO_ZIP_TOO_LARGE: 'the container expands past the size, ratio or entry-count bounds (a zip bomb)',
  FOLIO_XML_MALFORMED: 'an XML part of the document is not well-formed (or nests or counts past the bounds)',
  FOLIO_XML_UNSAFE: 'an XML part declares entities or an external DTD, which are never resolved',
  FOLIO_FORMAT_CORRUPT: 'the document lacks a part its format needs, or its structure cannot be read',
  FOLIO_FORMAT_TOO_LARGE: 'the document holds more cells, slides or nesting than the bounds allow',
  FOLIO_FORMAT_TIMEOUT: 'reading the document took longer than its time limit',
  FOLIO_CONVERTER_MISSING: 'a legacy Office file (.doc, .xls, .ppt) needs LibreOffice, which is not installed',
  FOLIO_CONVERTER_FAILED: 'LibreOffice could not convert the legacy Office file',
  FOLIO_PDF_PASSWORD: 'the PDF is encrypted and no password was given',
  FOLIO_PDF_BAD_PASSWORD: 'the password given does not open the PDF',
  FOLIO_PDF_CORRUPT: 'the PDF (or one of its pages) cannot be read',
  FOLIO_PDF_PAGE_RANGE: 'a page number past the end of the PDF',
  FOLIO_PDF_CLOSED: 'the PDF handle was used after `close()`',
  FOLIO_RENDER_FAILED: 'a PDF page cannot be rendered for OCR',
  FOLIO_IMAGE_CORRUPT: 'the image file cannot be decoded',
  FOLIO_IMAGE_PAGE: 'one page (frame) of a multi-page image cannot be decoded',
  FOLIO_IMAGE_TOO_LARGE: 'the image has more pixels than `maxPixels`',
  FOLIO_OCR_IMAGE_TOO_LARGE: 'a page image handed to the OCR engine has more pixels than its `maxPixels` (refused before any allocation)',
  FOLIO_IMAGE_TOO_SMALL: 'the image is too small to hold text',
  FOLIO_IMAGE_UNREADABLE: 'the image file cannot be read',

  // Inference: an engine or model failed (InferenceError).
  FOLIO_OCR_FAILED: 'the OCR engine failed on a page',
  FOLIO_OCR_BAD_IMAGE: 'the page image does not match its declared size',
  FOLIO_OCR_BLANK_IMAGE: 'the page image is uniformly dark: nothing to read',
  FOLIO_PAGE_EMPTY: 'the page image has no pixels',
  FOLIO_PAGE_PIXELS: 'the page image holds another number of bytes than its size says',
  FOLIO_PAGE_TOO_LARGE: "the page image is larger than the engine's `maxImageSide`",
  FOLIO_ENGINE_CLOSED: 'the engine (or one of its worker lanes) was closed or exited',
  FOLIO_NO_OCR_ENGINE: 'a page needs OCR and the run has no engine',
  FOLIO_READER_NEEDS_URL: 'the reader engine reads documents by URL only',
  FOLIO_REMOTE_UNAVAILABLE: 'the remote OCR server failed transiently after the retries',
  FOLIO_REMOTE_REJECTED: 'the remote OCR server rejected the request',
  FOLIO_MODEL_FILE: 'a model folder lacks `folio-model.json` or it is not valid JSON',
  FOLIO_MODEL_CONFIG: '`folio-model.json` is invalid or asks for what the engine does not support',
  FOLIO_MODEL_FAMILY: 'the model family is not one this engine runs',
  FOLIO_MODEL_LOAD: 'onnxruntime cannot load an ONNX file',
  FOLIO_MODEL_SHAPE: 'the ONNX graphs do not match `folio-model.json`',
  FOLIO_MODEL_INPUTS: "the inputs given do not match the ONNX graph's",
  FOLIO_MODEL_RUN: 'onnxruntime failed while running a graph',
  FOLIO_MODEL_OUTPUT: 'a graph returned a missing or misshapen output',
  FOLIO_MODEL_NO_DRAFT_HEAD: 'speculative decoding was asked of a model without a draft head',
  FOLIO_DECODE_STATE: "the decoder's caches were used out of order (a bug: please report it)",
  FOLIO_EMBED_CLOSED: 'the embedder was used after `close()`',
  FOLIO_EMBED_OUTPUT: 'the embedding model returned a misshapen output',
  FOLIO_EMBED_REMOTE: 'the remote embeddings endpoint failed',
  FOLIO_EMBED_FAILED: 'a document could not be embedded; it was indexed without vectors',
  FOLIO_LLM: 'the LLM endpoint of `ask` failed',

  // Indexing and sinks (IndexingError, or a failure record with stage `index`).
  FOLIO_ES_MAPPING: 'the index templates or mappings could not be installed',
  FOLIO_ES_BULK_REJECTED: 'Elasticsearch rejected a bulk request',
  FOLIO_ES_DOCUMENT_REJECTED: 'Elasticsearch rejected one document',
  FOLIO_ES_TOO_MANY_REQUESTS: 'Elasticsearch answered 429 after the retries',
  FOLIO_ES_TRANSPORT: 'the connection to Elasticsearch failed after the retries',
  FOLIO_ES_DOCUMENT_STATE: "the document's sync state could not be stored",
  FOLIO_ES_STALE_DELETE: 'chunks left from an earlier version could not be deleted',
  FOLIO_SEARCH: 'a search request failed',
  FOLIO_SINK_CLOSED: 'the sink was written after `close()`',
  FOLIO_SINK_INTERNAL: 'a sink task failed unexpectedly',
  FOLIO_NDJSON_WRITE: 'an NDJSON output file cannot be written',
  FOLIO_FALLBACK_WRITE: 'failure records could be stored neither in the failures index nor on disk',
  FOLIO_ES_LOST: 'not sent: the cluster was lost earlier in the run (the record went to the fallback file)',
  FOLIO_ES_PRUNE: 'documents gone from their source could not be removed from the index',
  FOLIO_ES_CLEAR_FAILURES: 'the resolved failure records of documents that now succeed could not be cleared',

  // The run.
  FOLIO_QUALITY_GATE: 'a page failed the quality gate and went to the dead letters',
  FOLIO_WORKER_CRASHED: 'the worker thread processing a document died',
  FOLIO_ABORTED: 'the run was stopped (AbortSignal) before this record was done',
  FOLIO_UNKNOWN: 'a foreign error (not a FolioError), reported by `errorCode()`',

  // Repository tools, not in the package: `folio bench` and `npm run es:start` in a checkout.
  FOLIO_BENCH_DATASET: 'a benchmark data set is missing or invalid',
  FOLIO_BENCH_EMPTY: 'a benchmark produced nothing to measure',
  FOLIO_BENCH_OPTIONS: 'a benchmark option has the wrong type or value',
  FOLIO_BENCH_SUITE_MISSING: 'no benchmark suite of that name',
  FOLIO_BENCH_TOOL: 'a baseline tool (pdftotext, tesseract, …) is not installed',
  FOLIO_README_MARKERS: 'the README has no figures block to fill',
  FOLIO_README_MISSING: 'the README cannot be read',
  FOLIO_ES_DOWNLOAD: 'the local Elasticsearch cannot be downloaded',
  FOLIO_ES_PLUGIN_BUILD: 'the Elasticsearch plugin could not be built with Maven (the message has its output)',
  FOLIO_ES_PLUGIN_INSTALL: 'the built plugin could not be installed into the local Elasticsearch',
  FOLIO_ES_NO_MAVEN: 'Maven (`mvn`), which fetches the local Elasticsearch, is not installed',
  FOLIO_ES_NO_JAVA: 'no JDK 21 or newer for the local Elasticsearch',
  FOLIO_ES_PORT_IN_USE: "the local Elasticsearch's port is taken",
  FOLIO_ES_USER: 'the user to run the local Elasticsearch cannot be created',
  FOLIO_ES_START: 'the local Elasticsearch did not start',
  FOLIO_ES_START_TIMEOUT: 'the local Elasticsearch was not green in time',
  FOLIO_ES_NOT_READY: 'the local Elasticsearch is not ready',
} as const satisfies Readonly<Record<`FOLIO_${string}`, string>>;

/** A stable error code: a key of {@link ERROR_CODES}. */
export type FolioErrorCode = keyof typeof ERROR_CODES;

/** Whether `code` is one of Folio's codes (for codes that crossed a thread or a process). */
export function isFolioErrorCode(code: unknown): code is FolioErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}
