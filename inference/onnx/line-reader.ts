/**
 * Detected text lines read by a folio-ocr line model (folio-ocr-lines): each line becomes the views
 * the model was trained on (`lineViews`: ink 26 px in a 36 px slot, pieces of a long line stacked),
 * all views of a call are decoded in batches (greedy or lossless speculative, the same ids either
 * way), and every reading passes the guards below before it is trusted.
 *
 * Why guards: a decoder reads what it expects as readily as what it sees. A crop of noise or a
 * photo, a box one pixel high, a line thousands of pixels long or upside down must come back as a
 * refusal (empty text and a reason) within a bounded number of tokens, so the caller can fall back
 * to the other recogniser or drop the line, never as fluent invention or an endless loop.
 */
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../../core/errors.ts';
import type { RotatedBox } from '../paddle/geometry.ts';
import type { Rgb } from '../paddle/raster.ts';
import type { TightenOptions } from '../paddle/tighten.ts';
import { tightenBox } from '../paddle/tighten.ts';
import type { Device } from '../runtime/ort.ts';
import { inBatches } from './batches.ts';
import type { PageDecode } from './decode.ts';
import { decode } from './decode.ts';
import type { LineViewOptions } from './line-views.ts';
import { lineViews } from './line-views.ts';
import type { OcrModel } from './load.ts';
import { loadModel } from './load.ts';
import type { RepetitionGuardOptions } from './stop.ts';

/** The committed line model. */
export const LINE_MODEL_DIR = fileURLToPath(new URL('../models/folio-ocr-lines/', import.meta.url));

/** Slot height of a piece in a view (line-views.ts), and the widest piece. */
const SLOT = 36;
const PIECE = 496;

export interface LineReaderOptions {
  /** The line model's folder. @default LINE_MODEL_DIR (inference/models/folio-ocr-lines) */
  readonly modelDir?: string;
  /** Execution provider. @default 'cpu' */
  readonly device?: Device;
  /** CPU threads per session; 0 lets onnxruntime decide. @default 0 */
  readonly threads?: number;
  /** Views decoded together. @default 32 */
  readonly batchSize?: number;
  /** Draft tokens per step, 0 for plain greedy. @default the model's `draft_head.K` */
  readonly draftK?: number;
  /** Tokens per view, the stop token included. @default the model's `generation.max_new_tokens` */
  readonly maxTokens?: number;
  /** A line needing more views than this is refused (`too-long`) before anything is cut. @default 4 */
  readonly maxViewsPerLine?: number;
  /** A line box lower than this (page pixels) is refused (`too-small`). @default 6 */
  readonly minLineHeight?: number;
  /** Most characters written for one piece of a line (a piece is at most 496 px at 26 px ink). @default 90 */
  readonly maxCharsPerPiece?: number;
  /**
   * A reading whose smallest top-1/top-2 logit gap falls below this is refused (`low-margin`): the
   * model hesitated between two tokens somewhere, as it does on text upside down or in a script it
   * never saw. 0 turns the guard off. @default 0.1
   */
  readonly minMargin?: number;
  /** The loop guard, tighter than a page's: a line has no table rows to repeat. @default { maxPeriod: 12, minRepeats: 6, minSpan: 24 } */
  readonly repetition?: Readonly<RepetitionGuardOptions>;
  /** How lines become views. @default {} */
  readonly views?: Readonly<LineViewOptions>;
  /**
   * Fit each box to its line's ink first (paddle's `tightenBox`), `false` to cut boxes as given.
   * The model never saw a neighbouring line's ascenders in training; a box with a margin holds them,
   * and the views' own ink fit then takes them for part of the line. @default { margin: 0.15, sideMargin: 0.25 }
   */
  readonly tighten?: Readonly<TightenOptions> | false;
}

/** Why a reading was refused. */
export type LineGuard = 'too-small' | 'too-long' | 'max-tokens' | 'repetition' | 'too-many-chars' | 'too-many-rows' | 'low-margin';

export interface LineReading {
  /** The line's text (pieces joined by a space); empty when refused or when the model saw no text. */
  readonly text: string;
  /** Set when the reading was refused. */
  readonly guard?: LineGuard;
  /** Views the line was read in. */
  readonly views: number;
  /** Tokens generated for the line (all views). */
  readonly tokens: number;
  /** The generated ids, views in order (greedy and speculative decoding give the same). */
  readonly ids: readonly number[];
  /** Verification steps (all views), for τ. */
  readonly steps: number;
  /** Smallest top-1/top-2 logit gap over the line's tokens (∞ when none). */
  readonly minMargin: number;
}

export interface LineToRead {
  readonly box: RotatedBox;
  /** Read the line upside down. */
  readonly flip: boolean;
}

export interface LineReader {
  readonly model: OcrModel;
  /** Read lines of an upright page; results in input order. */
  read(image: Rgb, lines: readonly LineToRead[], signal?: AbortSignal): Promise<LineReading[]>;
  release(): Promise<void>;
}

/**
 * Load the line model once; `read` as often as needed, then `release`.
 *
 * @example
 * const reader = await createLineReader({ threads: 2 });
 * try { const [line] = await reader.read(upright, [{ box, flip: false }]); } finally { await reader.release(); }
 */
