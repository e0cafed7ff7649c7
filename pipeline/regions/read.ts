/**
 * Regions of a text-layer page read from its pixels and merged back: raster images that carry
 * words go to the OCR engine (paddle under `auto`) and come back as blocks in reading order;
 * formula blocks the glyphs could not be rebuilt from go to folio-ocr-math and are replaced by
 * `$$…$$` only where its guard accepts the reading. Whatever is refused keeps the text route's
 * result; the counts go into the page's route details.
 */
import { describeError } from '../../core/errors.ts';
import type { OcrEngine, PageImage } from '../../inference/engine.ts';
import type { FormulaReader } from '../formula/index.ts';
import type { TextLayerRegion } from '../text-layer/index.ts';
import type { TaggedBlock } from './blocks.ts';
import { insertInOrder, joinBlocks, moveTags, splitBlocks, toGrid } from './blocks.ts';
import { cropRegion } from './crop.ts';
import { addsWords } from './words.ts';

export interface RegionReaders {
  /** Reads image regions (words drawn as pixels); left out, images are not read. */
  readonly ocr?: () => Promise<OcrEngine>;
  /** Reads formula regions; left out, formulas keep the text layer's text. */
  readonly formula?: () => Promise<FormulaReader>;
  /** The page rendered at `dpi`. */
  readonly render: (dpi: number) => Promise<PageImage>;
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
 * @example
 * const { markdown, details } = await readRegions(layerPage, { ocr, formula, render: (dpi) => renderPdfPage(page, { …, dpi }) });
 */
export async function readRegions(page: RegionPage, readers: Readonly<RegionReaders>): Promise<RegionResult> {
  let blocks = splitBlocks(page.markdown);
  const details: Record<string, number | string> = {};
  const read: TaggedBlock[] = [];
  const refused: string[] = [];
  const images = readers.ocr === undefined ? [] : page.regions.filter((r) => r.kind === 'image');
  const formulas = readers.formula === undefined ? [] : page.regions.filter((r) => r.kind === 'formula');

  if (images.length > 0 && readers.ocr !== undefined) {
    details.imageRegions = images.length;
    const rendered = await readers.render(IMAGE_DPI);
    const crops = images.map((r) => cropRegion(rendered, r.box, page.width, page.height, 2));
    const engine = await readers.ocr();
    let kept = 0;
    for (let i = 0; i < images.length; i++) {
      readers.signal?.throwIfAborted();
      const region = images[i]!;
      const crop = crops[i]!;
      let result;
      try {
        [result] = await engine.recognize([crop], { signal: readers.signal });
      } catch (error) {
        refused.push(`image ${i + 1}: ${describeError(error)}`);
        continue;
      }
      const confidence = result?.stats.confidence ?? 0;
      const text = result?.markdown.trim() ?? '';
      if (text === '' || confidence < MIN_IMAGE_CONFIDENCE || !addsWords(text, region.kind === 'image' ? region.overlaid : '')) {
        // A figure without words (or words the text layer already has) stays a figure.
        blocks = insertInOrder(
          blocks,
          [{ markdown: `${tag('image', toGrid(region.box, page.width, page.height))}\n`, label: 'image' }],
          toGrid(region.box, page.width, page.height),
        );
        continue;
      }
      const moved = splitBlocks(moveTags(text, crop.box, page.width, page.height)).map((b) => ({
        ...b,
        engine: result?.engine ?? engine.name,
        confidence: round(confidence),
      }));
      read.push(...moved);
      blocks = insertInOrder(blocks, moved, toGrid(region.box, page.width, page.height));
      kept++;
    }
    details.imageRegionsRead = kept;
    details.imageEngine = engine.name;
  }

  if (formulas.length > 0 && readers.formula !== undefined) {
    details.formulaRegions = formulas.length;
    const rendered = await readers.render(FORMULA_DPI);
    const reader = await readers.formula();
    const regions = formulas as (TextLayerRegion & { kind: 'formula' })[];
    const readings = await reader.read(
      regions.map((r) => {
        // A little paper around the glyph boxes, as around the training formulas.
        const pad = Math.max(1, 0.15 * (r.box[3] - r.box[1]));
        return { image: cropRegion(rendered, r.box, page.width, page.height, pad), display: r.display, fallback: '' };
      }),
    );
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
      read.push(replaced);
      kept++;
    });
    details.formulaRegionsRead = kept;
    details.formulaEngine = 'folio-ocr-math';
  }
  if (refused.length > 0) details.regionsRefused = refused.slice(0, 8).join('; ');
  return { markdown: joinBlocks(blocks), read, details };
}

function tag(label: string, box: readonly [number, number, number, number]): string {
  return `<|ref|>${label}<|/ref|><|det|>[[${box[0]}, ${box[1]}, ${box[2]}, ${box[3]}]]<|/det|>`;
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
