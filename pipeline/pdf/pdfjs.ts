/**
 * pdfjs-dist, for rendering pages for OCR. Text extraction and the routing figures (image
 * coverage, invisible text) come from PDFium (`pdfium-document.ts`), so pdfjs is opened only when
 * a page is rendered: {@link openPdf} calls {@link openPdfJs} lazily.
 *
 * pdfjs is heavy (a few MB of JavaScript), so it is imported on first use. Its failures arrive
 * as loosely typed exceptions (`PasswordException`, `InvalidPDFException`, …); they are mapped
 * to {@link SourceError}s with stable codes that name the document.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { SourceError } from '../../core/errors.ts';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

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

export interface PdfJsDocument {
  readonly document: PDFDocumentProxy;
  destroy(): Promise<void>;
}

/**
 * Open `bytes` in pdfjs. pdfjs transfers (detaches) the buffer it is given, so it gets a copy.
 *
 * @throws {SourceError} `FOLIO_PDF_PASSWORD`, `FOLIO_PDF_BAD_PASSWORD`, `FOLIO_PDF_CORRUPT`.
 */
export async function openPdfJs(bytes: Uint8Array, source: string, password: string | undefined, fontExtraProperties: boolean): Promise<PdfJsDocument> {
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
  try {
    return { document: await task.promise, destroy: () => task.destroy() };
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw mapPdfJsError(error, source, password !== undefined);
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** pdfjs' exceptions cross a (fake) worker boundary, so they are recognised by name, not class. */
function mapPdfJsError(error: unknown, source: string, hadPassword: boolean): SourceError {
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
