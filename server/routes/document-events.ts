/**
 * `GET /api/documents/{id}/events`: the document view as it is read, one JSON line per event:
 * the outline (pages sized, so the first page image is asked for at once), each page with its
 * own elements as the pipeline reads it, then the finished view. A document already read
 * answers its finished view alone.
 */
import type { ServerResponse } from 'node:http';
import { describeError } from '../../core/errors.ts';
import type { DocumentEvent } from './api-types.ts';
import type { DocumentStore, OpenOptions } from './documents.ts';

/** Streams document `id`; a document that does not exist is a plain error answer (nothing is sent before it is found). */
export async function streamDocument(res: ServerResponse, store: DocumentStore, id: string, options: Readonly<OpenOptions> = {}): Promise<number> {
  const opened = await store.open(id, options);
  res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  const send = (event: DocumentEvent): void => {
    if (!res.destroyed) res.write(`${JSON.stringify(event)}\n`);
  };
  if ('view' in opened) {
    send({ type: 'done', document: opened.view });
    res.end();
    return 200;
  }
  send({ type: 'outline', document: opened.outline });
  // Pages read before this request joined, then the rest as they come (no gap: both run in this turn).
  for (const page of opened.live.pagesRead()) send({ type: 'page', page });
  const unsubscribe = opened.live.onPage((page) => send({ type: 'page', page }));
  try {
    send({ type: 'done', document: await opened.finish() });
  } catch (error) {
    send({ type: 'failed', reason: `${opened.outline.name}: ${describeError(error)}` });
  } finally {
    unsubscribe();
  }
  res.end();
  return 200;
}
