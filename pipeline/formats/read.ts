/**
 * One entry for every declarative format: the mime type picks the reader, and a reader's failure
 * becomes a `SourceError` with a stable code naming what is wrong with the file.
 */
import { ConfigurationError, FolioError, SourceError } from '../../core/errors.ts';
import { readCsv } from './csv.ts';
import { withDeadline } from './deadline.ts';
import { readDocx } from './docx.ts';
import { readHtml } from './html.ts';
import { FORMAT_OF } from './mime.ts';
import type { FormatDocument } from './types.ts';

type Reader = (bytes: Uint8Array, mime: string, options: Readonly<ReadFormatOptions>) => FormatDocument | Promise<FormatDocument>;

async function odf(): Promise<Reader> {
  const { readOdf } = await import('./odf.ts');
  return (bytes) => readOdf(bytes);
}

const READERS: Readonly<Record<string, () => Promise<Reader>>> = {
  docx: async () => (bytes, _mime, options) => readDocx(bytes, { revisions: options.revisions ?? 'accept' }),
  html: async () => (bytes) => readHtml(bytes),
  csv: async () => (bytes) => readCsv(bytes),
  xlsx: async () => {
    const { readXlsx } = await import('./xlsx.ts');
    return (bytes) => readXlsx(bytes);
  },
  pptx: async () => {
    const { readPptx } = await import('./pptx.ts');
    return (bytes) => readPptx(bytes);
  },
  odt: async () => odf(),
  ods: async () => odf(),
  odp: async () => odf(),
  epub: async () => {
    const { readEpub } = await import('./epub.ts');
    return (bytes) => readEpub(bytes);
  },
  eml: async () => {
    const { readEml } = await import('./email.ts');
    return (bytes) => readEml(bytes);
  },
  msg: async () => {
    const { readMsg } = await import('./msg.ts');
    return (bytes) => readMsg(bytes);
  },
  legacy: async () => {
    const { readLegacy } = await import('./legacy.ts');
    return (bytes, mime) => readLegacy(bytes, mime);
  },
  xml: async () => {
    const { readXmlDocument } = await import('./xml-doc.ts');
    return (bytes) => readXmlDocument(bytes);
  },
  rtf: async () => {
    const { readRtf } = await import('./rtf.ts');
    return (bytes) => readRtf(bytes);
  },
  encrypted: async () => () => {
    throw new SourceError('FOLIO_OFFICE_ENCRYPTED', 'the Office file is encrypted with a password; Folio cannot read it without the password');
  },
};

export interface ReadFormatOptions {
  /**
   * Time limit for reading one document (each attachment, a document of its own, has its own); past it the document fails with
   * `FOLIO_FORMAT_TIMEOUT`.
   * @default 120000
   */
  readonly timeoutMs?: number;
  /**
   * Word's tracked changes and comments: accepted, or shown (see `ProcessOptions.revisions`).
   * @default 'accept'
   */
  readonly revisions?: 'accept' | 'show';
}

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
export async function readFormat(bytes: Uint8Array, mime: string, options: Readonly<ReadFormatOptions> = {}): Promise<FormatDocument> {
  const { timeoutMs = 120_000 } = options;
  if (!(typeof timeoutMs === 'number' && timeoutMs > 0)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`timeoutMs\` to be a number above 0, got \`${String(timeoutMs)}\` (${typeof timeoutMs})`);
  }
  return withDeadline(timeoutMs, () => readWith(bytes, mime, options));
}

async function readWith(bytes: Uint8Array, mime: string, options: Readonly<ReadFormatOptions>): Promise<FormatDocument> {
  const format = FORMAT_OF[mime];
  const load = format === undefined ? undefined : READERS[format];
  if (!load) throw new SourceError('FOLIO_UNSUPPORTED_TYPE', `no reader for ${mime}`);
  const reader = await load();
  try {
    return await reader(bytes, mime, options);
  } catch (error) {
    if (error instanceof FolioError) throw error;
    // A reader bug or a structure no reader expected: the document fails, the run goes on.
    throw new SourceError('FOLIO_FORMAT_CORRUPT', `the ${format} file cannot be read: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
