/**
 * A PDF opened in PDFium: PDFium reads the caller's bytes in place, pages are loaded for one
 * synchronous read and closed right after, and the document itself is loaded again every few
 * dozen pages, so neither a page nor PDFium's per-document caches outlive the reads that needed
 * them. Failures become {@link SourceError}s naming the document (and page).
 */
import { ConfigurationError, SourceError } from '../../core/errors.ts';
import { type FileAccess, fileAccess } from './file-access.ts';
import type { Pdfium } from './pdfium.ts';
import { discardPdfium, holdPdfium, isTrap, loadPdfium, PDFIUM_ERROR, releasePdfium } from './pdfium.ts';

/** A 2-D affine matrix `[a, b, c, d, e, f]`: `x' = a·x + c·y + e`, `y' = b·x + d·y + f`. */
export type Matrix = readonly [number, number, number, number, number, number];

/** One loaded page, valid only inside the {@link PdfiumDocument.withPage} call that gave it. */
export interface PdfiumPage {
  readonly pdfium: Pdfium;
  /** `FPDF_PAGE`. */
  readonly handle: number;
  readonly pageNumber: number;
  /** Displayed size in points (rotation applied). */
  readonly width: number;
  readonly height: number;
  /** PDF user space → displayed page space (origin top-left, y down), as pdf.js' viewport at scale 1. */
  readonly toDisplay: Matrix;
  /** The page's visible area in user space: `[x0, y0, x1, y1]`. */
  readonly view: readonly [number, number, number, number];
  /** `FPDF_TEXTPAGE`, built on first call (it costs about as much as loading the page). */
  textPage(): number;
}

export interface PdfiumDocument {
  readonly numPages: number;
  /** How many times the document was closed and loaded again to drop PDFium's caches (see {@link OpenPdfiumOptions.reloadEvery}). */
  readonly reloads: number;
  /**
   * Load page `pageNumber` (1-based), hand it to `read`, close it. Throws a `SourceError`
   * (`FOLIO_PDF_CORRUPT`) naming the document and page when PDFium cannot load it.
   */
  withPage<T>(pageNumber: number, read: (page: PdfiumPage) => T): T;
  /** A 1-based page's displayed size in points, read without loading its content; undefined when PDFium cannot tell. */
  pageSize(pageNumber: number): { width: number; height: number } | undefined;
  /** The Info dictionary's text entry `tag` (`Title`, `Author`, …), undefined when absent or empty. */
  metaText(tag: string): string | undefined;
  /** Frees the document; safe to call twice. */
  close(): void;
}

/**
 * Pages loaded before a document is closed and loaded again. PDFium keeps every object it
 * parsed, and the fonts and images pages used, until the document closes: over a
 * 1,700-page PDF that grew wasm memory past 1 GB. Loading again re-reads the cross-reference
 * table only (milliseconds); the first page after it parses its fonts again.
 */
export const PDFIUM_RELOAD_PAGES = 32;

export interface OpenPdfiumOptions {
  readonly source: string;
  readonly password?: string;
  /**
   * Pages loaded before the document is loaded again to drop PDFium's caches; `0` never.
   * @default PDFIUM_RELOAD_PAGES
   */
  readonly reloadEvery?: number;
}

/**
 * Open `bytes` in PDFium. PDFium reads them in place (`file-access.ts`): they must not change
 * until the document is closed.
 *
 * @throws {SourceError} `FOLIO_PDF_PASSWORD`, `FOLIO_PDF_BAD_PASSWORD`, `FOLIO_PDF_CORRUPT`.
 * @example
 * const doc = await openPdfiumDocument(bytes, { source: 'a.pdf' });
 * try { doc.withPage(1, (page) => page.width); } finally { doc.close(); }
 */
