/**
 * A PDF's text layer, page by page, as Markdown with grounding tags and a verdict on whether
 * the text layer can stand in for OCR.
 *
 * Streaming with a lookahead: page headers and footers are recognised by repetition across
 * pages, so each page is analysed (text content → fragments, margin rows) as soon as it is
 * read, but written out only once `lookahead` later pages have been analysed too (or the
 * document has ended). Memory holds at most `lookahead + 1` analysed pages; the first page
 * comes out after `lookahead + 1` pages have been read.
 */
import type { PdfHandle } from '../pdf/open.ts';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import { assessText } from './assess.ts';
import type { AssessOptions } from './assess.ts';
import { toBlocks } from './blocks.ts';
import type { PageStyle } from './blocks.ts';
import { FurnitureModel, marginRows } from './furniture.ts';
import type { MarginRow } from './furniture.ts';
import { pageMarkdown } from './markdown.ts';
import { inspectOperators } from './operators.ts';
import type { OperatorSummary } from './operators.ts';
import { readingOrder, toLines } from './order.ts';
import { argmax, toFragments, toRuns } from './runs.ts';
import { findPageTables } from './tables.ts';
import type { Block, Fragment, TextLayerPage } from './types.ts';

export interface ExtractTextLayerOptions {
  /**
   * Pages read ahead before a page is written, for header/footer detection.
   * @default 4
   */
  readonly lookahead?: number;
  /**
   * 1-based page numbers to extract, in order; all pages when left out.
   * @default undefined
   */
  readonly pages?: readonly number[];
  /**
   * When to read the operator list to find invisible text (render mode 3) and image coverage:
   * `auto` only for pages whose text otherwise looks usable and that look like an OCR layer
   * (all text in a single font), `always`, or `never` (fastest; invisible OCR
   * layers then pass as text). An OCR layer set in several fonts passes `auto` unnoticed.
   * @default 'auto'
   */
  readonly invisibleText?: 'auto' | 'always' | 'never';
  /**
   * Thresholds of the usability verdict.
   * @default {}
   */
  readonly assess?: Readonly<AssessOptions>;
  /** Stops between pages. */
  readonly signal?: AbortSignal;
}

interface Analysed {
  readonly pageNumber: number;
  readonly width: number;
  readonly height: number;
  readonly fragments: Fragment[];
  readonly style: PageStyle;
  readonly margin: MarginRow[];
  readonly assessment: TextLayerPage['assessment'];
}

/**
 * Extract the text layer of `pdf` page by page.
 *
 * A page that cannot be read does not end the stream: it comes out with empty Markdown and an
 * unusable verdict (`page-error`) whose details name the reason, so the router can OCR it.
 *
 * @example
 * const pdf = await openPdf(bytes, { source: 'a.pdf' });
 * try {
 *   for await (const page of extractTextLayer(pdf)) if (page.assessment.usable) console.log(page.markdown);
 * } finally { await pdf.close(); }
 */
export async function* extractTextLayer(pdf: PdfHandle, options: Readonly<ExtractTextLayerOptions> = {}): AsyncGenerator<TextLayerPage> {
  const { lookahead = 4, pages, invisibleText = 'auto', assess = {}, signal } = options;
  if (!(Number.isInteger(lookahead) && lookahead >= 0)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`lookahead\` to be an integer from 0 and up, got \`${String(lookahead)}\` (${typeof lookahead})`);
  }
  if (invisibleText !== 'auto' && invisibleText !== 'always' && invisibleText !== 'never') {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`invisibleText\` to be 'auto', 'always' or 'never', got \`${String(invisibleText)}\``);
  }
  const numbers = pages ?? Array.from({ length: pdf.numPages }, (_, i) => i + 1);
  for (const n of numbers) {
    if (!(Number.isInteger(n) && n >= 1 && n <= pdf.numPages)) {
      throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`pages\` to hold page numbers from 1 to ${pdf.numPages}, got \`${String(n)}\``);
    }
  }
  const model = new FurnitureModel();
  const queue: (Analysed | TextLayerPage)[] = [];
  for (const n of numbers) {
    signal?.throwIfAborted();
    let analysed: Analysed | TextLayerPage;
    try {
      analysed = await analysePage(pdf, n, invisibleText, assess);
      model.observe(n, analysed.margin);
    } catch (error) {
      analysed = failedPage(n, error);
    }
    queue.push(analysed);
    if (queue.length > lookahead) yield finish(queue.shift() as Analysed | TextLayerPage, model);
  }
  while (queue.length > 0) yield finish(queue.shift() as Analysed | TextLayerPage, model);
}

