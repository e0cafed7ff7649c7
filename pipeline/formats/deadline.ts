/**
 * The time limit of the document being read. Readers are synchronous loops over XML, cells and
 * sectors on one thread, one document at a time, so one deadline per thread suffices; the loops
 * call {@link checkDeadline} every few thousand steps.
 */
import { SourceError } from '../../core/errors.ts';

let deadline = Number.POSITIVE_INFINITY;
let limitMs = 0;

/** Run `read` with a time limit; a read started inside another shares the outer limit. */
export async function withDeadline<T>(ms: number, read: () => Promise<T>): Promise<T> {
  if (deadline !== Number.POSITIVE_INFINITY) return read();
  deadline = performance.now() + ms;
  limitMs = ms;
  try {
    return await read();
  } finally {
    deadline = Number.POSITIVE_INFINITY;
  }
}

/** Throw `FOLIO_FORMAT_TIMEOUT` once the current document is past its time limit. */
export function checkDeadline(): void {
  if (performance.now() > deadline) throw new SourceError('FOLIO_FORMAT_TIMEOUT', `reading the document took longer than ${limitMs} ms`);
}
