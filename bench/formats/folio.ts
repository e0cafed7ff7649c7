/** Folio on one file of the formats set: the clean Markdown `folio convert` writes, and how long it took. */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sniffMime } from '../../connector/index.ts';
import { sha256 } from '../../core/hash.ts';
import type { SourceDocument } from '../../core/types.ts';
import { renderMarkdown } from '../../pipeline/markdown/index.ts';
import { processDocument } from '../../pipeline/run/process-document.ts';

export interface FolioOutput {
  /** What `folio convert` writes: tables as HTML, spans kept. */
  readonly markdown: string;
  /** The same with tables as pipe tables (a spanning cell repeated), the reference's own convention. */
  readonly pipeMarkdown: string;
  readonly pages: number;
  readonly seconds: number;
  readonly mime: string;
  readonly failure?: string;
}

/**
 * @example
 * const { markdown } = await folioMarkdown('formats-dev/docx/lorem_ipsum.docx');
 */
export async function folioMarkdown(path: string): Promise<FolioOutput> {
  const buffer = await readFile(path);
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const started = performance.now();
  const mime = sniffMime(bytes, path);
  const uri = pathToFileURL(path).href;
  const doc: SourceDocument = { id: sha256(uri).slice(0, 16), uri, relativePath: basename(path), mime, bytes, contentHash: sha256(bytes) };
  const result = await processDocument(doc, { engine: 'text' });
  const seconds = (performance.now() - started) / 1000;
  const failure = result.failures[0];
  return {
    markdown: result.markdown,
    pipeMarkdown: renderMarkdown(result.elements, { tables: 'markdown' }),
    pages: Math.max(1, result.pages.length),
    seconds,
    mime,
    ...(failure === undefined ? {} : { failure: `${failure.code}: ${failure.reason}` }),
  };
}
