/**
 * Provenance of the elements of a spreadsheet or a presentation: the slide, or the sheet and the
 * cells each table or note was read from (`Sheet1!A1:D40`). The readers name the cells on their
 * blocks; the elements are parsed from the page's Markdown, so they are matched back to the
 * blocks in order (tables to tables, paragraphs to paragraphs of the same text).
 */
import type { Element, ElementLocation } from '../../core/types.ts';
import type { Block, FormatPage } from '../formats/index.ts';
import { sheetRange } from '../formats/index.ts';

const plain = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * `elements` with their locations; unchanged for a page that is neither a slide nor a sheet.
 * `fileSheet` names the sheet of a file that has one without a name (a CSV: its file name).
 *
 * @example
 * locateElements(elements, { blocks, sheet: 'Sheet1' }) // a table's location: { sheet: 'Sheet1', range: 'Sheet1!A1:D40' }
 */
export function locateElements(elements: readonly Element[], page: FormatPage, fileSheet?: string): Element[] {
  if (page.slide !== undefined) {
    const location: ElementLocation = { slide: page.slide };
    return elements.map((element) => ({ ...element, location }));
  }
  const ranged = page.blocks.filter((block): block is Extract<Block, { range?: string }> & { range: string } => 'range' in block && block.range !== undefined);
  const sheet = page.sheet ?? (ranged.length > 0 ? fileSheet : undefined);
  if (sheet === undefined) return [...elements];
  const tables = ranged.filter((block) => block.kind === 'table');
  const paragraphs = ranged.filter((block) => block.kind === 'paragraph');
  return elements.map((element) => {
    let range: string | undefined;
    if (element.kind === 'table') range = tables.shift()?.range;
    else if (element.kind === 'paragraph') {
      const at = paragraphs.findIndex((block) => block.kind === 'paragraph' && plain(block.spans.map((s) => s.text).join('')) === plain(element.text));
      if (at >= 0) range = paragraphs.splice(at, 1)[0]?.range;
    }
    return { ...element, location: range === undefined ? { sheet } : { sheet, range: sheetRange(sheet, range) } };
  });
}
