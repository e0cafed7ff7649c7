/**
 * Pages for a text-block reader (`folio-model.json` → `input: "text-block"`): paddle's detector
 * finds the lines and turns the page upright, each line is cut into views the model was trained
 * on, and all views of all pages are decoded in batches (greedy or speculative, the same ids either
 * way). Each page comes back as its positioned lines (`positioned`), which the layout stage every
 * route shares (`pipeline/layout`) turns into grounded Markdown blocks.
 */
import { InferenceError } from '../../core/errors.ts';
import type { OcrPositionedPage } from '../../core/types.ts';
import type { PageImage } from '../engine.ts';
import type { Fragment } from '../paddle/filter.ts';
import { cleanLatinPage } from '../paddle/filter.ts';
import { boxBounds } from '../paddle/geometry.ts';
import { findUprightLines } from '../paddle/lines.ts';
import { paddleModelPaths } from '../paddle/models.ts';
import { toneOf, toRgb } from '../paddle/raster.ts';
import { OnnxSession } from '../runtime/ort.ts';
import { inBatches } from './batches.ts';
import type { DecodeOptions, PageDecode } from './decode.ts';
import { decode } from './decode.ts';
import type { LineViewOptions } from './line-views.ts';
import { lineViews } from './line-views.ts';
import type { OcrModel } from './load.ts';

export interface BlockReaderOptions {
  /** CPU threads per detector session; 0 lets onnxruntime decide. @default 0 */
  readonly threads?: number;
  /** Longer side of the detection input in pixels (multiple of 32). @default 960 */
  readonly detMaxSide?: number;
  /** Views decoded together (lines of all pages of a call share batches). @default 16 */
  readonly viewBatchSize?: number;
  /** How lines become views. @default {} */
  readonly views?: Readonly<LineViewOptions>;
}

/** A page read block by block: its lines in `positioned` (`text` stays empty), stats summed over its views, plus `extra`. */
export interface BlockPageDecode extends PageDecode {
  readonly positioned: OcrPositionedPage;
  /** `lines`, `views`, `rotation`, `detMs`, `ms` (wall time). */
  readonly extra: Readonly<Record<string, number>>;
}

export interface BlockReader {
  /** Read pages; `retries` counts batches halved after running out of memory. */
  read(pages: readonly PageImage[], options: Readonly<DecodeOptions>): Promise<{ results: BlockPageDecode[]; retries: number }>;
  release(): Promise<void>;
}

/**
 * Open paddle's detector and direction classifier for a block-reading model.
 *
 * @example
 * const reader = await createBlockReader(model, { threads: 2 });
 * try { const { results } = await reader.read(pages, { draftK: 3 }); } finally { await reader.release(); }
 */
