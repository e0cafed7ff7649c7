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

import { ConfigurationError, describeError, errorCode, FolioError, SourceError } from '../../core/errors.ts';
import type { PdfHandle } from '../pdf/open.ts';
import type { AssessOptions } from './assess.ts';
import { assessText } from './assess.ts';
import type { PageStyle } from './blocks.ts';
import { toBlocks } from './blocks.ts';
import type { MarginRow } from './furniture.ts';
import { FurnitureModel, marginRows } from './furniture.ts';
import { pageImages } from './images.ts';
import { pageMarkdown } from './markdown.ts';
import { readingOrder, toLines } from './order.ts';
import { readPageText, turnPage, unturnBox } from './page-text.ts';
import { findRuledTables } from './ruled-tables.ts';
import type { PageRules } from './rules.ts';
import { pageRules } from './rules.ts';
import { argmax, toFragments } from './runs.ts';
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
   * Whether to count invisibly drawn glyphs (render mode 3, an OCR layer over a scan) and measure
   * image coverage: `auto` and `always` do it on every page (PDFium hands both out for next to
   * nothing), `never` skips it (invisible OCR layers then pass as text).
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
  /** Displayed page size. */
  readonly width: number;
  readonly height: number;
  /** Clockwise turn of the page's text when it was read turned upright (fragments are in that frame), else 0. */
  readonly turn: number;
  readonly fragments: Fragment[];
  readonly style: PageStyle;
  readonly margin: MarginRow[];
  readonly assessment: TextLayerPage['assessment'];
  /** The page's horizontal and vertical rules, for ruled tables. */
  readonly rules: PageRules;
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
    throw new ConfigurationError(
      'FOLIO_BAD_OPTION',
      `Expected \`lookahead\` to be an integer from 0 and up, got \`${String(lookahead)}\` (${typeof lookahead})`,
    );
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
      analysed = analysePage(pdf, n, invisibleText, assess);
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
    assessment: { usable: false, reason: 'page-error', details: { error: describeError(error), code: errorCode(error) } },
  };
}

function analysePage(pdf: PdfHandle, pageNumber: number, invisibleText: string, assess: Readonly<AssessOptions>): Analysed {
  try {
    return pdf.readPage(pageNumber, (displayed) => {
      let page = displayed;
      let content = readPageText(page);
      const turn = content.sideways;
      if (turn !== 0) {
        // Most text runs one other way: read the page turned so it runs left to right.
        page = turnPage(displayed, turn);
        content = readPageText(page);
      }
      const fragments = toFragments(content.runs);
      const style = pageStyle(fragments, content.monoFonts);
      const text = `${content.runs.map((r) => r.text).join(' ')} ${content.rotated.join(' ')}`;
      // Render modes come with the characters and image bounds with the page objects, so the
      // check that used to need pdfjs' operator list now costs next to nothing.
      const images = invisibleText === 'never' ? undefined : pageImages(page);
      const assessment = assessText(
        images === undefined
          ? { text, items: content.items }
          : { text, items: content.items, glyphs: content.glyphs, invisibleGlyphs: content.invisibleGlyphs, imageCoverage: images.coverage },
        assess,
      );
      const details = assessment.details as Record<string, number>;
      if (images !== undefined) {
        details.images = images.images;
        details.largestImage = Math.round(images.largest * 1000) / 1000;
      }
      if (content.rotated.length > 0) details.rotatedItems = content.rotated.length;
      if (turn !== 0) details.sideways = turn;
      return {
        pageNumber,
        width: displayed.width,
        height: displayed.height,
        turn,
        fragments,
        style,
        margin: marginRows(fragments, page.height, style.bodySize),
        assessment,
        rules: pageRules(page),
      };
    });
  } catch (error) {
    // Source errors already name the document and page; anything else is given both.
    if (error instanceof FolioError) throw error;
    throw new SourceError('FOLIO_PDF_CORRUPT', `${pdf.source}: page ${pageNumber}: ${describeError(error)}`, {
      cause: error,
      meta: { source: pdf.source, pageNumber },
    });
  }
}

/** The body size and font: the ones carrying the most characters. */
function pageStyle(fragments: readonly Fragment[], mono: ReadonlySet<string>): PageStyle {
  const bySize = new Map<number, number>();
  const byFont = new Map<string, number>();
  for (const f of fragments) {
    const size = Math.round(f.size * 2) / 2;
    bySize.set(size, (bySize.get(size) ?? 0) + f.text.length);
    byFont.set(f.font, (byFont.get(f.font) ?? 0) + f.text.length);
  }
  const bodyFont = argmax(byFont) ?? '';
  // A typewritten document is set all in a monospaced font: then it is body text, not code.
  const monoFonts = new Set([...mono].filter((name) => name !== bodyFont));
  return { bodySize: argmax(bySize) ?? 10, bodyFont, monoFonts };
}

function finish(item: Analysed | TextLayerPage, model: FurnitureModel): TextLayerPage {
  if (!('fragments' in item)) return item;
  const { pageNumber, width, height, turn, fragments, style, margin, assessment, rules } = item;
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
  // Where the page draws a table's cells they beat alignment, unless the aligned table reaches
  // out of the grid (rules around part of a table only: its body, its group rows).
  const aligned = findPageTables(body, rules);
  const ruled = findRuledTables(body, rules, aligned.tables);
  const { tables, rest } = ruled.tables.length === 0 ? aligned : findPageTables(ruled.rest, rules);
  for (const region of readingOrder([...rest, ...ruled.tables, ...tables], { bodySize: style.bodySize })) {
    blocks.push(...toBlocks(toLines(region), style));
  }
  blocks.push(...footers);
  if (headers.length + footers.length > 0) {
    (assessment.details as Record<string, number>).furnitureBlocks = headers.length + footers.length;
  }
  const toPage = turn === 0 ? undefined : (box: [number, number, number, number]) => unturnBox(box, turn, width, height);
  return { pageNumber, width, height, markdown: pageMarkdown(blocks, width, height, toPage), assessment };
}
