/**
 * One entry for every declarative format: the mime type picks the reader, and a reader's failure
 * becomes a `SourceError` with a stable code naming what is wrong with the file.
 */
import { FolioError, SourceError } from '../../core/errors.ts';
import { readCsv } from './csv.ts';
import { readDocx } from './docx.ts';
import { readHtml } from './html.ts';
import { FORMAT_OF } from './mime.ts';
import type { FormatDocument } from './types.ts';

type Reader = (bytes: Uint8Array) => FormatDocument | Promise<FormatDocument>;

const READERS: Readonly<Record<string, () => Promise<Reader>>> = {
  docx: async () => readDocx,
  html: async () => readHtml,
  csv: async () => readCsv,
  xlsx: async () => (await import('./xlsx.ts')).readXlsx,
  pptx: async () => (await import('./pptx.ts')).readPptx,
  odt: async () => (await import('./odf.ts')).readOdf,
  ods: async () => (await import('./odf.ts')).readOdf,
  odp: async () => (await import('./odf.ts')).readOdf,
  epub: async () => (await import('./epub.ts')).readEpub,
  encrypted: async () => () => {
    throw new SourceError('FOLIO_OFFICE_ENCRYPTED', 'the Office file is encrypted with a password; Folio cannot read it without the password');
  },
};

/** True when a format reader handles `mime`. */
export function isFormatMime(mime: string): boolean {
  const format = FORMAT_OF[mime];
  return format !== undefined && READERS[format] !== undefined;
}

/**
 * Read a document of a declarative format into pages of blocks.
 *
 * @example
 * const doc = await readFormat(bytes, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
 */
export async function readFormat(bytes: Uint8Array, mime: string): Promise<FormatDocument> {
  const format = FORMAT_OF[mime];
  const load = format === undefined ? undefined : READERS[format];
  if (!load) throw new SourceError('FOLIO_UNSUPPORTED_TYPE', `no reader for ${mime}`);
  const reader = await load();
  try {
    return await reader(bytes);
  } catch (error) {
    if (error instanceof FolioError) throw error;
    // A reader bug or a structure no reader expected: the document fails, the run goes on.
    throw new SourceError('FOLIO_FORMAT_CORRUPT', `the ${format} file cannot be read: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
