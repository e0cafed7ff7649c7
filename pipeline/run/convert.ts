/**
 * `folio convert`: each input becomes `DIR/<path relative to the inputs' common root>.md` (clean
 * Markdown, pages in order) and a `.json` beside it with the elements, page routes and failures.
 * An e-mail's attachments are written as documents of their own, under the message's name
 * (`mail.eml/report.md` beside `mail.md`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeJsonFile } from './json-file.ts';
import type { ProcessedDocument } from './process-document.ts';
import { type ProcessSourcesOptions, processSources, validateWorkers } from './process-sources.ts';
import { isUnreadSource, type SourceItem } from './sources.ts';
import { type RunSummary, SummaryBuilder } from './summary.ts';

export interface ConvertOptions extends ProcessSourcesOptions {
  /** Folder the Markdown and JSON files are written to. */
  readonly outDir: string;
  readonly onDocument?: (result: ProcessedDocument) => void;
}

/** `a/b.pdf` → `a/b.md`; names without an extension get `.md` appended. */
export function outputName(relativePath: string, extension: string): string {
  const base = relativePath.replace(/\.[^./\\]+$/, '');
  return `${base}${extension}`;
}

/** The `.json` that `convert` writes beside the Markdown: elements, page routes and failures. */
export function convertDetail(result: ProcessedDocument): {
  source: string;
  contentHash: string;
  parent?: string;
  children?: string[];
  pages: ProcessedDocument['pages'];
  elements: ProcessedDocument['elements'];
  failures: ProcessedDocument['failures'];
} {
  return {
    source: result.doc.uri,
    contentHash: result.doc.contentHash,
    ...(result.doc.parent === undefined ? {} : { parent: result.doc.parent.uri }),
    ...(result.children === undefined ? {} : { children: result.children.map((child) => child.doc.uri) }),
    pages: result.pages,
    elements: result.elements,
    failures: result.failures,
  };
}

export async function convert(sources: AsyncIterable<SourceItem>, options: Readonly<ConvertOptions>): Promise<RunSummary> {
  const { outDir, workers = 0, onDocument } = options;
  validateWorkers(workers);
  const summary = new SummaryBuilder();
  for await (const result of processSources(sources, options)) {
    if (isUnreadSource(result)) {
      summary.sourceFailed(result.failure);
      continue;
    }
    summary.document(result);
    onDocument?.(result);
    await writeConverted(result, outDir, summary);
  }
  return summary.build();
}

/** The files of one document and of its attachments, recursively. */
async function writeConverted(result: ProcessedDocument, outDir: string, summary: SummaryBuilder): Promise<void> {
  const { doc } = result;
  summary.chunks(result.chunks.length, 0);
  if (result.ok) {
    const markdownPath = join(outDir, outputName(doc.relativePath, '.md'));
    await mkdir(dirname(markdownPath), { recursive: true });
    await writeFile(markdownPath, result.markdown);
    await writeJsonFile(join(outDir, outputName(doc.relativePath, '.json')), convertDetail(result));
  }
  for (const child of result.children ?? []) await writeConverted(child, outDir, summary);
}
