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
import type { Box, Fragment, PageRules, PageStyle, Run, SidewaysPiece } from '../layout/index.ts';
import { layoutPage, pageStyle } from '../layout/index.ts';
import type { PdfHandle } from '../pdf/open.ts';
import type { AssessOptions } from './assess.ts';
import { assessText } from './assess.ts';
import type { MarginRow } from './furniture.ts';
import { FurnitureModel, marginRows } from './furniture.ts';
import { pageImages } from './images.ts';
import { readPageText, turnPage, unturnBox } from './page-text.ts';
import { pageRules } from './rules.ts';
import { toFragments } from './runs.ts';
import type { TextLayerPage } from './types.ts';

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
  /** Raster images' boxes, in the fragments' frame. */
  readonly images: readonly Box[];
  /** The page's runs: display formulas read their fonts. */
  readonly runs: readonly Run[];
  /** Text set at a quarter turn, with its boxes: sideways column headers (`sideways-headers.ts`). */
  readonly turned: readonly SidewaysPiece[];
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
      // Invisible glyphs pass as text only when the caller asks (`never`: an OCR layer is the text).
      const read = { dropUnpainted: invisibleText !== 'never' };
      let content = readPageText(page, read);
      const turn = content.sideways;
      if (turn !== 0) {
        // Most text runs one other way: read the page turned so it runs left to right.
        page = turnPage(displayed, turn);
        content = readPageText(page, read);
      }
      const fragments = toFragments(content.runs);
      // A typewritten document is set all in a monospaced font: then it is body text, not code.
      const style = pageStyle(fragments, content.monoFonts);
      const text = `${content.runs.map((r) => r.text).join(' ')} ${content.rotated.join(' ')} ${content.unpaintedText}`;
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
        images: images?.boxes ?? [],
        runs: content.runs,
        turned: content.turned,
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

/**
 * Lay out an analysed page: the text layer's positioned page goes through the layout stage
 * (`pipeline/layout`), with the document's furniture model deciding its margin rows.
 */
function finish(item: Analysed | TextLayerPage, model: FurnitureModel): TextLayerPage {
  if (!('fragments' in item)) return item;
  const { pageNumber, width, height, turn, fragments, style, margin, assessment, rules, images, runs, turned } = item;
  const laid = layoutPage(
    {
      pageNumber,
      origin: 'text-layer',
      width,
      height,
      // A sideways page was read turned upright: its boxes go back onto the displayed page.
      ...(turn === 0
        ? {}
        : {
            frame: {
              width: turn % 180 === 0 ? width : height,
              height: turn % 180 === 0 ? height : width,
              toPage: (box) => unturnBox(box, turn, width, height),
            },
          }),
      fragments,
      style,
      rules,
      images,
      runs,
      turned,
    },
    { furniture: { rows: margin, decide: (row) => model.decide(row, style.bodySize) } },
  );
  if (laid.furnitureBlocks > 0) (assessment.details as Record<string, number>).furnitureBlocks = laid.furnitureBlocks;
  return {
    pageNumber,
    width,
    height,
    markdown: laid.markdown,
    assessment,
    ...(laid.regions.length > 0 ? { regions: laid.regions } : {}),
    ...(laid.formulas.length > 0 ? { formulas: laid.formulas } : {}),
  };
}
