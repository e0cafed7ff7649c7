/** The cited context block `folio ask` prints and an LLM prompt embeds. */
import type { SearchHit } from './types.ts';

export interface FormatContextOptions {
  /** Stop adding hits once the block would pass this many characters (the first hit always goes in). @default Infinity */
  readonly maxChars?: number;
}

/** `p. 3` or `pp. 3–4` (pages sorted, consecutive runs joined). */
export function formatPages(pages: readonly number[]): string {
  const sorted = [...new Set(pages)].sort((a, b) => a - b);
  if (sorted.length === 0) return '';
  const runs: string[] = [];
  let start = sorted[0]!;
  let prev = start;
  for (const page of [...sorted.slice(1), Infinity]) {
    if (page === prev + 1) {
      prev = page;
      continue;
    }
    runs.push(start === prev ? String(start) : `${start}–${prev}`);
    start = page;
    prev = page;
  }
  return `${sorted.length === 1 ? 'p.' : 'pp.'} ${runs.join(', ')}`;
}

/** The citation line of a hit: `source, pp. 3–4 › Heading › Subheading`. */
export function citation(hit: Pick<SearchHit, 'source' | 'pages' | 'headingPath'>): string {
  const parts = [hit.source || '(unknown source)'];
  const pages = formatPages(hit.pages);
  if (pages) parts.push(pages);
  const head = parts.join(', ');
  return hit.headingPath.length > 0 ? `${head} › ${hit.headingPath.join(' › ')}` : head;
}

/**
 * Numbers the hits `[1]`, `[2]`, … with their citation line above the chunk text, so an answer can
 * cite `[n]` and a reader can find the page.
 *
 * @example
 * console.log(formatContext(await hybridSearch({ query })));
 * // [1] docs/handbook.pdf, p. 2 › Chapter 1 › Tools
 * // Hand tools are …
 */
export function formatContext(hits: readonly SearchHit[], options: Readonly<FormatContextOptions> = {}): string {
  const { maxChars = Infinity } = options;
  const blocks: string[] = [];
  let size = 0;
  hits.forEach((hit, i) => {
    const block = `[${i + 1}] ${citation(hit)}\n${hit.text.trim()}`;
    if (blocks.length > 0 && size + block.length + 2 > maxChars) return;
    blocks.push(block);
    size += block.length + 2;
  });
  return blocks.join('\n\n');
}
