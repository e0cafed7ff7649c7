/**
 * What the decoding loop (`generate.ts`) asks of a model, per step, whichever graphs run it:
 * `ContractPasses` (decoder.onnx and mtp.onnx, the contract every folio-ocr model has, caches
 * concatenated and rolled back) or `StepPasses` (the optional decoder_step.onnx and mtp_step.onnx,
 * fixed-capacity caches with nothing to roll back, the whole draft in one call). The loop itself (pick,
 * stream, stop, leave the batch) is the same for both, so both decode the same ids.
 */
import type { PromptEmbeds } from './generate.ts';
import type { Sequence } from './sequence.ts';

export interface PrefillOutput {
  /** [vocab] logits after the last prompt row. */
  readonly logits: Float32Array;
  /** [length, hidden] decoder hidden states of the prompt. */
  readonly hidden: Float32Array;
}

export interface VerifyOutput {
  /** [B, logitRows, vocab]: row r of sequence b holds the logits after its input row r. */
  readonly logits: Float32Array;
  readonly logitRows: number;
  /** [B, hiddenRows, hidden] */
  readonly hidden: Float32Array;
  readonly hiddenRows: number;
}

export interface DecodePasses {
  /** Prefill the batch's pages (page i = `prompts[i]`); a page's output is the same alone or in a batch. */
  prefill(prompts: readonly PromptEmbeds[]): Promise<PrefillOutput[]>;
  /**
   * Let the draft head read the prompt. On entry `s.pendingTokens` is `[first token]` and
   * `s.pendingHidden` the prompt's last hidden state; `hidden` holds all of the prompt's.
   */
  primeDraft(s: Sequence, prompt: PromptEmbeds, hidden: Float32Array, K: number): Promise<void>;
  /** Prefills done: decode the pages at `indices` (in the order given) as one batch. */
  start(indices: readonly number[]): void | Promise<void>;
  /** K proposals per active sequence; the draft head reads the pairs pending since the last step. */
  draft(active: readonly Sequence[], K: number): Promise<number[][]>;
  /** One decoder pass over `[last, d1..dK]` per sequence, padded to `rows` rows (≥ K + 1). */
  verify(active: readonly Sequence[], drafts: readonly (readonly number[])[], rows: number): Promise<VerifyOutput>;
  /** Of the `rows` rows just verified, sequence b keeps its first `keep[b]`. */
  accept(keep: readonly number[], rows: number): void;
  /** Only the sequences at `rows` (ascending) go on. */
  select(rows: readonly number[]): void | Promise<void>;
  dispose(): void;
}
