/**
 * Regions of a text-layer page read from its pixels and merged back: raster images that carry
 * words go to the OCR engine (paddle under `auto`) and come back as blocks in reading order;
 * formula blocks the glyphs could not be rebuilt from go to folio-ocr-math and are replaced by
 * `$$…$$` only where its guard accepts the reading. Whatever is refused keeps the text route's
 * result; the counts go into the page's route details.
 */
import { createHash } from 'node:crypto';
import { describeError } from '../../core/errors.ts';
import type { OcrEngine, OcrPageResult, PageImage } from '../../inference/engine.ts';
import type { FormulaReader } from '../formula/index.ts';
import { withLayout } from '../layout/index.ts';
import type { TextLayerRegion } from '../text-layer/index.ts';
import type { TaggedBlock } from './blocks.ts';
import { insertInOrder, joinBlocks, moveTags, regionRows, splitBlocks, toGrid } from './blocks.ts';
import { type ReadingCache, readingCacheOf } from './reading-cache.ts';
import { addsWords } from './words.ts';

type Box = readonly [number, number, number, number];

export interface RegionReaders {
  /** Reads image regions (words drawn as pixels); left out, images are not read. */
  readonly ocr?: () => Promise<OcrEngine>;
  /** Reads formula regions; left out, formulas keep the text layer's text. */
  readonly formula?: () => Promise<FormulaReader>;
  /**
   * Readings of image crops already made, by a hash of their pixels: a logo on every page is read
   * once. @default the engine's own, kept across every document it reads (`readingCacheOf`)
   */
  readonly cache?: ReadingCache;
  /**
   * The rectangles `boxes` (points) of the page rendered at `dpi`, in order, each carrying the
   * rectangle actually drawn (clipped to the page) as its `box`: only the regions are rasterised,
   * not the page.
   */
  readonly render: (dpi: number, boxes: readonly Box[]) => Promise<(PageImage & { readonly box: Box })[]>;
  readonly signal?: AbortSignal;
}

export interface RegionPage {
  readonly markdown: string;
  readonly width: number;
  readonly height: number;
  readonly regions: readonly TextLayerRegion[];
}

export interface RegionResult {
  readonly markdown: string;
  /** Blocks written from pixels, with the engine that read them, for the elements to record. */
  readonly read: readonly TaggedBlock[];
  /** Route details: regions sent to each engine, regions kept, and why the others were not. */
  readonly details: Readonly<Record<string, number | string>>;
}

/**
 * Images are read at 200 DPI (paddle's usual page resolution); formulas at 150 DPI, where a line
 * of 10–12 pt type is 20–25 px tall, the size folio-ocr-math was trained on (14–32 px).
 */
const IMAGE_DPI = 200;
const FORMULA_DPI = 150;
/** Mean recognition confidence (0–1) below which an image's reading is taken for noise. */
const MIN_IMAGE_CONFIDENCE = 0.8;
/**
 * When an image is words drawn as pixels rather than a figure with words on it: a strip at least
 * this many times wider than tall (a banner, a letterhead, a wordmark), or one whose read blocks
 * cover at least `MIN_TEXT_SHARE` of it (a paragraph set as an image). A chart or a map is neither
 * (on docling-dev's picture_classification: aspect 1.4 and 0.7, blocks over 31% and 12%): its words
 * become the figure's text, for search, and stay out of the page's flow, as docling's reference
 * Markdown keeps them out.
 */
const MIN_STRIP_ASPECT = 3;
/** The margin zone at the top and bottom of a page, as a share of its height. */
const FURNITURE_ZONE = 0.14;

const MIN_TEXT_SHARE = 0.45;

/**
 * @example
 * const { markdown, details } = await readRegions(layerPage, { ocr, formula, render: (dpi, boxes) => renderPdfRegions(page, boxes, { …, dpi }) });
 */
