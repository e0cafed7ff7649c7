/** The last resort for records the failures index could not take: a local JSONL file. */
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FailureRecord } from '../../core/types.ts';

/**
 * Append records to `path`, one JSON object per line, creating its folder. Rejects only if the
 * local disk fails too, which the caller reports as a transport failure of the run.
 */
export async function appendFailures(path: string, records: readonly FailureRecord[]): Promise<void> {
  if (records.length === 0) return;
  await mkdir(dirname(path), { recursive: true });
  await appendFile(path, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
}
