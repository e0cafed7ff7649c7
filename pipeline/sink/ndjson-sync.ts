/**
 * A sync over NDJSON files, with the semantics of the Elasticsearch index: the previous run's
 * `documents.jsonl` says what the folder holds, so a rerun skips unchanged documents (by content
 * hash, or by source version before any download); at the end every earlier document this run
 * did not write again is carried forward, except those pruned as gone from their source and the
 * attachments (child documents) of documents gone or written again (which wrote their current
 * attachments themselves). A run
 * stopped half-way (a source lost) thus loses nothing it did not replace. The new files are
 * written beside the old ones (`*.partial`) and renamed over them at the end, so a run that dies
 * outright leaves the old set intact.
 */
import { createReadStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { PruneResult, PruneScope } from './types.ts';

/** What `documents.jsonl` recorded of one document. */
interface PreviousRecord {
  readonly docId: string;
  readonly source: string;
  readonly contentHash: string;
  readonly version?: string;
  readonly status: string;
  /** Set on an attachment: the document it belongs to. */
  readonly parentId?: string;
}

/** Suffix of the files a sync run writes before they replace the old ones. */
export const PARTIAL = '.partial';

export class NdjsonPrevious {
  readonly #outDir: string;
  readonly #records: ReadonlyMap<string, PreviousRecord>;
  /** Documents this run wrote (chunks, a record or a failure): their old lines are replaced. */
  readonly #touched = new Set<string>();
  /** New source versions of documents found unchanged by content (see `recordVersion`). */
  readonly #versions = new Map<string, string>();
  /** Documents pruned as gone: their old lines are dropped. */
  readonly #gone = new Set<string>();

  private constructor(outDir: string, records: ReadonlyMap<string, PreviousRecord>) {
    this.#outDir = outDir;
    this.#records = records;
  }

  /** The previous run's records in `outDir` (none when it holds no `documents.jsonl`). */
  static async load(outDir: string, documentsFile: string): Promise<NdjsonPrevious> {
    const records = new Map<string, PreviousRecord>();
    // Line by line: a folder of a million documents has a records file of hundreds of MB.
    const input = createReadStream(join(outDir, documentsFile), { encoding: 'utf8' });
    try {
      for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
        const record = parse(line) as PreviousRecord | undefined;
        // A torn last line (a killed run) parses as nothing: that document is read again.
        if (record !== undefined && typeof record.docId === 'string') records.set(record.docId, record);
      }
    } catch (error) {
      // No earlier run: everything is new.
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    } finally {
      input.destroy();
    }
    return new NdjsonPrevious(outDir, records);
  }

  /** Same content as last time: its lines are carried forward at the end. */
  isUnchanged(docId: string, contentHash: string): boolean {
    const record = this.#records.get(docId);
    return record !== undefined && record.status === 'indexed' && record.contentHash === contentHash;
  }

  /** The source version recorded last time for a fully stored document (asked before the download). */
  recordedVersion(docId: string): string | undefined {
    const record = this.#records.get(docId);
    return record !== undefined && record.status === 'indexed' ? record.version : undefined;
  }

  /** Same content under a new source version (an object uploaded again): carried with the new version. */
  recordVersion(docId: string, version: string): void {
    if (this.#records.has(docId)) this.#versions.set(docId, version);
  }

  /** This run writes `docId` again: its old lines are not carried. */
  touch(docId: string | undefined): void {
    if (docId !== undefined) this.#touched.add(docId);
  }

  /** What was in the files last time and is gone now: it is not carried, so it is removed. */
  prune(scope: Readonly<PruneScope>): PruneResult {
    const gone: string[] = [];
    for (const record of this.#records.values()) {
      // An attachment is in no listing: it goes with its parent.
      if (record.parentId !== undefined || this.#touched.has(record.docId) || this.#gone.has(record.docId)) continue;
      if (scope.prefixes.some((prefix) => record.source.startsWith(prefix)) && scope.isGone(record.source)) {
        this.#gone.add(record.docId);
        gone.push(record.source);
      }
    }
    for (const record of this.#records.values()) {
      if (record.parentId === undefined || this.#touched.has(record.docId) || this.#gone.has(record.docId) || this.#kept(record.parentId)) continue;
      this.#gone.add(record.docId);
      gone.push(record.source);
    }
    return { removed: gone.length, sources: gone.slice(0, 100) };
  }

  #carried(docId: string): boolean {
    if (!this.#records.has(docId) || this.#touched.has(docId) || this.#gone.has(docId)) return false;
    const parentId = this.#records.get(docId)?.parentId;
    return parentId === undefined || this.#kept(parentId);
  }

  /**
   * True when the old lines of `parentId`'s attachments may be carried: it and every document
   * above it are carried unchanged. One written again wrote its attachments again; one gone took
   * them with it. Bounded, so a record naming itself cannot loop.
   */
  #kept(parentId: string): boolean {
    let id: string | undefined = parentId;
    for (let level = 0; id !== undefined && level < 32; level++) {
      if (this.#touched.has(id) || this.#gone.has(id)) return false;
      id = this.#records.get(id)?.parentId;
    }
    return true;
  }

  /**
   * Copy the carried documents' lines from the old `file` through `put`. `group` is how many lines
   * make one record (2 for `_bulk`: action and document), `docIdOf` finds the document in the last.
   * With `versioned` (the documents file), a record carries the version given by `recordVersion`.
   */
  async copy(
    file: string,
    group: number,
    docIdOf: (record: Record<string, unknown>) => unknown,
    put: (text: string) => Promise<void>,
    versioned = false,
  ): Promise<void> {
    if (this.#records.size === 0) return;
    const input = createReadStream(join(this.#outDir, file), { encoding: 'utf8' });
    let lines: string[] = [];
    try {
      for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
        lines.push(line);
        if (lines.length < group) continue;
        const record = parse(lines.at(-1) as string);
        const docId = record === undefined ? '' : String(docIdOf(record));
        const version = versioned ? this.#versions.get(docId) : undefined;
        if (record !== undefined && this.#carried(docId))
          await put(version === undefined ? `${lines.join('\n')}\n` : `${JSON.stringify({ ...record, version })}\n`);
        lines = [];
      }
    } catch (error) {
      // The old file is missing: nothing to carry from it.
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    } finally {
      input.destroy();
    }
  }

  /** Move the finished `*.partial` files over the old ones. */
  async commit(files: readonly string[]): Promise<void> {
    for (const file of files) await rename(join(this.#outDir, `${file}${PARTIAL}`), join(this.#outDir, file));
  }
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
