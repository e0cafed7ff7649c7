/**
 * PDFium compiled to WebAssembly (`@embedpdf/pdfium`), loaded once per process on first use.
 *
 * The package wraps every export in `cwrap` plus an assertion wrapper; at hundreds of thousands
 * of per-character calls that overhead matters, so Folio calls the raw wasm exports instead and
 * reads their out-parameters through typed-array views of the wasm memory ({@link Heap}).
 * Only the functions Folio uses are typed here.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ConfigurationError } from '../../core/errors.ts';

/** Pointers and handles are wasm32 addresses; `0` is null. */
type Ptr = number;

/** The part of `WasmMemory` used here (the project's `lib` leaves WebAssembly out). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

/** A wasm trap (`WebAssembly.RuntimeError`): PDFium hit `unreachable` or ran out of memory. */
export function isTrap(error: unknown): error is Error {
  return error instanceof Error && error.name === 'RuntimeError';
}

/** The raw PDFium exports Folio calls (see PDFium's `public/fpdf_*.h` for their contracts). */
export interface PdfiumExports {
  readonly memory: WasmMemory;
  malloc(size: number): Ptr;
  free(ptr: Ptr): void;
  PDFiumExt_Init(): void;
  FPDF_LoadMemDocument(data: Ptr, size: number, password: Ptr): Ptr;
  /** Reads the file through an `FPDF_FILEACCESS*` (see `file-access.ts`). */
  FPDF_LoadCustomDocument(access: Ptr, password: Ptr): Ptr;
  FPDF_GetLastError(): number;
  FPDF_GetPageCount(doc: Ptr): number;
  FPDF_CloseDocument(doc: Ptr): void;
  /** The Info dictionary's entry `tag` (NUL-terminated UTF-8) as UTF-16LE plus a NUL; returns the bytes it needs. */
  FPDF_GetMetaText(doc: Ptr, tag: Ptr, buffer: Ptr, length: number): number;
  FPDF_LoadPage(doc: Ptr, index: number): Ptr;
  /** `FS_SIZEF` out (width, height floats, rotation applied) without loading the page's content. */
  FPDF_GetPageSizeByIndexF(doc: Ptr, index: number, size: Ptr): number;
  FPDF_ClosePage(page: Ptr): void;
  FPDF_GetPageWidthF(page: Ptr): number;
  FPDF_GetPageHeightF(page: Ptr): number;
  /** `FS_RECTF` out: left, top, right, bottom (floats, PDF user space, y up). */
  FPDF_GetPageBoundingBox(page: Ptr, rect: Ptr): number;
  /** 0–3 quarter turns clockwise. */
  FPDFPage_GetRotation(page: Ptr): number;
  FPDFPage_CountObjects(page: Ptr): number;
  FPDFPage_GetObject(page: Ptr, index: number): Ptr;
  /** 1 text, 2 path, 3 image, 4 shading, 5 form. */
  FPDFPageObj_GetType(object: Ptr): number;
  /** Four `float*` outs: left, bottom, right, top. */
  FPDFPageObj_GetBounds(object: Ptr, left: Ptr, bottom: Ptr, right: Ptr, top: Ptr): number;
  /** `FS_MATRIX` out: a, b, c, d, e, f (floats). */
  FPDFPageObj_GetMatrix(object: Ptr, matrix: Ptr): number;
  FPDFPath_CountSegments(path: Ptr): number;
  FPDFPath_GetPathSegment(path: Ptr, index: number): Ptr;
  /** Two `float*` outs: the segment's end point in the path's own space. */
  FPDFPathSegment_GetPoint(segment: Ptr, x: Ptr, y: Ptr): number;
  /** 0 line to, 1 Bézier to, 2 move to, -1 unknown. */
  FPDFPathSegment_GetType(segment: Ptr): number;
  /** Whether the segment closes its subpath. */
  FPDFPathSegment_GetClose(segment: Ptr): number;
  FPDFFormObj_CountObjects(form: Ptr): number;
  FPDFFormObj_GetObject(form: Ptr, index: number): Ptr;
  FPDFText_LoadPage(page: Ptr): Ptr;
  FPDFText_ClosePage(textPage: Ptr): void;
  FPDFText_CountChars(textPage: Ptr): number;
  /** UTF-16 code units of chars `[start, start + count)` plus a NUL; returns units written. */
  FPDFText_GetText(textPage: Ptr, start: number, count: number, buffer: Ptr): number;
  FPDFText_GetUnicode(textPage: Ptr, index: number): number;
  FPDFText_GetTextObject(textPage: Ptr, index: number): Ptr;
  /** 1 for characters PDFium inserted (spaces, line breaks), 0 for drawn ones, -1 on error. */
  FPDFText_IsGenerated(textPage: Ptr, index: number): number;
  /** `FS_RECTF` out: the advance box (origin to origin + width, descent to ascent). */
  FPDFText_GetLooseCharBox(textPage: Ptr, index: number, rect: Ptr): number;
  /** Four `double*` outs: left, right, bottom, top of the glyph's ink. */
  FPDFText_GetCharBox(textPage: Ptr, index: number, left: Ptr, right: Ptr, bottom: Ptr, top: Ptr): number;
  /** Two `double*` outs. */
  FPDFText_GetCharOrigin(textPage: Ptr, index: number, x: Ptr, y: Ptr): number;
  /** `FS_MATRIX` out: the char's text matrix composed with the CTM and form matrices. */
  FPDFText_GetMatrix(textPage: Ptr, index: number, matrix: Ptr): number;
  /** The `Tf` size, before the text matrix scales it. */
  FPDFText_GetFontSize(textPage: Ptr, index: number): number;
  FPDFTextObj_GetTextRenderMode(text: Ptr): number;
  FPDFTextObj_GetFont(text: Ptr): Ptr;
  FPDFFont_GetBaseFontName(font: Ptr, buffer: Ptr, length: number): number;
  /** The font descriptor's `/Flags` (1 = FixedPitch). */
  FPDFFont_GetFlags(font: Ptr): number;
}

