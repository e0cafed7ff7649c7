/**
 * A bounded reader of OLE compound files (CFB, the container of Outlook MSG and legacy Office):
 * the FAT, the directory tree and the mini stream. Every sector chain is checked for cycles and
 * for running past the file, so a crafted file fails with a clear code instead of looping.
 */
import { SourceError } from '../../core/errors.ts';

const END_OF_CHAIN = 0xfffffffe;
const FREE = 0xffffffff;

export interface CfbEntry {
  /** Slash-separated path below the root: `__attach_version1.0_#00000000/__substg1.0_37010102`. */
  readonly path: string;
  readonly stream: boolean;
  readonly size: number;
}

function corrupt(why: string): SourceError {
  return new SourceError('FOLIO_FORMAT_CORRUPT', `the compound file (OLE) is damaged: ${why}`);
}

export class CompoundFile {
  readonly #bytes: Uint8Array;
  readonly #view: DataView;
  readonly #sectorSize: number;
  readonly #fat: number[] = [];
  readonly #miniFat: number[];
  readonly #miniStream: Uint8Array;
  readonly #cutoff: number;
  readonly #entries = new Map<string, { start: number; size: number; stream: boolean }>();

  constructor(bytes: Uint8Array, maxEntries = 100_000) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length < 512) throw corrupt('shorter than its header');
    const shift = this.#view.getUint16(0x1e, true);
    if (shift !== 9 && shift !== 12) throw corrupt(`sector shift ${shift}`);
    this.#sectorSize = 1 << shift;
    this.#cutoff = this.#view.getUint32(0x38, true);
    // The FAT sectors: 109 listed in the header, the rest in the DIFAT chain.
    const fatSectors: number[] = [];
    for (let i = 0; i < 109; i++) {
      const s = this.#view.getUint32(0x4c + i * 4, true);
      if (s !== FREE && s !== END_OF_CHAIN) fatSectors.push(s);
    }
    let difat = this.#view.getUint32(0x44, true);
    const seen = new Set<number>();
    while (difat !== END_OF_CHAIN && difat !== FREE) {
      if (seen.has(difat) || seen.size > 10_000) throw corrupt('the DIFAT chain loops');
      seen.add(difat);
      const at = this.#offset(difat);
      const per = this.#sectorSize / 4 - 1;
      for (let i = 0; i < per; i++) {
        const s = this.#view.getUint32(at + i * 4, true);
        if (s !== FREE && s !== END_OF_CHAIN) fatSectors.push(s);
      }
      difat = this.#view.getUint32(at + per * 4, true);
    }
    for (const s of fatSectors) {
      const at = this.#offset(s);
      for (let i = 0; i < this.#sectorSize / 4; i++) this.#fat.push(this.#view.getUint32(at + i * 4, true));
    }
    const directory = this.#chain(this.#view.getUint32(0x30, true));
    const entries: { name: string; type: number; left: number; right: number; child: number; start: number; size: number }[] = [];
    for (const s of directory) {
      const at = this.#offset(s);
      for (let i = 0; i < this.#sectorSize / 128; i++) {
        const e = at + i * 128;
        const length = Math.min(64, this.#view.getUint16(e + 64, true));
        entries.push({
          name: new TextDecoder('utf-16le').decode(bytes.subarray(e, e + Math.max(0, length - 2))),
          type: bytes[e + 66]!,
          left: this.#view.getUint32(e + 68, true),
          right: this.#view.getUint32(e + 72, true),
          child: this.#view.getUint32(e + 76, true),
          start: this.#view.getUint32(e + 116, true),
          size: this.#view.getUint32(e + 120, true),
        });
        if (entries.length > maxEntries) throw new SourceError('FOLIO_FORMAT_TOO_LARGE', `the compound file has more than ${maxEntries} entries`);
      }
    }
    const root = entries[0];
    if (root?.type !== 5) throw corrupt('no root entry');
    this.#miniStream = this.#readChain(root.start, root.size, false);
    this.#miniFat = [];
    for (const s of this.#chain(this.#view.getUint32(0x3c, true))) {
      const at = this.#offset(s);
      for (let i = 0; i < this.#sectorSize / 4; i++) this.#miniFat.push(this.#view.getUint32(at + i * 4, true));
    }
    // The directory is a red-black tree per storage: walk it without recursion, each entry once.
    const visited = new Set<number>();
    const stack: { id: number; prefix: string }[] = [{ id: root.child, prefix: '' }];
    while (stack.length > 0) {
      const { id, prefix } = stack.pop()!;
      if (id === FREE || id >= entries.length || visited.has(id)) continue;
      visited.add(id);
      const e = entries[id]!;
      const path = `${prefix}${e.name}`;
      if (e.type === 2) this.#entries.set(path, { start: e.start, size: e.size, stream: true });
      if (e.type === 1) {
        this.#entries.set(path, { start: 0, size: 0, stream: false });
        stack.push({ id: e.child, prefix: `${path}/` });
      }
      stack.push({ id: e.left, prefix }, { id: e.right, prefix });
    }
  }

  #offset(sector: number): number {
    const at = (sector + 1) * this.#sectorSize;
    if (at + this.#sectorSize > this.#bytes.length) throw corrupt(`sector ${sector} lies past the end of the file (truncated?)`);
    return at;
  }

  #chain(start: number, table: readonly number[] = this.#fat): number[] {
    const out: number[] = [];
    const seen = new Set<number>();
    for (let s = start; s !== END_OF_CHAIN && s !== FREE; s = table[s] ?? END_OF_CHAIN) {
      if (seen.has(s) || out.length > table.length) throw corrupt('a sector chain loops');
      seen.add(s);
      out.push(s);
    }
    return out;
  }

  #readChain(start: number, size: number, mini: boolean): Uint8Array {
    const unit = mini ? 64 : this.#sectorSize;
    const out = new Uint8Array(size);
    let written = 0;
    for (const s of this.#chain(start, mini ? this.#miniFat : this.#fat)) {
      if (written >= size) break;
      const piece = mini ? this.#miniStream.subarray(s * unit, (s + 1) * unit) : this.#bytes.subarray(this.#offset(s), this.#offset(s) + unit);
      out.set(piece.subarray(0, Math.min(piece.length, size - written)), written);
      written += unit;
    }
    return out;
  }

  entries(): CfbEntry[] {
    return [...this.#entries].map(([path, e]) => ({ path, stream: e.stream, size: e.size }));
  }

  /** A stream's bytes, or undefined. */
  read(path: string): Uint8Array | undefined {
    const e = this.#entries.get(path);
    if (!e?.stream) return undefined;
    if (e.size > 256 * 1024 * 1024) throw new SourceError('FOLIO_FORMAT_TOO_LARGE', `stream ${path} is ${e.size} bytes`);
    return this.#readChain(e.start, e.size, e.size < this.#cutoff);
  }
}
