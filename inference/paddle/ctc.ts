/**
 * Greedy CTC decoding: the best class per time step, repeats merged, blanks (class 0) dropped.
 * Each kept character remembers the step it was read at, so later steps can place it on the
 * line image (word spaces the model missed are found from those positions).
 */

/** One character read from a CTC sequence. */
export interface CtcChar {
  /** Class index (1 and up; 0 is the blank). */
  readonly id: number;
  /** Time step of its first frame. */
  readonly step: number;
  /** Its probability at that step. */
  readonly p: number;
}

/**
 * The greedy path of one sequence of `steps × classes` probabilities (a softmax per step)
 * starting at `offset`.
 *
 * @example
 * const chars = ctcPath(probs, k * steps * classes, steps, classes);
 */
export function ctcPath(probs: Float32Array, offset: number, steps: number, classes: number): CtcChar[] {
  const chars: CtcChar[] = [];
  let previous = -1;
  for (let t = 0; t < steps; t++) {
    const base = offset + t * classes;
    let best = 0;
    let bestP = probs[base]!;
    // The model ends in a softmax, so a class above one half is the maximum: most steps are
    // blanks that clear it at once, and the scan over thousands of classes (6,625 in PP-OCRv4,
    // 18,710 in PP-OCRv6) can stop early.
    if (bestP <= 0.5) {
      for (let k = 1; k < classes; k++) {
        const p = probs[base + k]!;
        if (p > bestP) {
          bestP = p;
          best = k;
          if (p > 0.5) break;
        }
      }
    }
    if (best !== 0 && best !== previous) chars.push({ id: best, step: t, p: bestP });
    previous = best;
  }
  return chars;
}

/** Mean probability of the characters, 0 when there are none. */
export function meanConfidence(chars: readonly CtcChar[]): number {
  return chars.length > 0 ? chars.reduce((s, c) => s + c.p, 0) / chars.length : 0;
}
