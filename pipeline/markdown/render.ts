import { ConfigurationError } from '../../core/errors.ts';
import type { Element } from '../../core/types.ts';
import { gridMarkdown } from './table.ts';

export interface RenderOptions {
  /**
   * Include page headers and footers (olmOCR-Bench expects them absent).
   * @default false
   */
  readonly furniture?: boolean;
  /**
   * How tables are written: `html` keeps spans and merged continuations exactly; `markdown` writes
   * pipe tables, with spans expanded (a spanning cell repeated) where the grid has them.
   * @default 'html'
   */
  readonly tables?: 'html' | 'markdown';
}

export interface RenderedMarkdown {
  readonly markdown: string;
  /** 1-based inclusive line range of each element in `markdown`; undefined for elements left out. */
  readonly lines: readonly ({ readonly from: number; readonly to: number } | undefined)[];
}

/**
 * Clean Markdown for `folio convert`: grounding tags gone, tables as HTML (merged continuations
 * included), formulas in `$…$`/`$$…$$`, blocks separated by one blank line.
 *
 * @example
 * renderMarkdown(parsePage({ markdown, pageNumber: 1, width: 612, height: 792 }))
 */
export function renderMarkdown(elements: readonly Element[], options: Readonly<RenderOptions> = {}): string {
  return renderWithLines(elements, options).markdown;
}

/**
 * {@link renderMarkdown}, plus where each element landed (for chunk `lines`).
 *
 * @example
 * renderWithLines(elements).lines[0] // { from: 1, to: 1 }
 */
export function renderWithLines(elements: readonly Element[], options: Readonly<RenderOptions> = {}): RenderedMarkdown {
  const { furniture = false, tables = 'html' } = options;
  if (tables !== 'html' && tables !== 'markdown') {
    throw new ConfigurationError('FOLIO_RENDER_OPTIONS', `Expected \`tables\` to be 'html' or 'markdown', got \`${String(tables)}\` (${typeof tables})`);
  }
  const blocks: string[] = [];
  const lines: ({ from: number; to: number } | undefined)[] = [];
  let line = 1;
  for (const element of elements) {
    if (!furniture && (element.kind === 'pageHeader' || element.kind === 'pageFooter')) {
      lines.push(undefined);
      continue;
    }
    const block = renderElement(element, tables);
    if (block === '') {
      lines.push(undefined);
      continue;
    }
    if (blocks.length > 0) line += 2;
    const height = countLines(block);
    lines.push({ from: line, to: line + height - 1 });
    line += height - 1;
    blocks.push(block);
  }
  return { markdown: blocks.join('\n\n'), lines };
}

function renderElement(element: Element, tables: 'html' | 'markdown'): string {
  if (element.kind === 'table' && element.table) {
    if (tables === 'html' || element.table.cells.length === 0) return element.table.html;
    return element.table.markdown ?? gridMarkdown(element.table.cells);
  }
  if (element.markdown !== undefined) return element.markdown.trim();
  if (element.kind === 'heading') return `${'#'.repeat(element.level ?? 1)} ${element.text}`;
  return element.text.trim();
}

function countLines(text: string): number {
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
