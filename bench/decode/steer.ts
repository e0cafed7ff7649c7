/**
 * A draft head with the real one's cost and a chosen acceptance: it runs the draft graph as usual,
 * then replaces its proposal with the page's greedy token, except at a share `1 − rate` of positions
 * (fixed by a hash of the position, so every run and every K sees the same pattern).
 *
 * Why: it answers "what would speculative decoding buy with a better draft head?" on the same
 * passes (draft and verify, same shapes, same count); verification stays real, so `lossless` is
 * still measured. Rows with it are a what-if, labelled as such. The pair at position p proposes
 * the token at p + 2 in both graph sets, so both see the same pattern.
 */
import type { SessionLike } from '../../inference/onnx/forward.ts';
import type { Tensor } from '../../inference/runtime/ort.ts';
import { tensor } from '../../inference/runtime/ort.ts';

export interface SteerOptions {
  /** `mtp.onnx` (contract graphs) or `mtp_step.onnx` (step graphs). */
  readonly draft: SessionLike;
  /** Greedy ids of the page being decoded (batch 1: the page changes between calls of `generate`). */
  readonly answer: () => readonly number[];
  /** Position of the page's first generated token. */
  readonly promptLength: number;
  readonly vocab: number;
  /** Share of draft proposals that are right, 0..1. */
  readonly rate: number;
}

/** The proposal for the pair at position `p`: the right token or, at a fixed share of positions, another. */
function proposal(options: Readonly<SteerOptions>, p: number): number {
  const right = options.answer()[p + 2 - options.promptLength] ?? 0;
  return hash(p) < options.rate ? right : (right + 1) % options.vocab;
}

/**
 * Steer `mtp.onnx` (one row per pair; the loop takes the argmax of its logits).
 *
 * @example
 * const forward = model.forward.withDraft(steeredDraft({ draft: model.forward.mtp!, answer: () => ids, promptLength: 281, vocab: 2048, rate: 0.8 }));
 */
export function steeredDraft(options: Readonly<SteerOptions>): SessionLike {
  const V = options.vocab;
  return steered(options, (feeds) => {
    const [B, S] = feeds.inputs_embeds!.dims as [number, number, number];
    const positions = Array.from(feeds.position_ids!.data as BigInt64Array, Number);
    const logits = new Float32Array(B * S * V);
    for (let i = 0; i < B * S; i++) logits[i * V + proposal(options, positions[i]!)] = 1;
    return { logits: tensor('float32', logits, [B, S, V]) };
  });
}

/**
 * Steer `mtp_step.onnx`: draft j (from 0) of a sequence comes from the pair at p1 + j, p1 being the
 * position of its last real row.
 *
 * @example
 * const steps = model.steps!.withDraft(steeredStepDraft({ draft: model.steps!.draft!, answer: () => ids, promptLength: 281, vocab: 2048, rate: 0.8 }));
 */
export function steeredStepDraft(options: Readonly<SteerOptions>): SessionLike {
  return steered(options, (feeds, out) => ({ draft_ids: replaceStepDrafts(feeds, out, (_, p) => proposal(options, p)) }));
}

/**
 * New `draft_ids` for a `mtp_step.onnx` run: draft j of sequence b becomes `pick(b, p1 + j)`, p1
 * being the position of b's last real row (the pair whose output proposes the first draft).
 */
export function replaceStepDrafts(
  feeds: Readonly<Record<string, Tensor>>,
  out: Readonly<Record<string, Tensor>>,
  pick: (b: number, p: number) => number,
): Tensor {
  const [B, K] = out.draft_ids!.dims as [number, number];
  const S = feeds.position_ids!.dims[1]!;
  const positions = feeds.position_ids!.data as BigInt64Array;
  const last = feeds.last_row!.data as BigInt64Array;
  const ids = new BigInt64Array(B * K);
  for (let b = 0; b < B; b++) {
    const p1 = Number(positions[b * S + Number(last[b])]);
    for (let j = 0; j < K; j++) ids[b * K + j] = BigInt(pick(b, p1 + j));
  }
  return tensor('int64', ids, [B, K]);
}

/** The draft session, run as usual (its cost is real), with the outputs `replace` returns swapped in. */
function steered(
  options: Readonly<SteerOptions>,
  replace: (feeds: Readonly<Record<string, Tensor>>, out: Readonly<Record<string, Tensor>>) => Record<string, Tensor>,
): SessionLike {
  const { draft } = options;
  return {
    path: `${draft.path} (steered to ${options.rate})`,
    inputNames: draft.inputNames,
    outputNames: draft.outputNames,
    async run(feeds, fetches) {
      const out = await draft.run(feeds, fetches);
      return { ...out, ...replace(feeds, out) };
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
