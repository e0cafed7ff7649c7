/**
 * A bounded ZIP reader for Office, OpenDocument and EPUB containers: the central directory is read
 * once, entries are inflated on demand with `node:zlib`, and every bound is checked before memory
 * is spent, because a 40 KB zip can expand to gigabytes (a zip bomb).
 */
import { inflateRawSync } from 'node:zlib';
import { SourceError } from '../../core/errors.ts';

export interface ZipLimits {
  /**
   * Most entries the central directory may list.
   * @default 20000
   */
  readonly maxEntries?: number;
  /**
   * Most bytes one entry may expand to.
   * @default 134217728 (128 MiB: a 500,000-cell sheet is about 50 MiB of XML)
   */
  readonly maxEntryBytes?: number;
  /**
   * Most bytes all entries read from one archive may expand to, together.
   * @default 536870912 (512 MiB)
   */
  readonly maxTotalBytes?: number;
  /**
   * Largest expansion ratio allowed for an entry over 1 MiB (text XML compresses about 10:1; a bomb 1000:1).
   * @default 200
   */
  readonly maxRatio?: number;
}

export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly encrypted: boolean;
  readonly compressedSize: number;
  readonly size: number;
  readonly localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MiB = 1024 * 1024;

/** True when the bytes start like a ZIP archive (a local file header, or an empty archive). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5) && (bytes[3] === 4 || bytes[3] === 6);
}

/** An opened archive: names from the central directory, entries inflated on demand within the limits. */
export class ZipArchive {
  readonly #bytes: Uint8Array;
  readonly #view: DataView;
  readonly #entries: Map<string, ZipEntry>;
  readonly #limits: Required<ZipLimits>;
  #expanded = 0;

