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
import { findFormulaBands } from './formula/index.ts';
import type { MarginRow } from './furniture.ts';
import { FurnitureModel, marginRows } from './furniture.ts';
import { imageRegions } from './image-regions.ts';
import { pageImages } from './images.ts';
import { blockEntries } from './markdown.ts';
import { readingOrder, toLines } from './order.ts';
import { readPageText, turnPage, unturnBox } from './page-text.ts';
import { findRuledTables } from './ruled-tables.ts';
import type { PageRules } from './rules.ts';
import { pageRules } from './rules.ts';
import { argmax, toFragments } from './runs.ts';
import { withSidewaysHeaders } from './sideways-headers.ts';
import { findPageTables } from './tables.ts';
import type { Block, FormulaRegion, Fragment, Run, SidewaysPiece, TextLayerPage, TextLayerRegion } from './types.ts';

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

type Box = readonly [number, number, number, number];

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

/** LaTeX of a stacked formula: no table cell reads like this. */
const STRUCTURED = /\\(?:frac|sqrt|sum|prod|coprod|int|iint|oint|big[a-z]+|lim|limsup|liminf|overline)\b/;

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
  const { pageNumber, width, height, turn, fragments, style, margin, assessment, rules, images, runs, turned } = item;
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
  const page = furniture.size === 0 ? fragments : fragments.filter((f) => !furniture.has(f));
  // Display formulas before tables: their stacked rows (fractions, limits) align like cells.
  // Only the ones read without doubt stand in for their fragments; the others keep their text.
  // A band inside a table of many rows is a cell (`≥ 65`, `(n = 918)`), not a display formula,
  // unless it has a formula's structure or a whole equation number (a page of display formulas
  // reads as a table too; a share in a table cell is a decimal, `(9.4)`).
  // The table pass is the costliest step of a page: it runs on the page once, and that result
  // serves the table pass below too when no formula band or sideways header changed the fragments.
  let pageTables: ReturnType<typeof findPageTables> | undefined;
  const tablesOfPage = (): ReturnType<typeof findPageTables> => (pageTables ??= findPageTables(page, rules));
  const candidates = findFormulaBands(page, runs, rules.horizontal, style.bodySize);
  const bigTables = candidates.length === 0 ? [] : tablesOfPage().tables.filter((t) => (t.table?.length ?? 0) >= 6);
  const inBigTable = (f: Fragment): boolean => bigTables.some((t) => f.x0 >= t.x0 - 1 && f.x1 <= t.x1 + 1 && f.top >= t.top - 1 && f.bottom <= t.bottom + 1);
  const found = candidates.filter((b) => STRUCTURED.test(b.reading.latex) || /^\d+[a-z]?$/.test(b.number ?? '') || !inBigTable(b.standIn));
  // A doubtful reading that KaTeX still accepts stands in too, without its LaTeX: its text stays in
  // the Markdown and its box goes to the formula model (`pipeline/regions`), instead of the
  // line-by-line reader writing a worse guess from the same glyphs.
  const bands = found.filter((b) => !b.reading.unsure || (b.reading.valid && b.reading.confidence >= 0.5));
  const inBands = new Set(bands.flatMap((b) => b.members));
  const body = bands.length === 0 ? page : [...page.filter((f) => !inBands.has(f)), ...bands.map((b) => b.standIn)];
  const blocks: Block[] = [...headers];
  // Where the page draws a table's cells they beat alignment, unless the aligned table reaches
  // out of the grid (rules around part of a table only: its body, its group rows).
  // Column headers set sideways join their tables' header rows; other sideways text stays out.
  const headed = withSidewaysHeaders(body, turned, rules);
  const aligned = headed === page ? tablesOfPage() : findPageTables(headed, rules);
  const ruled = findRuledTables(headed, rules, aligned.tables);
  const { tables, rest } = ruled.tables.length === 0 ? aligned : findPageTables(ruled.rest, rules);
  for (const region of readingOrder([...rest, ...ruled.tables, ...tables], { bodySize: style.bodySize })) {
    blocks.push(...toBlocks(toLines(region), style));
  }
  blocks.push(...footers);
  if (headers.length + footers.length > 0) {
    (assessment.details as Record<string, number>).furnitureBlocks = headers.length + footers.length;
  }
  const toPage = turn === 0 ? undefined : (box: [number, number, number, number]) => unturnBox(box, turn, width, height);
  const formulas = found.map((b): FormulaRegion => {
    const { x0, top, x1, bottom } = b.members
      .filter((m) => b.number === undefined || !m.text.includes(`(${b.number})`))
      .reduce((box, m) => ({ x0: Math.min(box.x0, m.x0), top: Math.min(box.top, m.top), x1: Math.max(box.x1, m.x1), bottom: Math.max(box.bottom, m.bottom) }), {
        x0: Infinity,
        top: Infinity,
        x1: -Infinity,
        bottom: -Infinity,
      });
    const box = toPage === undefined ? ([x0, top, x1, bottom] as const) : toPage([x0, top, x1, bottom]);
    return { ...b.reading, box, ...(b.number === undefined ? {} : { number: b.number }) };
  });
  const entries = blockEntries(blocks, width, height, toPage);
  const markdown = entries.map((entry) => entry.markdown).join('\n\n');
  const regions: TextLayerRegion[] = [
    ...imageRegions(images, fragments, turn % 180 === 0 ? width : height, turn % 180 === 0 ? height : width).map((region) =>
      turn === 0 ? region : { ...region, box: unturnBox(region.box, turn, width, height) },
    ),
    // A formula block the glyphs could not be rebuilt into LaTeX from: its pixels may still be read.
    ...entries
      .filter((entry) => entry.block.label === 'equation' && entry.block.latex === undefined)
      .map((entry) => ({ kind: 'formula' as const, box: entry.box, block: entry.markdown, display: true })),
  ];
  return {
    pageNumber,
    width,
    height,
    markdown,
    assessment,
    ...(regions.length > 0 ? { regions } : {}),
    ...(formulas.length > 0 ? { formulas } : {}),
  };
}
