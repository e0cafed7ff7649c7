/**
 * Where a page's furniture (running heads, feet, page numbers) must be on its text layer, and where
 * furniture must not be.
 */
import type { PageFurniture } from '../types.ts';
import { lines, squash } from './compare.ts';

/**
 * A furniture line worded enough to be told from body text: a bare page number ("3", "p. 3") may
 * well occur in prose, such a line must not.
 *
 * @example
 * worded('Annual Report 2026') // true; worded('Page 3') // false
 */
export const worded = (line: string): boolean => line.length >= 8 && /[A-Za-z]{3}/.test(line);

const PAGE_NUMBER = /^(?:page\s*)?[\d\u0660-\u0669\u06f0-\u06f9]+(?:\s*(?:of|\/)\s*\d+)?$|^-\s*\d+\s*-$/i;

/** Is `line` page `page`'s number? A bare number is furniture only when it is this page's (a formula's digits may end a page). */
const pageNumber = (line: string, page: number): boolean => PAGE_NUMBER.test(line) && (line.match(/\d+/)?.[0] ?? '') === `${page}`;

/**
 * One page of the text layer twice: `printed` as pdftotext's layout sets it (a head's left and
 * right parts on one line), `read` in its reading order (a box's wrapped lines one after another).
 */
export interface PageText {
  readonly printed: string;
  readonly read: string;
}

/**
 * Where a renderer prints a page's furniture: `edges`, the head on the page's first line and the
 * foot on its last (LaTeX's fancyhdr, Chromium's header and footer templates); `page`, anywhere on
 * the page (LibreOffice's heads and feet run to several lines: a letterhead's address, a slide's
 * footer boxes, which layout interleaves).
 */
export type FurniturePlace = 'edges' | 'page';

/**
 * `page N: header|footer 'text'` for each line of page `page`'s `furniture` not where `place` says.
 *
 * @example
 * missingFurniture(2, { header: ['Annual Report'], footer: [] }, text, 'edges') // [] when the first line holds it
 */
export function missingFurniture(page: number, furniture: PageFurniture, text: PageText, place: FurniturePlace): string[] {
  const printed = lines(text.printed);
  const within = (edge: string): string => squash(place === 'edges' ? edge : text.read);
  const top = within(printed[0] ?? '');
  const bottom = within(printed.at(-1) ?? '');
  return [
    ...furniture.header.filter((h) => !top.includes(squash(h))).map((h) => `page ${page}: header '${h}'`),
    ...furniture.footer.filter((f) => !bottom.includes(squash(f))).map((f) => `page ${page}: footer '${f}'`),
  ];
}

/**
 * The worded lines of a document's furniture that its body does not print: found on a page whose
 * own furniture lacks them, they were printed with the wrong head or foot.
 *
 * @example
 * wordedFurniture([{ header: ['Annual Report 2026'], footer: ['3'] }], 'Introduction …') // ['Annual Report 2026']
 */
export function wordedFurniture(pages: readonly PageFurniture[], body: string): string[] {
  const squashed = squash(body);
  return [...new Set(pages.flatMap((f) => [...f.header, ...f.footer]))].filter((l) => worded(l) && !squashed.includes(squash(l)));
}

/**
 * `page N: 'line'` for furniture page `page` has that its truth does not: its number at the top or
 * bottom where it has no head or foot, or one of `others` (`wordedFurniture`) not in its own.
 *
 * @example
 * unexpectedFurniture(1, { header: [], footer: [] }, { printed: 'Body\n1', read: 'Body\n1' }, []) // ["page 1: '1'"]
 */
export function unexpectedFurniture(page: number, furniture: PageFurniture, text: PageText, others: readonly string[]): string[] {
  const printed = lines(text.printed).map((l) => l.trim());
  const out: string[] = [];
  const bottom = printed.at(-1) ?? '';
  const top = printed[0] ?? '';
  if (furniture.footer.length === 0 && pageNumber(bottom, page)) out.push(`page ${page}: '${bottom}'`);
  if (furniture.header.length === 0 && pageNumber(top, page)) out.push(`page ${page}: '${top}'`);
  const own = [...furniture.header, ...furniture.footer];
  const read = squash(text.read);
  // A line inside one of this page's own (an address inside the registered-office line) is no surprise.
  for (const line of others) if (!own.some((o) => o.includes(line)) && read.includes(squash(line))) out.push(`page ${page}: '${line}'`);
  return out;
}