export async function openPdfiumDocument(bytes: Uint8Array, options: Readonly<OpenPdfiumOptions>): Promise<PdfiumDocument> {
  const { source, password, reloadEvery = PDFIUM_RELOAD_PAGES } = options;
  if (!Number.isInteger(reloadEvery) || reloadEvery < 0) {
    throw new ConfigurationError(
      'FOLIO_BAD_OPTION',
      `Expected \`reloadEvery\` to be an integer from 0 up, got \`${String(reloadEvery)}\` (${typeof reloadEvery})`,
    );
  }
  const pdfium = await loadPdfium();
  const { lib } = pdfium;
  let access: FileAccess | undefined;
  let doc = 0;
  let numPages = 0;
  const load = (): number => {
    const secret = password === undefined ? 0 : cString(pdfium, password);
    try {
      return lib.FPDF_LoadCustomDocument((access as FileAccess).pointer, secret);
    } finally {
      if (secret !== 0) lib.free(secret);
    }
  };
  try {
    access = fileAccess(pdfium, bytes);
    doc = load();
    if (doc === 0) throw openError(lib.FPDF_GetLastError(), source, password !== undefined);
    numPages = lib.FPDF_GetPageCount(doc);
  } catch (error) {
    if (isTrap(error)) {
      discardPdfium(pdfium);
      access?.release();
      throw new SourceError('FOLIO_PDF_CORRUPT', `${source}: not a readable PDF (PDFium failed: ${error.message})`, { cause: error, meta: { source } });
    }
    if (doc !== 0) lib.FPDF_CloseDocument(doc);
    access?.release();
    if (error instanceof RangeError)
      throw new SourceError('FOLIO_PDF_CORRUPT', `${source}: too large to load (${bytes.byteLength} bytes)`, { meta: { source } });
    throw error;
  }
  const file = access;
  let open = true;
  let loadedSinceOpen = 0;
  let reloads = 0;
  holdPdfium();
  // Between two `withPage` calls no page is loaded, so the document can be let go and loaded again.
  const reload = (meta: Readonly<{ source: string; pageNumber: number }>): void => {
    lib.FPDF_CloseDocument(doc);
    doc = load();
    loadedSinceOpen = 0;
    reloads++;
    if (doc === 0) {
      open = false;
      file.release();
      releasePdfium(pdfium);
      throw new SourceError('FOLIO_PDF_CORRUPT', `${source}: page ${meta.pageNumber}: the document could not be loaded again`, { meta });
    }
  };
  return {
    numPages,
    get reloads() {
      return reloads;
    },
    withPage<T>(pageNumber: number, read: (page: PdfiumPage) => T): T {
      const meta = { source, pageNumber };
      if (!open) throw new SourceError('FOLIO_PDF_CLOSED', `${source}: the document is closed`, { meta });
      if (pdfium.broken) throw new SourceError('FOLIO_PDF_CORRUPT', `${source}: page ${pageNumber}: PDFium failed earlier on this document`, { meta });
      let handle = 0;
      let text = 0;
      try {
        if (reloadEvery > 0 && loadedSinceOpen >= reloadEvery) reload(meta);
        loadedSinceOpen++;
        handle = lib.FPDF_LoadPage(doc, pageNumber - 1);
        if (handle === 0) throw new SourceError('FOLIO_PDF_CORRUPT', `${source}: page ${pageNumber} cannot be read`, { meta });
        const page: PdfiumPage = {
          pdfium,
          handle,
          pageNumber,
          ...geometry(pdfium, handle),
          textPage(): number {
            if (text === 0) text = lib.FPDFText_LoadPage(handle);
            if (text === 0) throw new SourceError('FOLIO_PDF_CORRUPT', `${source}: page ${pageNumber}: its text cannot be read`, { meta });
            return text;
          },
        };
        return read(page);
      } catch (error) {
        if (isTrap(error)) {
          // A trap leaves PDFium's heap in an unknown state: give the instance up.
          discardPdfium(pdfium);
          throw new SourceError('FOLIO_PDF_CORRUPT', `${source}: page ${pageNumber}: PDFium failed: ${error.message}`, { cause: error, meta });
        }
        throw error;
      } finally {
        if (!pdfium.broken && handle !== 0) {
          if (text !== 0) lib.FPDFText_ClosePage(text);
          lib.FPDF_ClosePage(handle);
        }
      }
    },
    pageSize(pageNumber: number): { width: number; height: number } | undefined {
      if (!open || pdfium.broken || !(pageNumber >= 1 && pageNumber <= numPages)) return undefined;
      if (!lib.FPDF_GetPageSizeByIndexF(doc, pageNumber - 1, pdfium.scratch)) return undefined;
      const f32 = pdfium.heap.f32;
      const at = pdfium.scratch >>> 2;
      const [width, height] = [f32[at] as number, f32[at + 1] as number];
      return width > 0 && height > 0 ? { width, height } : undefined;
    },
    metaText(tag: string): string | undefined {
      if (!open || pdfium.broken) return undefined;
      const key = cString(pdfium, tag);
      try {
        const needed = lib.FPDF_GetMetaText(doc, key, 0, 0);
        // Two bytes are the UTF-16 NUL alone: the entry is absent or empty.
        if (needed <= 2) return undefined;
        const buffer = lib.malloc(needed);
        if (buffer === 0) return undefined;
        try {
          lib.FPDF_GetMetaText(doc, key, buffer, needed);
          const start = buffer >>> 0;
          return new TextDecoder('utf-16le').decode(pdfium.heap.u8.slice(start, start + needed - 2));
        } finally {
          lib.free(buffer);
        }
      } finally {
        lib.free(key);
      }
    },
    close(): void {
      if (!open) return;
      open = false;
      if (!pdfium.broken) lib.FPDF_CloseDocument(doc);
      file.release();
      releasePdfium(pdfium);
    },
  };
}

