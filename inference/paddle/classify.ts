/**
 * The mobile direction classifier: for each line, is it upright or upside down? Lines are
 * scaled to 48 px high and padded to 192 px, as the model was trained.
 */
import type { OnnxSession } from '../runtime/ort.ts';
import { tensor } from '../runtime/ort.ts';
import { cropInto, scaledWidth } from './crop.ts';
import type { RotatedBox } from './geometry.ts';
import type { Rgb } from './raster.ts';

const H = 48;
const W = 192;

/** Probability that each line is upside down (180°), in input order. */
export async function classifyLines(session: OnnxSession, image: Rgb, boxes: readonly RotatedBox[], batchSize: number): Promise<number[]> {
  const result: number[] = [];
  for (let start = 0; start < boxes.length; start += batchSize) {
    const batch = boxes.slice(start, start + batchSize);
    const data = new Float32Array(batch.length * 3 * H * W);
    batch.forEach((box, i) => cropInto(data, i * 3 * H * W, W, H, Math.min(W, scaledWidth(box, H)), image, box, false));
    const outputs = await session.run({ x: tensor('float32', data, [batch.length, 3, H, W]) });
    const probs = Object.values(outputs)[0]!.data as Float32Array;
    for (let i = 0; i < batch.length; i++) result.push(probs[i * 2 + 1]!);
  }
  return result;
}
