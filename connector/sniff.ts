/**
 * Content sniffing: the type of a document comes from its bytes, never from its name alone,
 * because a `.pdf` that is really an HTML error page must not reach the PDF parser.
 */

import { FORMAT_MIME_TYPES } from '../pipeline/formats/mime.ts';
import { sniffFormat } from './sniff-formats.ts';

/**
 * Types Folio can ingest: PDF, images, Markdown, and the declarative formats (Office, OpenDocument,
 * HTML, EPUB, e-mail, CSV). An encrypted Office file is admitted so that its failure names the cause.
 */
export const SUPPORTED_MIME_TYPES: ReadonlySet<string> = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/tiff',
  'image/webp',
  'text/markdown',
  ...FORMAT_MIME_TYPES,
]);

/** Extensions under which a UTF-8 text file is taken as Markdown. */
const TEXT_EXTENSIONS = /\.(md|markdown|mdown|txt|text)$/i;

/** How far into the file `%PDF-` may start (Acrobat accepts junk before it, within 1 KB). */
const PDF_HEADER_WINDOW = 1024;

/**
 * The mime type of `bytes`: `application/pdf`, `image/png`, `image/jpeg`, `image/tiff`,
 * `image/webp`, the Office, OpenDocument and EPUB containers, `text/html`, `message/rfc822`,
 * Outlook MSG, RTF, `text/csv` and `text/tab-separated-values` (by extension and content),
 * `text/markdown` (UTF-8 text named `.md`, `.markdown`, `.txt`), else `application/octet-stream`.
 * A `.docx` that is really a PDF is a PDF: the bytes decide, the name only breaks ties among text.
 *
 * @example
 * sniffMime(bytes, 'notes.md') // 'text/markdown'
 */
export function sniffMime(bytes: Uint8Array, name = ''): string {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && bytes.length >= 12 && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (indexOfPdfHeader(bytes) >= 0) return 'application/pdf';
  const format = sniffFormat(bytes, name, isUtf8Text);
  if (format !== undefined) return format;
  if (TEXT_EXTENSIONS.test(name) && isUtf8Text(bytes)) return 'text/markdown';
  return 'application/octet-stream';
}

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  if (bytes.length < magic.length) return false;
  return magic.every((b, i) => bytes[i] === b);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

function indexOfPdfHeader(bytes: Uint8Array): number {
  const end = Math.min(bytes.length, PDF_HEADER_WINDOW) - 5;
  for (let i = 0; i <= end; i++) {
    if (bytes[i] === 0x25 && bytes[i + 1] === 0x50 && bytes[i + 2] === 0x44 && bytes[i + 3] === 0x46 && bytes[i + 4] === 0x2d) return i;
  }
  return -1;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Valid UTF-8 without NULs (NULs mean a binary format that happens to decode). */
function isUtf8Text(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