/** `FPDF_GetLastError` codes. */
export const PDFIUM_ERROR = { unknown: 1, file: 2, format: 3, password: 4, security: 5, page: 6 } as const;

/**
 * Typed views of the wasm memory. Growing the memory (any PDFium call that allocates) detaches
 * the old buffer, so every accessor re-checks it; the check is a pointer comparison.
 */
export class Heap {
  readonly #memory: WasmMemory;
  #buffer: ArrayBuffer | undefined;
  #u8 = new Uint8Array(0);
  #u16 = new Uint16Array(0);
  #f32 = new Float32Array(0);
  #f64 = new Float64Array(0);

  constructor(memory: WasmMemory) {
    this.#memory = memory;
  }

  #refresh(): void {
    const buffer = this.#memory.buffer;
    if (buffer === this.#buffer) return;
    this.#buffer = buffer;
    this.#u8 = new Uint8Array(buffer);
    this.#u16 = new Uint16Array(buffer);
    this.#f32 = new Float32Array(buffer);
    this.#f64 = new Float64Array(buffer);
  }

  get u8(): Uint8Array {
    this.#refresh();
    return this.#u8;
  }

  get u16(): Uint16Array {
    this.#refresh();
    return this.#u16;
  }

  get f32(): Float32Array {
    this.#refresh();
    return this.#f32;
  }

  get f64(): Float64Array {
    this.#refresh();
    return this.#f64;
  }
}

/** One PDFium instance: its exports, memory views and a scratch block for out-parameters. */
export interface Pdfium {
  readonly lib: PdfiumExports;
  readonly heap: Heap;
  /** 256 bytes, 8-aligned, for out-parameters of single calls; never held across calls. */
  readonly scratch: Ptr;
  /** Emscripten's `addFunction`: a JavaScript function as a wasm function pointer of `signature` (`'iiiii'`). */
  readonly addFunction: (fn: (...args: number[]) => number, signature: string) => Ptr;
  /**
   * Set once a call trapped ({@link isTrap}): PDFium's state may be inconsistent, so
   * documents still open on it are given up and the next open loads a fresh instance.
   */
  broken: boolean;
}

let instance: Promise<Pdfium> | undefined;

/**
 * The process's PDFium, compiled and initialised on first use (about 0.1 s).
 *
 * @example
 * const { lib } = await loadPdfium();
 */
export function loadPdfium(): Promise<Pdfium> {
  if (instance === undefined) {
    instance = createPdfium();
    // A failed load is not cached: the next open tries again.
    instance.catch(() => (instance = undefined));
  }
  return instance;
}

/** Forget a broken instance so the next {@link loadPdfium} builds a new one. */
export function discardPdfium(pdfium: Pdfium): void {
  pdfium.broken = true;
  void instance?.then((current) => {
    if (current === pdfium) instance = undefined;
  });
}

/** Documents open on any PDFium instance of this thread. */
let openDocuments = 0;

