/**
 * Line recognition with the PP-OCRv4 CTC model: lines are sorted by aspect ratio so each batch
 * pads little, scaled to 48 px high, and decoded greedily (best class per step, repeats merged,
 * blanks dropped).
 */
import type { OnnxSession } from '../runtime/ort.ts';
import { tensor } from '../runtime/ort.ts';
import { cropInto, scaledWidth } from './crop.ts';
import type { RotatedBox } from './geometry.ts';
import type { Rgb } from './raster.ts';

const H = 48;
/** The model's training width: narrower batches are padded to it. */
const MIN_W = 320;
/** Beyond this a line is so long the model's receptive field no longer helps; cap the cost. */
const MAX_W = 3200;

export interface RecognizedLine {
  readonly text: string;
  /** Mean probability of the kept characters. */
  readonly confidence: number;
}

export interface LineInput {
  readonly box: RotatedBox;
  readonly flip: boolean;
}

/** Recognise lines; results come back in input order. */
export async function recognizeLines(session: OnnxSession, image: Rgb, lines: readonly LineInput[], dictionary: readonly string[], batchSize: number): Promise<RecognizedLine[]> {
  const order = lines.map((_, i) => i).sort((a, b) => ratio(lines[a]!.box) - ratio(lines[b]!.box));
  const result: RecognizedLine[] = new Array(lines.length);
  for (let start = 0; start < order.length; start += batchSize) {
    const ids = order.slice(start, start + batchSize);
    const widths = ids.map((i) => Math.min(MAX_W, scaledWidth(lines[i]!.box, H)));
    const stride = Math.max(MIN_W, ...widths);
    const slot = 3 * H * stride;
    const data = new Float32Array(ids.length * slot);
    ids.forEach((id, k) => cropInto(data, k * slot, stride, H, widths[k]!, image, lines[id]!.box, lines[id]!.flip));
    const outputs = await session.run({ x: tensor('float32', data, [ids.length, 3, H, stride]) });
    const out = Object.values(outputs)[0]!;
    const [, steps = 0, classes = 0] = out.dims;
    const probs = out.data as Float32Array;
    ids.forEach((id, k) => { result[id] = ctcGreedy(probs, k * steps * classes, steps, classes, dictionary); });
  }
  return result;
}

function ratio(box: RotatedBox): number {
  return box.w / Math.max(1, box.h);
}

/** Greedy CTC decoding of one sequence of `steps × classes` probabilities starting at `offset`. */
export function ctcGreedy(probs: Float32Array, offset: number, steps: number, classes: number, dictionary: readonly string[]): RecognizedLine {
  let text = '';
  let sum = 0;
  let kept = 0;
  let previous = -1;
  for (let t = 0; t < steps; t++) {
    const base = offset + t * classes;
    let best = 0;
    let bestP = -Infinity;
    for (let k = 0; k < classes; k++) {
      const p = probs[base + k]!;
      if (p > bestP) { bestP = p; best = k; }
    }
    if (best !== 0 && best !== previous) {
      text += dictionary[best] ?? '';
      sum += bestP;
      kept++;
    }
    previous = best;
  }
  return { text, confidence: kept > 0 ? sum / kept : 0 };
}
