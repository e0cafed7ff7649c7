/**
 * Pictures inside Word, PowerPoint and OpenDocument files, read under `auto` (or a named OCR
 * engine) by the image-region reader the PDF route uses (`pipeline/regions`): the picture is a
 * page of one image region. A picture of text (a scanned paragraph, a banner) becomes the blocks
 * read from it; a chart or a photo with a few words stays a figure, its words added to its text;
 * a picture without words stays the figure it was. Only pictures big enough to hold a line of
 * text are read, each bounded in pixels and in time, at most {@link MAX_PICTURES} per document;
 * under `text` none is read and figures keep their alt text.
 */
import { describeError } from '../../core/errors.ts';
import type { SourceDocument } from '../../core/types.ts';
import type { OcrEngine } from '../../inference/engine.ts';
import type { Block, FormatPage } from '../formats/index.ts';
import { readRegions } from '../regions/index.ts';
import { imageSize, loadImagePages } from '../render/index.ts';
import type { ProcessOptions } from './options.ts';

/** Shorter side, in pixels, below which a picture holds no line of text worth reading (icons, bullets, rules). */
export const MIN_PICTURE_SIDE = 24;
/** Pixels below which a picture is an icon, not a picture of text. */
export const MIN_PICTURE_PIXELS = 12_000;
/** Most pixels a picture may declare to be read (a decompression bomb is refused from its header). */
export const MAX_PICTURE_PIXELS = 40_000_000;
/** Pictures read per document; the others stay figures. */
export const MAX_PICTURES = 64;
/** Time for one picture (decoding and OCR); past it the picture stays a figure. */
export const PICTURE_TIMEOUT_MS = 30_000;

/** What happened to a document's pictures: counts for the page route details. */
export interface PictureCounts {
  /** Read as text, the figure replaced by the blocks read. */
  read: number;
  /** A figure with words on it (a chart): the words added to the figure's text. */
  labelled: number;
  /** Too small to hold text, unreadable (EMF, WMF) or missing from the package. */
  skipped: number;
  /** Refused: too large, past the time limit or the count, or the engine failed. */
  refused: number;
  /** Why the first refusals happened. */
  reasons: string[];
}

export function pictureCounts(): PictureCounts {
  return { read: 0, labelled: 0, skipped: 0, refused: 0, reasons: [] };
}

/**
 * `page` with its pictures read; the page itself when it has none to read.
 *
 * @example
 * const counts = pictureCounts();
 * const read = await readPictures(doc, page, media, ocr, counts, new Map(), options);
 */
export async function readPictures(
  doc: SourceDocument,
  page: FormatPage,
  media: (src: string) => Uint8Array | undefined,
  ocr: () => Promise<OcrEngine>,
  counts: PictureCounts,
  options: Readonly<ProcessOptions>,
): Promise<FormatPage> {
  if (!page.blocks.some((block) => block.kind === 'figure' && block.src !== undefined)) return page;
  const blocks: Block[] = [];
  for (const block of page.blocks) {
    if (block.kind !== 'figure' || block.src === undefined) {
      blocks.push(block);
      continue;
    }
    blocks.push(...(await readPicture(doc, block, media, ocr, counts, options)));
  }
  return { ...page, blocks };
}

async function readPicture(
  doc: SourceDocument,
  figure: Extract<Block, { kind: 'figure' }>,
  media: (src: string) => Uint8Array | undefined,
  ocr: () => Promise<OcrEngine>,
  counts: PictureCounts,
  options: Readonly<ProcessOptions>,
): Promise<Block[]> {
  const refuse = (reason: string): Block[] => {
    counts.refused++;
    if (counts.reasons.length < 4) counts.reasons.push(`${figure.src}: ${reason}`);
    return [figure];
  };
  const bytes = media(figure.src ?? '');
  const size = bytes === undefined ? undefined : await imageSize(bytes);
  if (bytes === undefined || size === undefined || Math.min(size.width, size.height) < MIN_PICTURE_SIDE || size.width * size.height < MIN_PICTURE_PIXELS) {
    counts.skipped++;
    return [figure];
  }
  const maxPixels = Math.min(options.maxPixels ?? MAX_PICTURE_PIXELS, MAX_PICTURE_PIXELS);
  if (size.width * size.height > maxPixels) return refuse(`${size.width}×${size.height} px, more than ${maxPixels}`);
  if (counts.read + counts.labelled + counts.refused >= MAX_PICTURES) return refuse(`past the ${MAX_PICTURES} pictures read per document`);
  const timeout = AbortSignal.timeout(PICTURE_TIMEOUT_MS);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  let result: Awaited<ReturnType<typeof readRegions>>;
  try {
    result = await bounded(
      (async () => {
        const [image] = await loadImagePages(bytes, { source: `${doc.uri}#${figure.src}`, docId: doc.id, maxPixels });
        if (image === undefined) throw new Error('no image in the picture');
        return readRegions(
          {
            markdown: '',
            width: image.width,
            height: image.height,
            regions: [{ kind: 'image', box: [0, 0, image.width, image.height], overlaid: figure.alt }],
          },
          // The picture is the whole "page": every region's rectangle is the picture itself.
          { ocr, signal, render: async (_, boxes) => boxes.map(() => ({ ...image, box: [0, 0, image.width, image.height] as const })) },
        );
      })(),
      signal,
    );
  } catch (error) {
    options.signal?.throwIfAborted();
    return refuse(timeout.aborted ? `not read within ${PICTURE_TIMEOUT_MS} ms` : describeError(error));
  }
  if (typeof result.details['regionsRefused'] === 'string') return refuse(result.details['regionsRefused']);
  const labelled = result.read.find((block) => block.figureText !== undefined);
  if (labelled !== undefined) {
    counts.labelled++;
    return [{ ...figure, alt: [figure.alt.trim(), labelled.figureText].filter((text) => text !== '').join(': ') }];
  }
  // The blocks read, as Markdown under their grounding lines (boxes on the picture, meaningless in the file's flow).
  const read = result.read.map((block) => block.markdown.slice(block.markdown.indexOf('\n') + 1).trim()).filter((markdown) => markdown !== '');
  if (read.length === 0) {
    counts.skipped++;
    return [figure];
  }
  counts.read++;
  return read.map((markdown) => ({ kind: 'paragraph', spans: [{ text: markdown, raw: true }] }));
}

/** `work`, or a rejection once `signal` aborts: an engine deaf to the signal cannot hold the document. */
function bounded<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  // The work may still settle after the abort: its result, or its error, is dropped.
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
