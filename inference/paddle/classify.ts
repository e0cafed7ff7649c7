/**
 * The mobile direction classifier: for each line, is it upright or upside down? Lines are
 * scaled to 48 px high and padded to 192 px, as the model was trained.
 */
import type { OnnxSession } from '../runtime/ort.ts';
import { tensor } from '../runtime/ort.ts';
import { cropInto, scaledWidth } from './crop.ts';
import type { RotatedBox } from './geometry.ts';
import { upsideDownShare } from './orientation.ts';
import type { Rgb } from './raster.ts';

const H = 48;
const W = 192;
const BATCH = 32;
/** Most lines asked when a sample leaves the vote unclear. */
const MAX_VOTERS = 64;

/** Most pieces a long line is read in. */
const MAX_PIECES = 3;

/**
 * Probability that each line is upside down (180°), in input order. A line longer than the
 * classifier's 4:1 input is not squeezed into it (a squeezed line of a noisy scan reads as
 * either way up about as often): up to three pieces of the line at its natural aspect, from its
 * start, middle and end, are classified and their probabilities averaged.
 */
export async function classifyLines(session: OnnxSession, image: Rgb, boxes: readonly RotatedBox[], batchSize: number = BATCH): Promise<number[]> {
  const pieces: { box: RotatedBox; line: number }[] = [];
  boxes.forEach((box, line) => {
    for (const piece of piecesOf(box)) pieces.push({ box: piece, line });
  });
  const sums = new Array<number>(boxes.length).fill(0);
  const counts = new Array<number>(boxes.length).fill(0);
  for (let start = 0; start < pieces.length; start += batchSize) {
    const batch = pieces.slice(start, start + batchSize);
    const data = new Float32Array(batch.length * 3 * H * W);
    batch.forEach(({ box }, i) => cropInto(data, i * 3 * H * W, W, H, Math.min(W, scaledWidth(box, H)), image, box, false));
    const outputs = await session.run({ x: tensor('float32', data, [batch.length, 3, H, W]) });
    const probs = Object.values(outputs)[0]!.data as Float32Array;
    batch.forEach(({ line }, i) => {
      sums[line] = sums[line]! + probs[i * 2 + 1]!;
      counts[line] = counts[line]! + 1;
    });
  }
  return sums.map((s, i) => s / Math.max(1, counts[i]!));
}

/** A line cut into pieces that fit the classifier's input unsqueezed (the line itself when it fits). */
function piecesOf(box: RotatedBox): RotatedBox[] {
  const fit = (W / H) * box.h;
  if (box.w <= fit * 1.25) return [box];
  const count = Math.min(MAX_PIECES, Math.floor(box.w / fit));
  const c = Math.cos(box.angle);
  const s = Math.sin(box.angle);
  const span = box.w - fit;
  return Array.from({ length: count }, (_, k) => {
    const offset = (count === 1 ? 0 : (span * k) / (count - 1)) - span / 2;
    return { cx: box.cx + offset * c, cy: box.cy + offset * s, w: fit, h: box.h, angle: box.angle };
  });
}

/**
 * The classifier's verdict for a page's vote on whether it is upside down, asking as few lines
 * as settle it. The `sample` longest lines go first (long lines are what the classifier reads
 * best, and what the vote weighs most); when at most a quarter or at least three quarters of
 * them read upside down the page's answer is clear and the rest are not asked; otherwise the
 * 64 longest are. Lines not asked come back as NaN. On a dense page this is a fraction of the
 * cost of classifying every line, which used to take as long as detection.
 *
 * @example
 * const p180 = await voteUpsideDown(cls, image, boxes, 16);
 */
export async function voteUpsideDown(session: OnnxSession, image: Rgb, boxes: readonly RotatedBox[], sample: number): Promise<number[]> {
  if (sample <= 0 || boxes.length <= sample) return classifyLines(session, image, boxes);
  const order = boxes.map((_, i) => i).sort((a, b) => boxes[b]!.w - boxes[a]!.w);
  const first = order.slice(0, sample);
  const asked = await classifyLines(
    session,
    image,
    first.map((i) => boxes[i]!),
  );
  const share = upsideDownShare(
    first.map((i) => boxes[i]!),
    asked,
  );
  if (share <= 0.25 || share >= 0.75) return spread(boxes.length, first, asked);
  // Unclear: ask more lines, but not every cell of a 400-cell table (a 64-line vote is as
  // good as a 400-line one, and costs a sixth).
  const more = order.slice(sample, Math.max(sample, MAX_VOTERS));
  return spread(
    boxes.length,
    [...first, ...more],
    [
      ...asked,
      ...(await classifyLines(
        session,
        image,
        more.map((i) => boxes[i]!),
      )),
    ],
  );
}

/** Answers for the `asked` lines at their places, NaN elsewhere. */
function spread(count: number, asked: readonly number[], p180: readonly number[]): number[] {
  const out = new Array<number>(count).fill(Number.NaN);
  asked.forEach((i, k) => {
    out[i] = p180[k]!;
  });
  return out;
}