/** A NUL-terminated UTF-8 copy of `text` in wasm memory; the caller frees it. */
function cString(pdfium: Pdfium, text: string): number {
  const encoded = new TextEncoder().encode(text);
  const ptr = pdfium.lib.malloc(encoded.byteLength + 1);
  const u8 = pdfium.heap.u8;
  u8.set(encoded, ptr >>> 0);
  u8[(ptr >>> 0) + encoded.byteLength] = 0;
  return ptr;
}

function openError(code: number, source: string, hadPassword: boolean): SourceError {
  const meta = { source, pdfiumError: code };
  if (code === PDFIUM_ERROR.password) {
    return hadPassword
      ? new SourceError('FOLIO_PDF_BAD_PASSWORD', `${source}: the password given does not open this PDF`, { meta })
      : new SourceError('FOLIO_PDF_PASSWORD', `${source}: the PDF is encrypted and needs a password; pass --password`, { meta });
  }
  const why =
    code === PDFIUM_ERROR.security
      ? 'unsupported encryption'
      : code === PDFIUM_ERROR.format
        ? 'bad format'
        : code === PDFIUM_ERROR.file
          ? 'file error'
          : `PDFium error ${code}`;
  return new SourceError('FOLIO_PDF_CORRUPT', `${source}: not a readable PDF (truncated or invalid): ${why}`, { meta });
}

/**
 * Displayed size and the user-space → display matrix, built as pdf.js builds its viewport
 * (scale 1) from the visible box and `/Rotate`, so coordinates match what pdf.js gave before.
 */
function geometry(pdfium: Pdfium, page: number): Pick<PdfiumPage, 'width' | 'height' | 'toDisplay' | 'view'> {
  const { lib, heap, scratch } = pdfium;
  let x0 = 0;
  let y0 = 0;
  let x1 = lib.FPDF_GetPageWidthF(page);
  let y1 = lib.FPDF_GetPageHeightF(page);
  const rotation = ((lib.FPDFPage_GetRotation(page) % 4) + 4) % 4;
  if (lib.FPDF_GetPageBoundingBox(page, scratch)) {
    const f32 = heap.f32;
    const at = scratch >>> 2;
    // FS_RECTF: left, top, right, bottom.
    x0 = Math.min(f32[at] as number, f32[at + 2] as number);
    x1 = Math.max(f32[at] as number, f32[at + 2] as number);
    y0 = Math.min(f32[at + 1] as number, f32[at + 3] as number);
    y1 = Math.max(f32[at + 1] as number, f32[at + 3] as number);
  } else if (rotation % 2 === 1) {
    [x1, y1] = [y1, x1];
  }
  const [a, b, c, d] = (
    [
      [1, 0, 0, -1],
      [0, 1, 1, 0],
      [-1, 0, 0, 1],
      [0, -1, -1, 0],
    ] as const
  )[rotation] as readonly [number, number, number, number];
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const sideways = a === 0;
  const offsetX = sideways ? Math.abs(cy - y0) : Math.abs(cx - x0);
  const offsetY = sideways ? Math.abs(cx - x0) : Math.abs(cy - y0);
  return {
    width: sideways ? y1 - y0 : x1 - x0,
    height: sideways ? x1 - x0 : y1 - y0,
    toDisplay: [a, b, c, d, offsetX - a * cx - c * cy, offsetY - b * cx - d * cy],
    view: [x0, y0, x1, y1],
  };
}
