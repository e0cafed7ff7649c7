/**
 * PDFium reading a PDF from JavaScript memory through `FPDF_FILEACCESS`, block by block, instead
 * of from a copy of the whole file in wasm memory: wasm memory never shrinks, so a 150 MB PDF
 * copied in would keep a 150 MB heap for the life of the instance (a server's), on top of the
 * caller's own bytes.
 */
import type { Pdfium } from './pdfium.ts';

type Ptr = number;

/** A file PDFium can open with `FPDF_LoadCustomDocument`; {@link FileAccess.release} it after the document closes. */
export interface FileAccess {
  /** `FPDF_FILEACCESS*` in wasm memory. */
  readonly pointer: Ptr;
  release(): void;
}

/** Per instance: the one `m_GetBlock` trampoline and the files it serves, by `m_Param`. */
interface Reader {
  readonly getBlock: Ptr;
  readonly files: Map<number, Uint8Array>;
  next: number;
}

const readers = new WeakMap<Pdfium, Reader>();

/**
 * Serve `bytes` to PDFium as a file. The bytes are read in place, never copied whole: they must
 * not change while a document opened from them is open.
 *
 * @example
 * const access = fileAccess(pdfium, bytes);
 * const doc = pdfium.lib.FPDF_LoadCustomDocument(access.pointer, 0);
 * // ... FPDF_CloseDocument(doc);
 * access.release();
 */
export function fileAccess(pdfium: Pdfium, bytes: Uint8Array): FileAccess {
  const reader = readerOf(pdfium);
  const id = ++reader.next;
  reader.files.set(id, bytes);
  const { lib, heap } = pdfium;
  // struct FPDF_FILEACCESS { unsigned long m_FileLen; int (*m_GetBlock)(...); void* m_Param; } (wasm32: 3 × 4 bytes).
  const pointer = lib.malloc(12);
  if (pointer === 0) {
    reader.files.delete(id);
    throw new RangeError('PDFium: out of memory for a file access block');
  }
  const u32 = new Uint32Array(heap.u8.buffer, pointer >>> 0, 3);
  u32[0] = bytes.byteLength;
  u32[1] = reader.getBlock;
  u32[2] = id;
  let released = false;
  return {
    pointer,
    release(): void {
      if (released) return;
      released = true;
      reader.files.delete(id);
      if (!pdfium.broken) lib.free(pointer);
    },
  };
}

function readerOf(pdfium: Pdfium): Reader {
  let reader = readers.get(pdfium);
  if (reader !== undefined) return reader;
  const files = new Map<number, Uint8Array>();
  // int m_GetBlock(void* param, unsigned long position, unsigned char* buffer, unsigned long size): non-zero on success.
  const getBlock = pdfium.addFunction((param: number, position: number, buffer: number, size: number): number => {
    const bytes = files.get(param >>> 0);
    const from = position >>> 0;
    const length = size >>> 0;
    if (bytes === undefined || from + length > bytes.byteLength) return 0;
    pdfium.heap.u8.set(bytes.subarray(from, from + length), buffer >>> 0);
    return 1;
  }, 'iiiii');
  reader = { getBlock, files, next: 0 };
  readers.set(pdfium, reader);
  return reader;
}
