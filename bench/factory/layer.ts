/** A PDF's text layer as pdftotext gives it, page by page: what the truth of a document is checked against. */
import { runChild } from '../common/tools.ts';

/**
 * The PDF's text per page: pdftotext's reading order, or with `raw` the content stream's order
 * (engines write columns one after the other), pages split at form feeds.
 *
 * @example
 * const pages = await layerPages('report.pdf', true); pages.length // the page count
 */
export async function layerPages(pdf: string, raw = false): Promise<string[]> {
  const run = await runChild({ command: 'pdftotext', args: ['-enc', 'UTF-8', ...(raw ? ['-raw'] : []), pdf, '-'], timeoutMs: 60_000 });
  if (run.code !== 0) throw new Error(`pdftotext failed on ${pdf}: ${run.stderr.trim()}`);
  const pages = run.stdout.split('\f');
  // pdftotext ends every page with a form feed: the piece after the last one is no page.
  if (pages.at(-1)?.trim() === '') pages.pop();
  return pages;
}