export async function createBlockReader(model: OcrModel, options: Readonly<BlockReaderOptions> = {}): Promise<BlockReader> {
  const { threads = 0, detMaxSide = 960, viewBatchSize = 16, views = {} } = options;
  const paths = paddleModelPaths();
  // Not spinning: between runs this reader crops and lays out in JavaScript on the same cores.
  const [det, cls] = await Promise.all([
    OnnxSession.create(paths.det, { threads, spinning: false }),
    OnnxSession.create(paths.cls, { threads, spinning: false }),
  ]);
  const viewSize = model.config.image.globalView;

  async function read(pages: readonly PageImage[], decodeOptions: Readonly<DecodeOptions>): Promise<{ results: BlockPageDecode[]; retries: number }> {
    const found = [];
    const all: { page: number; line: number; image: PageImage }[] = [];
    for (const [p, page] of pages.entries()) {
      decodeOptions.signal?.throwIfAborted();
      const t0 = performance.now();
      const given = toRgb(page);
      const tone = toneOf(given);
      if (tone.spread < 1 && tone.mean < 48) {
        throw new InferenceError(
          'FOLIO_OCR_BLANK_IMAGE',
          `page ${page.pageNumber} of ${page.source}: the image is uniformly dark (mean ${tone.mean.toFixed(0)}/255), nothing to read; a failed scan or render?`,
          { meta: { source: page.source, docId: page.docId, pageNumber: page.pageNumber } },
        );
      }
      // No contrast, no text: a white page is simply empty.
      const upright =
        tone.spread < 1 ? { upright: given, rotation: 0 as const, lines: [] } : await findUprightLines({ det, cls }, given, { maxSide: detMaxSide });
      // Single lines the classifier is sure about are read the other way round (a label upside down).
      const inputs = upright.lines.map((l) => ({ box: l.box, flip: l.p180 > 0.98 }));
      const pageViews = lineViews(upright.upright, inputs, viewSize, page, views);
      for (const v of pageViews) all.push({ page: p, line: v.line, image: v.image });
      found.push({ given, ...upright, views: pageViews.length, detMs: performance.now() - t0 });
    }
    const started = performance.now();
    const { results: decoded, retries } = await inBatches({
      items: all,
      batchSize: viewBatchSize,
      run: (batch) =>
        decode(
          model,
          batch.map((v) => v.image),
          decodeOptions,
        ),
    });
    decodeOptions.signal?.throwIfAborted();
    const decodeMs = performance.now() - started;

    const results = found.map((f, p): BlockPageDecode => {
      const t0 = performance.now();
      const mine = decoded.filter((_, i) => all[i]!.page === p);
      const lineOf = all.filter((v) => v.page === p).map((v) => v.line);
      const texts: string[] = f.lines.map(() => '');
      // A long line's pieces are stacked as lines of one view: the model writes them one per line.
      // The training views had Markdown headings and bullets in bold: a `#` the model writes for a
      // bold line is its guess at a heading, which the page's layout decides better.
      mine.forEach((d, i) => {
        texts[lineOf[i]!] = `${texts[lineOf[i]!]} ${d.text.replace(/^\s*#+\s+/, '').replace(/\s+/g, ' ')}`.trim();
      });
      const fragments: Fragment[] = [];
      texts.forEach((text, i) => {
        if (text === '') return;
        const [x1, y1, x2, y2] = boxBounds(f.lines[i]!.box);
        fragments.push({ text, x1, y1, x2, y2, confidence: 1 });
      });
      // The block reader lays lines out in the upright frame as found: no deskewing, no gutters or rules.
      const positioned: OcrPositionedPage = {
        width: f.upright.width,
        height: f.upright.height,
        lines: cleanLatinPage(fragments).map((l) => ({ text: l.text, box: [l.x1, l.y1, l.x2, l.y2], confidence: l.confidence })),
        rules: { horizontal: [], vertical: [] },
        gutters: [],
        frame: { rotation: f.rotation, skew: 0, imageWidth: f.given.width, imageHeight: f.given.height },
      };
      return {
        ids: mine.flatMap((d) => d.ids),
        text: '',
        positioned,
        stats: { ...sumStats(mine, decodeOptions.draftK ?? model.config.draft.k) },
        // Per-view times are per batch, so their sum counts shared batches more than once; `ms`
        // is the page's own wall time with the decoding shared out by views.
        extra: {
          lines: f.lines.length,
          views: f.views,
          rotation: f.rotation,
          detMs: f.detMs,
          ms: f.detMs + (all.length === 0 ? 0 : (decodeMs * f.views) / all.length) + performance.now() - t0,
        },
      };
    });
    return { results, retries };
  }

  return {
    read,
    async release(): Promise<void> {
      await Promise.all([det.release(), cls.release()]);
    },
  };
}

/** A page's figures from its views': counts and times add up, τ and acceptance are per step. */
function sumStats(views: readonly PageDecode[], draftK: number): PageDecode['stats'] {
  const steps = views.reduce((n, v) => n + v.stats.steps, 0);
  const sum = (f: (s: PageDecode['stats']) => number): number => views.reduce((n, v) => n + f(v.stats), 0);
  const k = views[0]?.stats.acceptance.length ?? draftK;
  return {
    tokens: sum((s) => s.tokens),
    steps,
    graphs: views[0]?.stats.graphs ?? 'contract',
    tau: steps === 0 ? 0 : sum((s) => s.tau * s.steps) / steps,
    draftK: views[0]?.stats.draftK ?? draftK,
    acceptance: Array.from({ length: k }, (_, j) => (steps === 0 ? 0 : sum((s) => (s.acceptance[j] ?? 0) * s.steps) / steps)),
    minMargin: views.length === 0 ? 0 : Math.min(...views.map((v) => v.stats.minMargin)),
    prefillMs: sum((s) => s.prefillMs),
    draftMs: sum((s) => s.draftMs),
    verifyMs: sum((s) => s.verifyMs),
    visionMs: sum((s) => s.visionMs),
    stop: views.find((v) => v.stats.stop !== 'eos')?.stats.stop ?? 'eos',
  };
}
