/** A PDF's text layer as pdftotext gives it, page by page: what the truth of a document is checked against. */
import { hasTool, runChild } from '../common/tools.ts';
import { aptEnsure } from './render/apt.ts';

/**
 * Which order pdftotext writes a page in: `reading` (its own reading order, right-to-left lines in
 * logical order), `raw` (the content stream's: engines write columns one after the other) or
 * `layout` (the page's lines as printed, side by side: a running head's left and right parts on one line).
 */
export type LayerOrder = 'reading' | 'raw' | 'layout';

const FLAGS: Readonly<Record<LayerOrder, readonly string[]>> = { reading: [], raw: ['-raw'], layout: ['-layout'] };

/**
 * pdftotext and pdfinfo, installed with apt-get where missing and this user may (root, as on CI).
 *
 * @example
 * await ensurePoppler(console.error);
 */
export async function ensurePoppler(log: (line: string) => void): Promise<void> {
  await aptEnsure('pdftotext', ['poppler-utils'], log, async () => (await hasTool('pdftotext')) && (await hasTool('pdfinfo')));
}

/**
 * The PDF's text per page in `order`, pages split at form feeds.
 *
 * @example
 * const pages = await layerPages('report.pdf', 'raw'); pages.length // the page count
 */
export async function layerPages(pdf: string, order: LayerOrder = 'reading'): Promise<string[]> {
  const run = await runChild({ command: 'pdftotext', args: ['-enc', 'UTF-8', ...FLAGS[order], pdf, '-'], timeoutMs: 60_000 });
  if (run.code !== 0) throw new Error(`pdftotext failed on ${pdf}: ${run.stderr.trim()}`);
  const pages = run.stdout.split('\f');
  // pdftotext ends every page with a form feed: the piece after the last one is no page.
  if (pages.at(-1)?.trim() === '') pages.pop();
  return pages;
}