function failedPage(pageNumber: number, error: unknown): TextLayerPage {
  return {
    pageNumber,
    width: 0,
    height: 0,
    markdown: '',
    assessment: { usable: false, reason: 'page-error', details: { error: describeError(error) } },
  };
}

async function analysePage(pdf: PdfHandle, pageNumber: number, invisibleText: string, assess: Readonly<AssessOptions>): Promise<Analysed> {
  const page = await pdf.page(pageNumber);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const { runs, rotated, items } = toRuns(content.items, viewport.transform);
    const fragments = toFragments(runs);
    const style = pageStyle(fragments, content.styles as Record<string, { fontFamily?: string }>);
    const text = runs.map((r) => r.text).join(' ') + ' ' + rotated.join(' ');
    let assessment = assessText({ text, items }, assess);
    // The operator list decodes images and costs several times the text content, so `auto`
    // reads it only for pages that look like an OCR layer: one font for all the text (OCR tools
    // write a single glyph-less font).
    const fonts = Object.keys(content.styles).length;
    const suspicious = fonts <= 1;
    const needOperators = invisibleText === 'always' || (invisibleText === 'auto' && assessment.usable && suspicious);
    if (needOperators) {
      const ops: OperatorSummary = await inspectOperators(page);
      assessment = assessText({ text, items, glyphs: ops.glyphs, invisibleGlyphs: ops.invisibleGlyphs, imageCoverage: ops.imageCoverage }, assess);
    }
    if (rotated.length > 0) (assessment.details as Record<string, number>).rotatedItems = rotated.length;
    return {
      pageNumber,
      width: viewport.width,
      height: viewport.height,
      fragments,
      style,
      margin: marginRows(fragments, viewport.height, style.bodySize),
      assessment,
    };
  } catch (error) {
    throw new Error(`${pdf.source}: page ${pageNumber}: ${describeError(error)}`, { cause: error });
  } finally {
    page.cleanup();
  }
}

/** The body size and font: the ones carrying the most characters. */
function pageStyle(fragments: readonly Fragment[], styles: Readonly<Record<string, { fontFamily?: string }>>): PageStyle {
  const bySize = new Map<number, number>();
  const byFont = new Map<string, number>();
  for (const f of fragments) {
    const size = Math.round(f.size * 2) / 2;
    bySize.set(size, (bySize.get(size) ?? 0) + f.text.length);
    byFont.set(f.font, (byFont.get(f.font) ?? 0) + f.text.length);
  }
  const bodyFont = argmax(byFont) ?? '';
  // A typewritten document is set all in a monospaced font: then it is body text, not code.
  const monoFonts = new Set(Object.entries(styles).filter(([name, style]) => style.fontFamily === 'monospace' && name !== bodyFont).map(([name]) => name));
  return { bodySize: argmax(bySize) ?? 10, bodyFont, monoFonts };
}

function finish(item: Analysed | TextLayerPage, model: FurnitureModel): TextLayerPage {
  if (!('fragments' in item)) return item;
  const { pageNumber, width, height, fragments, style, margin, assessment } = item;
  const furniture = new Set<Fragment>();
  const headers: Block[] = [];
  const footers: Block[] = [];
  // Inner rows first: once a row is furniture, every row further out is too.
  const furnitureEdges = new Set<string>();
  for (const row of [...margin].reverse()) {
    const why = model.decide(row, style.bodySize) ?? (furnitureEdges.has(row.edge) ? 'outside-furniture' : undefined);
    if (why === undefined) continue;
    furnitureEdges.add(row.edge);
    for (const f of row.line.fragments) furniture.add(f);
    const block: Block = { label: row.edge === 'top' ? 'page_header' : 'page_footer', lines: [row.line] };
    if (row.edge === 'top') headers.unshift(block);
    else footers.push(block);
  }
  const body = furniture.size === 0 ? fragments : fragments.filter((f) => !furniture.has(f));
  const blocks: Block[] = [...headers];
  const { tables, rest } = findPageTables(body);
  for (const region of readingOrder([...rest, ...tables], { bodySize: style.bodySize })) {
    blocks.push(...toBlocks(toLines(region), style));
  }
  blocks.push(...footers);
  if (headers.length + footers.length > 0) {
    (assessment.details as Record<string, number>).furnitureBlocks = headers.length + footers.length;
  }
  return { pageNumber, width, height, markdown: pageMarkdown(blocks, width, height), assessment };
}
