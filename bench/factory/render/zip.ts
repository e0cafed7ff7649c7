/**
 * A minimal ZIP writer for the packages the factory writes itself (DOCX, ODT, PPTX): local headers,
 * stored or deflated entries, a central directory. No ZIP64, no encryption, no extra fields: the
 * packages are small and LibreOffice reads plain PKZIP 2.0 archives.
 */
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** Path inside the archive (`word/document.xml`), forward slashes. */
  readonly name: string;
  readonly data: string | Uint8Array;
  /**
   * Keep the bytes as they are: ODF requires its `mimetype` entry stored, first.
   * @default false
   */
  readonly stored?: boolean;
}

/** 1980-01-01 00:00 in DOS time and date: a fixed stamp, so a seed rebuilds the same bytes. */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
/** The archive limits of the format without ZIP64. */
const MAX_ENTRIES = 0xffff;
const MAX_BYTES = 0xffffffff;

/**
 * The bytes of a ZIP archive holding `entries` in order.
 *
 * @example
 * const bytes = zip([{ name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', stored: true }, ...]);
 */
export function zip(entries: readonly ZipEntry[]): Uint8Array {
  if (entries.length > MAX_ENTRIES) throw new RangeError(`zip: ${entries.length} entries is more than ${MAX_ENTRIES} (no ZIP64)`);
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const raw = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : Buffer.from(entry.data);
    const body = entry.stored ? raw : deflateRawSync(raw, { level: 9 });
    const method = entry.stored ? 0 : 8;
    const crc = crc32(raw);
    if (raw.length > MAX_BYTES || offset > MAX_BYTES) throw new RangeError(`zip: ${entry.name} is past 4 GiB (no ZIP64)`);
    // Bit 11: the name is UTF-8.
    const flags = 0x0800;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    chunks.push(local, name, body);

    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(flags, 8);
    dir.writeUInt16LE(method, 10);
    dir.writeUInt16LE(DOS_TIME, 12);
    dir.writeUInt16LE(DOS_DATE, 14);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(body.length, 20);
    dir.writeUInt32LE(raw.length, 24);
    dir.writeUInt16LE(name.length, 28);
    // Extra, comment, disk, internal attributes, external attributes: all zero.
    dir.writeUInt32LE(offset, 42);
    central.push(dir, name);
    offset += local.length + name.length + body.length;
  }
  const centralBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...chunks, centralBytes, end]));
}