export async function createLineReader(options: Readonly<LineReaderOptions> = {}): Promise<LineReader> {
  const {
    modelDir = LINE_MODEL_DIR,
    device = 'cpu',
    threads = 0,
    batchSize = 32,
    draftK,
    maxTokens,
    maxViewsPerLine = 4,
    minLineHeight = 6,
    maxCharsPerPiece = 90,
    minMargin = 0.1,
    repetition = { maxPeriod: 12, minRepeats: 6, minSpan: 24 },
    views = {},
    tighten = { margin: 0.15, sideMargin: 0.25 },
  } = options;
  for (const [name, value, min] of [
    ['batchSize', batchSize, 1],
    ['maxViewsPerLine', maxViewsPerLine, 1],
    ['maxCharsPerPiece', maxCharsPerPiece, 1],
  ] as const) {
    if (!Number.isInteger(value) || value < min) {
      throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`${name}\` to be an integer from ${min} and up, got \`${String(value)}\` (${typeof value})`);
    }
  }
  if (typeof minLineHeight !== 'number' || !(minLineHeight >= 1)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`minLineHeight\` to be a number from 1 and up, got \`${String(minLineHeight)}\``);
  }
  const model = await loadModel({ modelDir, device, threads, withoutDraftHead: draftK === 0 });
  const viewSize = model.config.image.globalView;
  const perView = Math.max(1, Math.floor(viewSize.height / (views.lineHeight ?? SLOT)));

  async function read(image: Rgb, lines: readonly LineToRead[], signal?: AbortSignal): Promise<LineReading[]> {
    const refused: (LineGuard | undefined)[] = lines.map(({ box }) => {
      if (!(box.h >= minLineHeight && box.w >= 1)) return 'too-small';
      // Pieces at the slot height, before the ink fit (which only ever shrinks a DB box's margin away).
      const pieces = Math.ceil((SLOT * box.w) / box.h / PIECE);
      return pieces > maxViewsPerLine * perView * 2 ? 'too-long' : undefined;
    });
    const wanted = lines.flatMap((line, i) => (refused[i] === undefined ? [{ line, i }] : []));
    const cut = lineViews(
      image,
      wanted.map((w) => (tighten === false ? w.line : { ...w.line, box: tightenBox(image, w.line.box, tighten) })),
      viewSize,
      { docId: '', source: 'line', pageNumber: 0 },
      views,
    );
    const viewsOf = new Array<number>(lines.length).fill(0);
    for (const v of cut) viewsOf[wanted[v.line]!.i]!++;
    // The ink fit can leave more pieces than the box promised; count again on the real cut.
    wanted.forEach(({ i }) => {
      if (viewsOf[i]! > maxViewsPerLine) refused[i] = 'too-long';
    });
    const items = cut.filter((v) => refused[wanted[v.line]!.i] === undefined);
    const { results } = await inBatches({
      items,
      batchSize,
      run: (batch) =>
        decode(
          model,
          batch.map((v) => v.image),
          { draftK, maxTokens, repetition, signal },
        ),
    });
    const parts: PageDecode[][] = lines.map(() => []);
    items.forEach((v, k) => parts[wanted[v.line]!.i]!.push(results[k]!));
    return lines.map((_, i): LineReading => {
      const decoded = parts[i]!;
      const base = {
        views: decoded.length,
        tokens: decoded.reduce((n, d) => n + d.stats.tokens, 0),
        ids: decoded.flatMap((d) => d.ids),
        steps: decoded.reduce((n, d) => n + d.stats.steps, 0),
        minMargin: decoded.reduce((m, d) => Math.min(m, d.stats.minMargin), Number.POSITIVE_INFINITY),
      };
      const early = refused[i];
      if (early !== undefined) return { text: '', guard: early, ...base, views: 0 };
      const guard = guardOf(decoded, perView, maxCharsPerPiece) ?? (base.minMargin < minMargin ? 'low-margin' : undefined);
      if (guard !== undefined) return { text: '', guard, ...base };
      return { text: joinPieces(decoded.map((d) => d.text)), ...base };
    });
  }

  return {
    model,
    read,
    release: () => model.release(),
  };
}

/** The first guard a line's views trip, if any. */
function guardOf(decoded: readonly PageDecode[], perView: number, maxChars: number): LineGuard | undefined {
  for (const d of decoded) {
    if (d.stats.stop === 'max-tokens') return 'max-tokens';
    if (d.stats.stop === 'repetition') return 'repetition';
    const rows = d.text.split('\n');
    if (rows.length > perView) return 'too-many-rows';
    if (rows.some((r) => r.length > maxChars)) return 'too-many-chars';
  }
  return undefined;
}

/** Pieces of a line were read one per output row; the line is their text with single spaces. */
export function joinPieces(texts: readonly string[]): string {
  return texts
    .join('\n')
    .split('\n')
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .join(' ');
}

/** A line as the paddle engine reads it: its box and the direction classifier's 180° probability. */
export interface DetectedLine {
  readonly box: RotatedBox;
  readonly p180: number;
}

/**
 * Read detected lines with folio-ocr-lines and give the lines it refuses or finds empty to
 * `fallback` (the paddle engine's PP-OCRv4 reading), so a guard never loses a line another
 * recogniser can read. A line the classifier is sure is upside down (p > 0.98) is read turned.
 *
 * @example
 * const texts = await readWithFallback(reader, upright, lines, (some) => readLines(run, upright, some, dictionary));
 */
export async function readWithFallback<L extends DetectedLine>(
  reader: LineReader,
  image: Rgb,
  lines: readonly L[],
  fallback: (lines: readonly L[]) => Promise<{ text: string; confidence: number }[]>,
): Promise<{ text: string; confidence: number }[]> {
  const read = await reader.read(
    image,
    lines.map((l) => ({ box: l.box, flip: l.p180 > 0.98 })),
  );
  // A kept reading passed every guard; 1 keeps it past the engine's confidence filter.
  const out = read.map((r) => ({ text: r.text, confidence: 1 }));
  const again = read.flatMap((r, i) => (r.guard !== undefined || r.text === '' ? [i] : []));
  if (again.length > 0) {
    const other = await fallback(again.map((i) => lines[i]!));
    again.forEach((i, k) => {
      out[i] = other[k]!;
    });
  }
  return out;
}
