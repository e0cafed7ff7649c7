import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitPages } from '../../pipeline/markdown/index.ts';

/** A document of the benchmark corpus: its pages' Markdown, in order. */
export interface CorpusDocument {
  readonly name: string;
  readonly pages: readonly string[];
}

/** The folders the corpus is read from: DeepSeek-OCR pages and Folio's own parser fixtures. */
export const defaultCorpus = ['../shared/data/docling-dev/deepseek-md/sources', 'test/fixtures/markdown'] as const;

/**
 * Every `.md` file directly in a folder and every `input.md` one level down, split into pages.
 */
export function loadCorpus(folders: readonly string[]): CorpusDocument[] {
  const documents: CorpusDocument[] = [];
  for (const folder of folders) {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = entry.isDirectory() ? join(folder, entry.name, 'input.md') : entry.name.endsWith('.md') ? join(folder, entry.name) : undefined;
      if (!file) continue;
      try {
        documents.push({ name: file, pages: splitPages(readFileSync(file, 'utf8')) });
      } catch {
        // A fixture folder without input.md is not part of the corpus.
      }
    }
  }
  return documents;
}

/** Repeat the corpus, whole documents at a time, until it holds at least `pages` pages. */
export function repeatCorpus(documents: readonly CorpusDocument[], pages: number): CorpusDocument[] {
  const out: CorpusDocument[] = [];
  let count = 0;
  for (let i = 0; count < pages && documents.length > 0; i++) {
    const document = documents[i % documents.length]!;
    out.push({ name: `${document.name}#${Math.floor(i / documents.length)}`, pages: document.pages });
    count += document.pages.length;
  }
  return out;
}