export async function readRegions(page: RegionPage, readers: Readonly<RegionReaders>): Promise<RegionResult> {
  let blocks = splitBlocks(page.markdown);
  const details: Record<string, number | string> = {};
  const readBlocks: TaggedBlock[] = [];
  const refused: string[] = [];
  const images = readers.ocr === undefined ? [] : page.regions.filter((r) => r.kind === 'image');
  const formulas = readers.formula === undefined ? [] : page.regions.filter((r) => r.kind === 'formula');

  if (images.length > 0 && readers.ocr !== undefined) {
    details.imageRegions = images.length;
    const engine = await readers.ocr();
    let kept = 0;
    let labelled = 0;
    let engineName = engine.name;
    // 2 pt of paper around each image, so glyphs touching its edge stay whole.
    const crops = await readers.render(
      IMAGE_DPI,
      images.map((region) => padded(region.box, 2)),
    );
    const results = await readAll(engine, crops, readers);
    for (let i = 0; i < images.length; i++) {
      const region = images[i] as TextLayerRegion & { kind: 'image' };
      const crop = crops[i]!;
      const grid = toGrid(region.box, page.width, page.height);
      const figure: TaggedBlock = { markdown: `${tag('image', grid)}\n`, label: 'image' };
      const result = results[i]!;
      if (result instanceof Error) {
        refused.push(`image ${i + 1}: ${describeError(result)}`);
        blocks = insertInOrder(blocks, [figure], grid);
        continue;
      }
      engineName = result.engine;
      const confidence = result.stats.confidence ?? 0;
      const text = result.markdown.trim();
      if (text === '' || confidence < MIN_IMAGE_CONFIDENCE || !addsWords(text, region.overlaid)) {
        // A figure without words (or with words the text layer already has) stays a figure.
        blocks = insertInOrder(blocks, [figure], grid);
        continue;
      }
      const moved = regionRows(splitBlocks(moveTags(text, crop.box, page.width, page.height)));
      const read = { engine: result.engine, confidence: round(confidence) };
      const [x0, y0, x1, y1] = region.box;
      if ((x1 - x0) / Math.max(1, y1 - y0) < MIN_STRIP_ASPECT && inkShare(moved, grid) < MIN_TEXT_SHARE) {
        // Labels scattered over a chart or a map: the figure stays one, its words become its text
        // (what search sees) rather than paragraphs in the page's flow.
        const words = moved
          .map((b) =>
            b.markdown
              .slice(b.markdown.indexOf('\n') + 1)
              .replace(/^#+\s/, '')
              .trim(),
          )
          .join(' ');
        const labelledFigure = { ...figure, ...read, figureText: words.replace(/\\(?=[\\`*_$<[\]])/g, '') };
        blocks = insertInOrder(blocks, [labelledFigure], grid);
        readBlocks.push(labelledFigure);
        labelled++;
        continue;
      }
      const edge = furnitureEdge(blocks, grid);
      const added = moved.map((b) => ({
        ...b,
        ...read,
        ...(edge === undefined ? {} : { label: edge, markdown: b.markdown.replace(/^<\|ref\|>[^<]*/, `<|ref|>${edge}`) }),
      }));
      readBlocks.push(...added);
      blocks = insertInOrder(blocks, added, grid);
      kept++;
    }
    details.imageRegionsRead = kept;
    if (labelled > 0) details.imageRegionsLabelled = labelled;
    details.imageEngine = engineName;
  }

  if (formulas.length > 0 && readers.formula !== undefined) {
    details.formulaRegions = formulas.length;
    const reader = await readers.formula();
    const regions = formulas as (TextLayerRegion & { kind: 'formula' })[];
    const images = await readers.render(
      FORMULA_DPI,
      // A little paper around the glyph boxes, as around the training formulas.
      regions.map((r) => padded(r.box, Math.max(1, 0.15 * (r.box[3] - r.box[1])))),
    );
    const readings = await reader.read(regions.map((r, i) => ({ image: images[i]!, display: r.display, fallback: '' })));
    let kept = 0;
    readings.forEach((reading, i) => {
      const region = regions[i]!;
      if (reading.engine !== 'folio-ocr-math') {
        refused.push(`formula ${i + 1}: ${reading.reason ?? 'refused'}`);
        return;
      }
      const at = blocks.findIndex((b) => b.markdown === region.block);
      if (at === -1) return;
      const old = blocks[at]!;
      const line = old.markdown.slice(0, old.markdown.indexOf('\n'));
      const replaced = { ...old, markdown: `${line}\n${reading.markdown}`, engine: reading.engine, confidence: round(reading.confidence) };
      blocks = [...blocks.slice(0, at), replaced, ...blocks.slice(at + 1)];
      readBlocks.push(replaced);
      kept++;
    });
    details.formulaRegionsRead = kept;
    details.formulaEngine = 'folio-ocr-math';
  }
  if (refused.length > 0) details.regionsRefused = refused.slice(0, 8).join('; ');
  return { markdown: joinBlocks(blocks), read: readBlocks, details };
}

/**
 * Every crop's reading, from the cache or from the engine: the crops not seen yet go in
 * one call (an engine batches them); when that call fails they are read one by one, so one crop
 * the engine refuses (a black image) costs only its own reading.
 */
async function readAll(engine: OcrEngine, crops: readonly PageImage[], readers: Readonly<RegionReaders>): Promise<(OcrPageResult | Error)[]> {
  const keys = crops.map((crop) => `${crop.width}x${crop.height}:${createHash('sha1').update(crop.data).digest('hex')}`);
  const cache = readers.cache ?? readingCacheOf(engine);
  const reader = withLayout(engine);
  const out: (OcrPageResult | Error | undefined)[] = keys.map((key) => cache.get(key));
  const missing = [...new Set(keys.filter((_, i) => out[i] === undefined))];
  const first = missing.map((key) => crops[keys.indexOf(key)]!);
  let read: (OcrPageResult | Error)[];
  try {
    // Crops of a born-digital page read the way its text layer does: no upside-down check.
    read = first.length === 0 ? [] : await reader.recognize(first, { signal: readers.signal, upright: true });
  } catch {
    readers.signal?.throwIfAborted();
    read = [];
    for (const crop of first) {
      try {
        const [one] = await reader.recognize([crop], { signal: readers.signal, upright: true });
        read.push(one ?? new Error('the OCR engine returned no result'));
      } catch (error) {
        readers.signal?.throwIfAborted();
        read.push(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
  missing.forEach((key, j) => {
    const result = read[j] ?? new Error('the OCR engine returned no result');
    if (!(result instanceof Error)) cache.set(key, result);
    keys.forEach((k, i) => {
      if (k === key) out[i] = result;
    });
  });
  return out as (OcrPageResult | Error)[];
}

/**
 * Words drawn as an image in the page's top or bottom margin zone, with no body text further out
 * (a letterhead, a logo in the footer), are page furniture, as text there is (`text-layer/furniture.ts`
 * uses the same 14% zone).
 */
function furnitureEdge(blocks: readonly TaggedBlock[], region: readonly [number, number, number, number]): 'page_header' | 'page_footer' | undefined {
  const body = blocks.filter((b) => b.box !== undefined && b.label !== 'page_header' && b.label !== 'page_footer');
  if (region[3] <= FURNITURE_ZONE * 999 && !body.some((b) => (b.box as Box)[1] < region[1])) return 'page_header';
  if (region[1] >= (1 - FURNITURE_ZONE) * 999 && !body.some((b) => (b.box as Box)[3] > region[3])) return 'page_footer';
  return undefined;
}

/** Share of the region's area (page grid) under the read blocks' boxes. */
function inkShare(blocks: readonly TaggedBlock[], region: readonly [number, number, number, number]): number {
  const area = Math.max(1, (region[2] - region[0]) * (region[3] - region[1]));
  let covered = 0;
  for (const b of blocks) if (b.box !== undefined) covered += Math.max(0, b.box[2] - b.box[0]) * Math.max(0, b.box[3] - b.box[1]);
  return covered / area;
}

function padded(box: Box, pad: number): Box {
  return [box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad];
}

function tag(label: string, box: readonly [number, number, number, number]): string {
  return `<|ref|>${label}<|/ref|><|det|>[[${box[0]}, ${box[1]}, ${box[2]}, ${box[3]}]]<|/det|>`;
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
