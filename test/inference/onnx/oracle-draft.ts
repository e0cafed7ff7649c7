/**
 * A draft head that knows the answer: it proposes the reference greedy ids, except at positions
 * where `wrongAt(p)` holds. With the real decoder behind it, acceptance can be set anywhere from
 * 0 to 100 % while the verification stays real — the random tiny model's own draft head never
 * gets a token right, so it alone would leave the accept-and-rollback paths untested.
 */
import { replaceStepDrafts } from '../../../bench/decode/steer.ts';
import type { SessionLike } from '../../../inference/onnx/forward.ts';
import { tensor } from '../../../inference/runtime/ort.ts';

export interface OracleOptions {
  /** Reference greedy ids per batch row (rows stay put when every page runs to the same budget). */
  readonly answers: readonly (readonly number[])[];
  /** Prompt length (position of the first generated token). */
  readonly promptLength: number;
  readonly vocab: number;
  readonly hidden: number;
  readonly kvHeads: number;
  readonly headDim: number;
  readonly wrongAt: (position: number) => boolean;
}

export function oracleDraft(options: Readonly<OracleOptions>): SessionLike {
  const { answers, promptLength, vocab: V, hidden: H, kvHeads, headDim, wrongAt } = options;
  return {
    path: 'oracle/mtp.onnx',
    inputNames: ['inputs_embeds', 'previous_hidden', 'attention_mask', 'position_ids', 'past_key_values.mtp.key', 'past_key_values.mtp.value'],
    outputNames: ['logits', 'hidden_states', 'present.mtp.key', 'present.mtp.value'],
    async run(feeds) {
      const [B, S] = feeds.inputs_embeds!.dims as [number, number, number];
      const P = feeds['past_key_values.mtp.key']!.dims[2]!;
      const positions = Array.from(feeds.position_ids!.data as BigInt64Array, Number);
      const logits = new Float32Array(B * S * V);
      for (let b = 0; b < B; b++) {
        for (let s = 0; s < S; s++) {
          // The pair at position p predicts the token at p + 2.
          const p = positions[b * S + s]!;
          const right = answers[b]?.[p + 2 - promptLength] ?? 0;
          logits[(b * S + s) * V + (wrongAt(p) ? (right + 1) % V : right)] = 1;
        }
      }
      const present = () => tensor('float32', new Float32Array(B * kvHeads * (P + S) * headDim), [B, kvHeads, P + S, headDim]);
      return {
        logits: tensor('float32', logits, [B, S, V]),
        hidden_states: tensor('float32', new Float32Array(B * S * H), [B, S, H]),
        'present.mtp.key': present(),
        'present.mtp.value': present(),
      };
    },
  };
}

/**
 * The same oracle for `mtp_step.onnx` (the step graphs' draft): it runs the real draft call (so the
 * draft cache is written as usual), then proposes the reference ids: draft j of a sequence is the
 * token at p1 + 2 + j, p1 being the position of its last real row, wrong where `wrongAt(p1 + j)`.
 */
export function oracleStepDraft(draft: SessionLike, options: Readonly<Omit<OracleOptions, 'hidden' | 'kvHeads' | 'headDim'>>): SessionLike {
  const { answers, promptLength, vocab: V, wrongAt } = options;
  return {
    path: 'oracle/mtp_step.onnx',
    inputNames: draft.inputNames,
    outputNames: draft.outputNames,
    async run(feeds, fetches) {
      const out = await draft.run(feeds, fetches);
      const pick = (b: number, p: number) => {
        const right = answers[b]?.[p + 2 - promptLength] ?? 0;
        return wrongAt(p) ? (right + 1) % V : right;
      };
      return { ...out, draft_ids: replaceStepDrafts(feeds, out, pick) };
    },
  };
}
