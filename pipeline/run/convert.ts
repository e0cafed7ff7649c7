/**
 * `folio convert`: each input becomes `DIR/<path relative to the inputs' common root>.md` (clean
 * Markdown, pages in order) and a `.json` beside it with the elements, page routes and failures.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ProcessOptions } from './options.ts';
import { processDocument, type ProcessedDocument } from './process-document.ts';
import { isDocument, sourceFailureRecord, type SourceItem } from './sources.ts';
import { SummaryBuilder, type RunSummary } from './summary.ts';

export interface ConvertOptions extends ProcessOptions {
  /** Folder the Markdown and JSON files are written to. */
  readonly outDir: string;
  readonly onDocument?: (result: ProcessedDocument) => void;
}

/** `a/b.pdf` → `a/b.md`; names without an extension get `.md` appended. */
export function outputName(relativePath: string, extension: string): string {
  const base = relativePath.replace(/\.[^./\\]+$/, '');
  return `${base}${extension}`;
}

export async function convert(sources: AsyncIterable<SourceItem>, options: Readonly<ConvertOptions>): Promise<RunSummary> {
  const { outDir, signal, onDocument } = options;
  const summary = new SummaryBuilder();
  for await (const item of sources) {
    signal?.throwIfAborted();
    if (!isDocument(item)) {
      summary.sourceFailed(sourceFailureRecord(item));
      continue;
    }
    const result = await processDocument(item, options);
    summary.document(result);
    summary.chunks(result.chunks.length, 0);
    onDocument?.(result);
    if (!result.ok) continue;
    const markdownPath = join(outDir, outputName(item.relativePath, '.md'));
    await mkdir(dirname(markdownPath), { recursive: true });
    await writeFile(markdownPath, result.markdown);
    const detail = { source: item.uri, contentHash: item.contentHash, pages: result.pages, elements: result.elements, failures: result.failures };
    await writeFile(join(outDir, outputName(item.relativePath, '.json')), JSON.stringify(detail, null, 1));
  }
  return summary.build();
}