/**
 * Past this much wasm memory an instance is let go once no document is open: wasm memory never
 * shrinks, so one large scanned PDF (its bytes and images live in that memory) would otherwise
 * keep its peak for the life of a server. The compiled module stays; a fresh instance costs
 * about 0.1 s.
 */
export const PDFIUM_RECYCLE_BYTES = 64 * 1024 * 1024;
let recycleBytes = PDFIUM_RECYCLE_BYTES;

/**
 * Set the wasm memory past which an idle PDFium instance is let go (see {@link PDFIUM_RECYCLE_BYTES}).
 *
 * @example
 * configurePdfium({ recycleBytes: 32 * 1024 * 1024 })
 */
export function configurePdfium(options: Readonly<{ recycleBytes?: number }>): void {
  const { recycleBytes: bytes = PDFIUM_RECYCLE_BYTES } = options;
  if (!Number.isInteger(bytes) || bytes < 0) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`recycleBytes\` to be an integer from 0 up, got \`${String(bytes)}\` (${typeof bytes})`);
  }
  recycleBytes = bytes;
}

/** A document was opened on `pdfium`: count it until {@link releasePdfium}. */
export function holdPdfium(): void {
  openDocuments++;
}

/** A document was closed: with none left open, an instance grown past the recycle size is dropped from the cache (documents still holding it keep working). */
export function releasePdfium(pdfium: Pdfium): void {
  openDocuments = Math.max(0, openDocuments - 1);
  if (openDocuments > 0 || pdfium.lib.memory.buffer.byteLength <= recycleBytes) return;
  void instance?.then((current) => {
    if (current === pdfium && openDocuments === 0) instance = undefined;
  });
}

/** A compiled `WebAssembly.Module`, opaque here (the project's `lib` leaves WebAssembly out). */
export type PdfiumModule = object & { readonly __pdfiumModule?: never };

interface WasmApi {
  compile(bytes: Uint8Array): Promise<PdfiumModule>;
  instantiate(module: PdfiumModule, imports: object): Promise<{ readonly exports: object }>;
  Module: new (...args: never[]) => object;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: Promise<PdfiumModule> | undefined;

/**
 * PDFium's compiled wasm module, compiled once per process. V8 compiles wasm functions lazily on
 * first call and tiers hot ones up in the background; that code belongs to the module, so every
 * instance made from it (on any thread it is posted to) shares the compiled code instead of paying
 * the warm-up again.
 *
 * @example
 * new Worker(url, { workerData: { pdfium: await compiledPdfium() } });
 */
export function compiledPdfium(): Promise<PdfiumModule> {
  if (compiled === undefined) {
    compiled = (async () => {
      const root = dirname(createRequire(import.meta.url).resolve('@embedpdf/pdfium'));
      return wasm.compile(await readFile(join(root, 'pdfium.wasm')));
    })();
    compiled.catch(() => (compiled = undefined));
  }
  return compiled;
}

/**
 * Use `module` (compiled on another thread and posted here) instead of compiling PDFium again.
 * Ignored once this thread has its own.
 */
export function adoptPdfiumModule(module: unknown): void {
  if (compiled === undefined && module instanceof wasm.Module) compiled = Promise.resolve(module as PdfiumModule);
}

async function createPdfium(): Promise<Pdfium> {
  const [{ init }, module] = await Promise.all([import('@embedpdf/pdfium'), compiledPdfium()]);
  // Emscripten's hook cannot reject its ready promise, so a failed instantiation rejects this one.
  let fail: (error: unknown) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  // The wrapper's own cwrap'd functions are not used; its module gives the raw exports.
  const wrapped = await Promise.race([
    init({
      instantiateWasm(imports: object, receive: (instance: object, module: PdfiumModule) => void) {
        wasm.instantiate(module, imports).then((instance) => receive(instance, module), fail);
        return {};
      },
    } as never),
    failed,
  ]);
  const runtime = wrapped.pdfium as unknown as { wasmExports: PdfiumExports; addFunction: Pdfium['addFunction'] };
  const lib = runtime.wasmExports;
  lib.PDFiumExt_Init();
  const scratch = lib.malloc(256);
  if (scratch === 0) throw new ConfigurationError('FOLIO_PDFIUM_INIT', 'PDFium: cannot allocate its scratch block in its WebAssembly memory');
  return { lib, heap: new Heap(lib.memory), scratch, addFunction: runtime.addFunction.bind(runtime), broken: false };
}
