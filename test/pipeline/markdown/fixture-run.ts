import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Chunk, Element, PageMarkdown, QualityReport } from '../../../core/types.ts';
import { chunkDocument } from '../../../pipeline/chunk/index.ts';
import { mergeContinuedTables, parsePage, renderMarkdown, splitPages } from '../../../pipeline/markdown/index.ts';
import { checkPage } from '../../../pipeline/quality/index.ts';

export const fixtureRoot = 'test/fixtures/markdown';

/** Fixture folders: `input.md` (pages split by form feeds), optional `options.json` ({ maxTokens }). */
export function fixtureNames(): string[] {
  return readdirSync(fixtureRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

export interface FixtureResult {
  readonly pages: readonly PageMarkdown[];
  readonly perPage: readonly (readonly Element[])[];
  readonly quality: ReadonlyMap<number, QualityReport>;
  readonly elements: readonly Element[];
  readonly chunks: readonly Chunk[];
  readonly markdown: string;
}

/** The whole Markdown path as the orchestrator runs it: split, parse, check, merge, chunk, render. */
export function runFixture(name: string): FixtureResult {
  const folder = join(fixtureRoot, name);
  const input = readFileSync(join(folder, 'input.md'), 'utf8');
  const optionsPath = join(folder, 'options.json');
  const options = existsSync(optionsPath) ? (JSON.parse(readFileSync(optionsPath, 'utf8')) as { maxTokens?: number }) : {};
  const pages: PageMarkdown[] = splitPages(input).map((markdown, i) => ({
    docId: name,
    pageNumber: i + 1,
    width: 612,
    height: 792,
    markdown,
    route: { engine: 'markdown', reason: 'fixture' },
  }));
  const perPage = pages.map((page) => parsePage(page));
  const quality = new Map(pages.map((page, i) => [page.pageNumber, checkPage(page, perPage[i]!, { hasInk: true })] as const));
  const elements = mergeContinuedTables(perPage);
  const chunks = chunkDocument(elements, {
    docId: name,
    source: `fixture://${name}`,
    contentHash: 'fixture',
    engine: 'markdown',
    quality,
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
  });
  return { pages, perPage, quality, elements, chunks, markdown: renderMarkdown(elements) };
}

/** Expected files beside the input; `FOLIO_UPDATE_FIXTURES=1` rewrites them from the current output. */
export function expected(name: string, result: FixtureResult): { elements: unknown; chunks: unknown; markdown: string } {
  const folder = join(fixtureRoot, name);
  if (process.env['FOLIO_UPDATE_FIXTURES'] === '1') {
    writeFileSync(join(folder, 'elements.json'), `${JSON.stringify(result.elements, null, 2)}\n`);
    writeFileSync(join(folder, 'chunks.json'), `${JSON.stringify(result.chunks, null, 2)}\n`);
    writeFileSync(join(folder, 'output.md'), `${result.markdown}\n`);
  }
  return {
    elements: JSON.parse(readFileSync(join(folder, 'elements.json'), 'utf8')),
    chunks: JSON.parse(readFileSync(join(folder, 'chunks.json'), 'utf8')),
    markdown: readFileSync(join(folder, 'output.md'), 'utf8').replace(/\n$/u, ''),
  };
}
