/** The state of one page while it decodes, shared by the loop (`generate.ts`) and the draft step (`draft.ts`). */
import type { StopCondition } from './stop.ts';

export interface Sequence {
  /** Position of the page in the caller's list. */
  readonly index: number;
  readonly stop: StopCondition;
  /** The last committed token: not yet in the decoder cache. */
  last: number;
  /** Position of `last`. */
  pos: number;
  /** Pairs (next token, decoder hidden state) the draft block has not read yet; the last one sits at `pos − 1`. */
  pendingTokens: number[];
  pendingHidden: Float32Array;
  /** Proposals made ahead of the next step (the step graphs draft while reading the prompt). */
  nextDrafts?: number[];
  steps: number;
  /** accepted[j]: steps whose draft j+1 was accepted. */
  accepted: number[];
  minMargin: number;
  committedInSteps: number;
  prefillMs: number;
  draftMs: number;
  verifyMs: number;
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}

export function ones(n: number): Uint8Array {
  return new Uint8Array(n).fill(1);
}
