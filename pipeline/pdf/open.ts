/**
 * Opening PDFs with pdfjs-dist, shared by the text-layer extractor and the page renderer.
 *
 * pdfjs is heavy (a few MB of JavaScript), so it is imported lazily on the first open. Its
 * failures arrive as loosely typed exceptions (`PasswordException`, `InvalidPDFException`, …);
 * they are mapped here to {@link SourceError}s with stable codes that name the document, so a
 * bad file becomes a failure record and the run goes on.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ConfigurationError, SourceError } from '../../core/errors.ts';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

export interface OpenPdfOptions {
  /** Names the document in errors (a path or URI). */
  readonly source: string;
  /**
   * Password for encrypted PDFs.
   * @default undefined
   */
  readonly password?: string;
  /**
   * Keep pdfjs' font data after parsing (needed to read font names such as `Times-Bold` from
   * `page.commonObjs`); costs memory, so only set it when you need it.
   * @default false
   */
  readonly fontExtraProperties?: boolean;
}

/** An open PDF. Call {@link PdfHandle.close} when done (in a `finally`). */
export interface PdfHandle {
  readonly source: string;
  readonly numPages: number;
  /** The pdfjs document, for callers that need more than pages (outline, metadata). */
  readonly document: PDFDocumentProxy;
  /**
   * The pdfjs page proxy of a 1-based page number. Rejects with a `SourceError`
   * (`FOLIO_PDF_PAGE_RANGE`, `FOLIO_PDF_CORRUPT`) naming the document and page.
   */
  page(pageNumber: number): Promise<PDFPageProxy>;
  /** Frees the document and its worker-side data; safe to call twice. */
  close(): Promise<void>;
}

let pdfjsPromise: Promise<PdfJs> | undefined;

/** pdfjs, loaded once on first use. */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjsPromise ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsPromise;
}

let assetDirs: { cMapUrl: string; standardFontDataUrl: string; wasmUrl: string; iccUrl: string } | undefined;

/**
 * The local folders of pdfjs' CMaps, standard fonts, wasm decoders and ICC profiles. In Node
 * pdfjs reads these with `fs.readFile(base + name)`, so they are plain paths ending in `/`;
 * without them CJK text and the 14 standard fonts come out wrong or not at all offline.
 */
function pdfjsAssets(): typeof assetDirs & object {
  if (assetDirs === undefined) {
    const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    const dir = (name: string): string => join(root, name) + '/';
    assetDirs = { cMapUrl: dir('cmaps'), standardFontDataUrl: dir('standard_fonts'), wasmUrl: dir('wasm'), iccUrl: dir('iccs') };
  }
  return assetDirs;
}

/**
 * Open a PDF from its bytes.
 *
 * pdfjs transfers (detaches) the buffer it is given, so this passes a copy: the caller's
 * `bytes` stay usable.
 *
 * @throws {SourceError} `FOLIO_EMPTY_FILE`, `FOLIO_PDF_PASSWORD`, `FOLIO_PDF_BAD_PASSWORD`,
 *   `FOLIO_PDF_CORRUPT`, each naming `source`.
 * @example
 * const pdf = await openPdf(bytes, { source: 'a.pdf' });
 * try { const page = await pdf.page(1); } finally { await pdf.close(); }
 */
export async function openPdf(bytes: Uint8Array, options: Readonly<OpenPdfOptions>): Promise<PdfHandle> {
  const { source, password, fontExtraProperties = false } = options ?? ({} as OpenPdfOptions);
  if (typeof source !== 'string' || source === '') {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`source\` to be a non-empty string, got \`${String(source)}\` (${typeof source})`);
  }
  if (!(bytes instanceof Uint8Array)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`bytes\` to be a Uint8Array, got ${typeof bytes}`);
  }
  if (bytes.byteLength === 0) {
    throw new SourceError('FOLIO_EMPTY_FILE', `${source}: the file is empty (0 bytes)`, { meta: { source } });
  }
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    // A plain Uint8Array copy: pdfjs refuses Buffers and detaches what it is given.
    data: new Uint8Array(bytes),
    password,
    ...pdfjsAssets(),
    cMapPacked: true,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    // No DOM in Node: fonts are never installed as FontFace, and eval stays off.
    disableFontFace: true,
    isEvalSupported: false,
    useSystemFonts: false,
    fontExtraProperties,
    stopAtErrors: false,
  });
  let document: PDFDocumentProxy;
  try {
    document = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw mapPdfError(error, source, password !== undefined);
  }
  let closed = false;
  return {
    source,
    numPages: document.numPages,
    document,
    async page(pageNumber: number): Promise<PDFPageProxy> {
      if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > document.numPages) {
        throw new SourceError('FOLIO_PDF_PAGE_RANGE', `${source}: page ${pageNumber} does not exist (the PDF has ${document.numPages} pages)`, {
          meta: { source, pageNumber },
        });
      }
      try {
        return await document.getPage(pageNumber);
      } catch (error) {
        throw new SourceError('FOLIO_PDF_CORRUPT', `${source}: page ${pageNumber} cannot be read: ${messageOf(error)}`, {
          cause: error,
          meta: { source, pageNumber },
        });
      }
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await task.destroy();
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** pdfjs' exceptions cross a (fake) worker boundary, so they are recognised by name, not class. */
function mapPdfError(error: unknown, source: string, hadPassword: boolean): SourceError {
  const name = error instanceof Error ? error.name : '';
  const code = (error as { code?: unknown } | null)?.code;
  const meta = { source };
  if (name === 'PasswordException') {
    // PasswordResponses: 1 = NEED_PASSWORD, 2 = INCORRECT_PASSWORD.
    if (code === 2 || (hadPassword && code !== 1)) {
      return new SourceError('FOLIO_PDF_BAD_PASSWORD', `${source}: the password given does not open this PDF`, { cause: error, meta });
    }
    return new SourceError('FOLIO_PDF_PASSWORD', `${source}: the PDF is encrypted and needs a password; pass --password`, { cause: error, meta });
  }
  return new SourceError('FOLIO_PDF_CORRUPT', `${source}: not a readable PDF (truncated or invalid): ${messageOf(error)}`, { cause: error, meta });
}
