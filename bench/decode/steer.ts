/**
 * A draft head with the real one's cost and a chosen acceptance: it runs `mtp.onnx` as usual, then
 * replaces its proposal with the reference greedy token, except at a share `1 − rate` of positions
 * (fixed by a hash of the position, so every run and every K sees the same pattern).
 *
 * Why: the tiny random model's own draft head is never right (τ = 1), which says nothing about what
 * speculative decoding buys. Steering keeps every pass the engine runs (draft and verify, same
 * shapes, same count) and sets acceptance to what a trained head achieves, e.g. the paper's.
 * Results with it are labelled as such; verification stays real, so `lossless` is still measured.
 */
import type { SessionLike } from '../../inference/onnx/forward.ts';
import { tensor } from '../../inference/runtime/ort.ts';

export interface SteerOptions {
  readonly draft: SessionLike;
  /** Reference greedy ids per batch row. */
  readonly answers: readonly (readonly number[])[];
  /** Prompt length of each batch row (position of its first generated token). */
  readonly promptLengths: readonly number[];
  readonly vocab: number;
  /** Share of draft proposals that are right, 0..1. */
  readonly rate: number;
}

/**
 * @example
 * const forward = model.forward.withDraft(steeredDraft({ draft: model.forward.mtp!, answers, promptLengths, vocab: 512, rate: 0.8 }));
 */
export function steeredDraft(options: Readonly<SteerOptions>): SessionLike {
  const { draft, answers, promptLengths, vocab: V, rate } = options;
  return {
    path: `${draft.path} (steered to ${rate})`,
    inputNames: draft.inputNames,
    outputNames: draft.outputNames,
    async run(feeds) {
      const out = await draft.run(feeds);
      const [B, S] = feeds.inputs_embeds!.dims as [number, number, number];
      const positions = Array.from(feeds.position_ids!.data as BigInt64Array, Number);
      const logits = new Float32Array(B * S * V);
      for (let b = 0; b < B; b++) {
        for (let s = 0; s < S; s++) {
          const p = positions[b * S + s]!;
          // The pair at position p proposes the token at p + 2.
          const right = answers[b]?.[p + 2 - promptLengths[b]!] ?? 0;
          logits[(b * S + s) * V + (hash(p) < rate ? right : (right + 1) % V)] = 1;
        }
      }
      return { ...out, logits: tensor('float32', logits, [B, S, V]) };
    },
  };
}

/** A fixed pseudo-random number in [0, 1) per position. */
function hash(p: number): number {
  let x = (p + 1) * 2654435761;
  x = (x ^ (x >>> 16)) >>> 0;
  x = Math.imul(x, 2246822507) >>> 0;
  return ((x ^ (x >>> 13)) >>> 0) / 4294967296;
}
