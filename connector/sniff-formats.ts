/**
 * Sniffing the declarative formats from their bytes: ZIP containers by their `mimetype` entry
 * (OpenDocument, EPUB) or their parts (Office Open XML), OLE compound files by the streams they
 * name (Outlook MSG, encrypted Office, legacy Office), and text formats by their first bytes.
 */
import {
  CSV_MIME,
  DOC_MIME,
  DOCX_MIME,
  EML_MIME,
  ENCRYPTED_OFFICE_MIME,
  EPUB_MIME,
  HTML_MIME,
  LEGACY_OFFICE_MIME,
  MSG_MIME,
  PPT_MIME,
  PPTX_MIME,
  RTF_MIME,
  TSV_MIME,
  XLS_MIME,
  XLSX_MIME,
  XML_MIME,
} from '../pipeline/formats/mime.ts';
import { centralDirectory, isZip } from '../pipeline/formats/zip.ts';

const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** The mime type of a ZIP container, or undefined when it is some other zip. */
function zipMime(bytes: Uint8Array): string | undefined {
  // ODF and EPUB store `mimetype` first and uncompressed, so its content sits right after the header.
  const latin = new TextDecoder('latin1');
  if (bytes.length > 38 && latin.decode(bytes.subarray(30, 38)) === 'mimetype' && bytes[8] === 0) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const start = 30 + view.getUint16(26, true) + view.getUint16(28, true);
    const declared = latin.decode(bytes.subarray(start, start + Math.min(100, view.getUint32(18, true)))).trim();
    if (/^application\/[\w.+-]+$/.test(declared)) return declared;
  }
  let names: string[];
  try {
    names = centralDirectory(bytes).map((e) => e.name);
  } catch {
    return undefined;
  }
  const has = (name: string): boolean => names.includes(name);
  if (has('word/document.xml') || names.some((n) => /^word\/document\d*\.xml$/.test(n))) return DOCX_MIME;
  if (has('xl/workbook.xml')) return XLSX_MIME;
  if (has('ppt/presentation.xml')) return PPTX_MIME;
  if (has('[Content_Types].xml')) {
    // Parts named differently: the main part is found through the relationships when read.
    if (names.some((n) => n.startsWith('word/'))) return DOCX_MIME;
    if (names.some((n) => n.startsWith('xl/'))) return XLSX_MIME;
    if (names.some((n) => n.startsWith('ppt/'))) return PPTX_MIME;
  }
  if (has('META-INF/container.xml') && names.some((n) => /\.x?html?$/i.test(n))) return EPUB_MIME;
  return undefined;
}

/** An OLE compound file by the UTF-16 names of its streams. */
function oleMime(bytes: Uint8Array): string {
  const text = new TextDecoder('utf-16le').decode(bytes.subarray(0, Math.min(bytes.length, 4 * 1024 * 1024)));
  if (text.includes('EncryptedPackage')) return ENCRYPTED_OFFICE_MIME;
  if (text.includes('__substg1.0_') || text.includes('__properties_version1.0')) return MSG_MIME;
  if (text.includes('WordDocument')) return DOC_MIME;
  if (text.includes('Workbook') || text.includes('Book\0')) return XLS_MIME;
  if (text.includes('PowerPoint Document')) return PPT_MIME;
  return LEGACY_OFFICE_MIME;
}

const HTML_START = /^\s*(<!--[\s\S]*?-->\s*)*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<\?xml[^>]*>\s*(<!doctype\s+html|<html[\s>]))/i;
const EML_HEADER = /^(received|return-path|from|to|subject|date|message-id|mime-version|delivered-to|x-[\w-]+|content-type):/i;

/** Text formats by their first bytes and, for CSV/TSV, their extension and shape. */
function textMime(text: string, name: string): string | undefined {
  const head = text.slice(0, 4096);
  if (head.startsWith('{\\rtf')) return RTF_MIME;
  // Office 2003 XML (SpreadsheetML, WordprocessingML): read through LibreOffice like the binary formats.
  if (/^\s*<\?xml/.test(head) && /progid="Excel\.Sheet"|urn:schemas-microsoft-com:office:spreadsheet/.test(head)) return XLS_MIME;
  if (/^\s*<\?xml/.test(head) && /progid="Word\.Document"|schemas\.microsoft\.com\/office\/word\/2003\/wordml/.test(head)) return DOC_MIME;
  if (HTML_START.test(head) || (/\.x?html?$/i.test(name) && /<[a-z][\w-]*[\s>]/i.test(head))) return HTML_MIME;
  const lines = head.split(/\r?\n/);
  const headerLines = lines.slice(0, lines.indexOf('') >>> 0).filter((l) => !/^\s/.test(l));
  if (
    headerLines.length >= 2 &&
    headerLines.every((l) => /^[\w-]+:/.test(l)) &&
    headerLines.some((l) => /^(from|subject|date|message-id):/i.test(l)) &&
    EML_HEADER.test(lines[0] ?? '')
  ) {
    return EML_MIME;
  }
  // Any other well-formed-looking XML (a declaration, or a root element in a `.xml` file).
  if (/^\s*<\?xml[^>]*\?>/.test(head) || (/\.xml$/i.test(name) && /^\s*(<!--[\s\S]*?-->\s*)*<[A-Za-z_][\w.:-]*[\s>/]/.test(head))) return XML_MIME;
  if (/\.tsv$/i.test(name)) return TSV_MIME;
  if (/\.csv$/i.test(name)) return CSV_MIME;
  return undefined;
}

/**
 * The declarative format of `bytes`, or undefined.
 *
 * @example
 * sniffFormat(docxBytes, 'report.docx') // 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
 */
export function sniffFormat(bytes: Uint8Array, name: string, isText: (bytes: Uint8Array) => boolean): string | undefined {
  if (isZip(bytes)) return zipMime(bytes);
  if (bytes.length >= 8 && OLE.every((b, i) => bytes[i] === b)) return oleMime(bytes);
  if (bytes.length >= 5 && new TextDecoder('latin1').decode(bytes.subarray(0, 5)) === '{\\rtf') return RTF_MIME;
  const sample = bytes.subarray(0, 64 * 1024);
  // NULs mean binary; otherwise the start is read leniently (latin-1 HTML and mail still exist).
  if (sample.includes(0) || (!isText(trimPartialUtf8(sample.subarray(0, 4096), bytes.length)) && !looksLikeText(sample))) return undefined;
  return textMime(new TextDecoder('utf-8').decode(sample).replace(/^\ufeff/, ''), name);
}

/** Mostly printable bytes: text in a single-byte encoding. */
function looksLikeText(sample: Uint8Array): boolean {
  let control = 0;
  for (const b of sample.subarray(0, 4096)) if (b < 0x09 || (b > 0x0d && b < 0x20)) control++;
  return control === 0;
}

/** A 64 KB sample may end inside a UTF-8 sequence: drop the partial tail before validating. */
function trimPartialUtf8(sample: Uint8Array, total: number): Uint8Array {
  if (sample.length >= total) return sample;
  let end = sample.length;
  while (end > 0 && end > sample.length - 4 && (sample[end - 1]! & 0xc0) === 0x80) end--;
  if (end > 0 && sample[end - 1]! >= 0xc0) end--;
  return sample.subarray(0, end);
}