  constructor(bytes: Uint8Array, entries: Map<string, ZipEntry>, limits: Required<ZipLimits>) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#entries = entries;
    this.#limits = limits;
  }

  names(): string[] {
    return [...this.#entries.keys()];
  }

  has(name: string): boolean {
    return this.#entries.has(normalise(name));
  }

  /** The entry's bytes, or undefined when the archive has no such entry. */
  read(name: string): Uint8Array | undefined {
    const entry = this.#entries.get(normalise(name));
    if (!entry) return undefined;
    const { maxEntryBytes, maxTotalBytes, maxRatio } = this.#limits;
    if (entry.encrypted) throw new SourceError('FOLIO_OFFICE_ENCRYPTED', `zip entry ${entry.name} is encrypted`);
    if (entry.size > maxEntryBytes || this.#expanded + entry.size > maxTotalBytes) {
      throw new SourceError('FOLIO_ZIP_TOO_LARGE', `zip entry ${entry.name} expands to ${entry.size} bytes, past the limit (a zip bomb?)`);
    }
    if (entry.size > MiB && entry.size > entry.compressedSize * maxRatio) {
      throw new SourceError(
        'FOLIO_ZIP_TOO_LARGE',
        `zip entry ${entry.name} expands ${Math.round(entry.size / Math.max(1, entry.compressedSize))}:1, past ${maxRatio}:1 (a zip bomb?)`,
      );
    }
    const at = entry.localOffset;
    if (at + 30 > this.#bytes.length || this.#view.getUint32(at, true) !== LOCAL) {
      throw new SourceError('FOLIO_ZIP_CORRUPT', `zip entry ${entry.name}: no local header where the directory says (truncated or corrupt archive)`);
    }
    const start = at + 30 + this.#view.getUint16(at + 26, true) + this.#view.getUint16(at + 28, true);
    const end = start + entry.compressedSize;
    if (end > this.#bytes.length) throw new SourceError('FOLIO_ZIP_CORRUPT', `zip entry ${entry.name} runs past the end of the file (truncated archive)`);
    const data = this.#bytes.subarray(start, end);
    let out: Uint8Array;
    if (entry.method === 0) out = data;
    else if (entry.method === 8) {
      // The declared size may lie: inflation itself stops at the bound.
      const bound = Math.min(maxEntryBytes, maxTotalBytes - this.#expanded, Math.max(entry.size, 1) + 1);
      try {
        out = inflateRawSync(data, { maxOutputLength: Math.max(1, bound) });
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'ERR_BUFFER_TOO_LARGE')
          throw new SourceError('FOLIO_ZIP_TOO_LARGE', `zip entry ${entry.name} expands past its declared size or the limit (a zip bomb?)`, { cause: error });
        throw new SourceError('FOLIO_ZIP_CORRUPT', `zip entry ${entry.name} cannot be inflated (${(error as Error).message})`, { cause: error });
      }
    } else throw new SourceError('FOLIO_ZIP_CORRUPT', `zip entry ${entry.name} uses compression method ${entry.method}, which Folio does not read`);
    if (out.length > entry.size && entry.method === 8) {
      throw new SourceError('FOLIO_ZIP_TOO_LARGE', `zip entry ${entry.name} expands past its declared size (a zip bomb?)`);
    }
    this.#expanded += out.length;
    return out;
  }

  /** The entry as UTF-8 text (a BOM dropped), or undefined. */
  text(name: string): string | undefined {
    const bytes = this.read(name);
    return bytes === undefined ? undefined : new TextDecoder('utf-8').decode(bytes);
  }
}

function normalise(name: string): string {
  return name.replace(/^\/+/, '').replace(/\\/g, '/');
}

/**
 * Open `bytes` as a ZIP archive: reads the central directory, checks the entry count, and throws a
 * `SourceError` (`FOLIO_ZIP_CORRUPT`) for a truncated or damaged archive.
 *
 * @example
 * const zip = openZip(bytes);
 * const xml = zip.text('word/document.xml');
 */
export function openZip(bytes: Uint8Array, limits: Readonly<ZipLimits> = {}): ZipArchive {
  const { maxEntries = 20000, maxEntryBytes = 128 * MiB, maxTotalBytes = 512 * MiB, maxRatio = 200 } = limits;
  const entries = new Map<string, ZipEntry>();
  for (const entry of centralDirectory(bytes, maxEntries)) entries.set(normalise(entry.name), entry);
  return new ZipArchive(bytes, entries, { maxEntries, maxEntryBytes, maxTotalBytes, maxRatio });
}

/** The central directory's entries (names and sizes only, nothing inflated). */
export function centralDirectory(bytes: Uint8Array, maxEntries = 20000): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record is 22 bytes plus a comment of up to 65535 bytes.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new SourceError('FOLIO_ZIP_CORRUPT', 'the zip archive has no end-of-directory record (truncated or not a zip)');
  const count = view.getUint16(eocd + 10, true);
  const size = view.getUint32(eocd + 12, true);
  const offset = view.getUint32(eocd + 16, true);
  if (count > maxEntries) throw new SourceError('FOLIO_ZIP_TOO_LARGE', `the zip archive lists ${count} entries, more than ${maxEntries}`);
  if (offset === 0xffffffff || offset + size > eocd)
    throw new SourceError('FOLIO_ZIP_CORRUPT', 'the zip central directory lies outside the file (truncated or ZIP64)');
  const decoder = new TextDecoder('utf-8');
  const out: ZipEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || view.getUint32(at, true) !== CENTRAL)
      throw new SourceError('FOLIO_ZIP_CORRUPT', `the zip central directory is damaged at entry ${i}`);
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const next = at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (next > eocd) throw new SourceError('FOLIO_ZIP_CORRUPT', `the zip central directory is damaged at entry ${i}`);
    out.push({
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      encrypted: (flags & 1) === 1,
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    });
    at = next;
  }
  return out;
}

/**
 * A package's pictures, read on demand under the archive's bounds: an entry past them, or missing,
 * is undefined (the figure stays a figure), never an error of the document.
 *
 * @example
 * readDocx(bytes).media?.('word/media/image1.png')
 */
export function packageMedia(zip: ZipArchive): (src: string) => Uint8Array | undefined {
  return (src) => {
    try {
      return zip.read(src);
    } catch {
      return undefined;
    }
  };
}
