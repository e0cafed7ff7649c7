/**
 * A decoder, draft head and embedding table in plain TypeScript with the ONNX contract's inputs
 * and outputs, for testing the decoding loop exactly (integers, no rounding).
 *
 * The decoder's next token is `S mod V`, where S sums `token × (position + 1)` over every key the
 * row may attend to (mod 1009): a stale or missing cache slot changes the output. It also throws
 * unless the attended positions are exactly 0..pos, so a rollback or mask bug fails loudly.
 * The draft head knows the rule and is right except at positions where `wrongAt(p)` holds, so
 * acceptance varies along a page.
 */

import type { SessionLike } from '../../../inference/onnx/forward.ts';
import { Forward } from '../../../inference/onnx/forward.ts';
import type { CacheLayout, PromptEmbeds } from '../../../inference/onnx/generate.ts';
import type { Tensor } from '../../../inference/runtime/ort.ts';
import { tensor } from '../../../inference/runtime/ort.ts';

export const H = 4;
const D = 2;
const MOD = 1009;

export interface FakeModelOptions {
  readonly vocab: number;
  /** Positions where the draft proposes a wrong token. */
  readonly wrongAt: (position: number) => boolean;
}

export interface FakeModel {
  readonly forward: Forward;
  readonly layout: CacheLayout;
  /** Ids greedy decoding must give for `prompt`, computed directly. */
  expected(prompt: readonly number[], count: number): number[];
  prompt(ids: readonly number[]): PromptEmbeds;
  /** Decoder passes run so far. */
  readonly calls: { decoder: number; draft: number };
}

export function fakeModel(options: Readonly<FakeModelOptions>): FakeModel {
  const { vocab: V, wrongAt } = options;
  const calls = { decoder: 0, draft: 0 };
  const embed: SessionLike = {
    path: 'fake/embed_tokens.onnx',
    inputNames: ['input_ids'],
    outputNames: ['inputs_embeds'],
    async run(feeds) {
      const ids = Array.from(feeds.input_ids!.data as BigInt64Array, Number);
      const out = new Float32Array(ids.length * H);
      ids.forEach((id, i) => out.set([id, 1, 0, 0], i * H));
      return { inputs_embeds: tensor('float32', out, [1, ids.length, H]) };
    },
  };

  const decoder: SessionLike = {
    path: 'fake/decoder.onnx',
    inputNames: ['inputs_embeds', 'attention_mask', 'position_ids', 'past_key_values.0.key', 'past_key_values.0.value'],
    outputNames: ['logits', 'hidden_states', 'present.0.key', 'present.0.value'],
    async run(feeds) {
      calls.decoder++;
      const { B, S, P, keys, mask, pos, emb } = unpack(feeds, 'past_key_values.0.key');
      const logits = new Float32Array(B * S * V).fill(-1);
      const hidden = new Float32Array(B * S * H);
      for (let b = 0; b < B; b++) {
        for (let s = 0; s < S; s++) keys[b]!.push([emb[(b * S + s) * H]!, pos[b * S + s]!]);
        for (let s = 0; s < S; s++) {
          if (mask[b * (P + S) + P + s] === 0) continue; // padding row: output unused
          const attended = keys[b]!.filter((_, j) => mask[b * (P + S) + j] === 1 && j <= P + s);
          const positions = attended.map(([, p]) => p);
          const me = pos[b * S + s]!;
          if (positions.length !== me + 1 || positions.some((p, i) => p !== i))
            throw new Error(`decoder row at position ${me} attends to positions [${positions.join(',')}]`);
          const sum = attended.reduce((acc, [t, p]) => (acc + t * (p + 1)) % MOD, 0);
          logits[(b * S + s) * V + (sum % V)] = 10;
          hidden.set([sum, 0, 0, 0], (b * S + s) * H);
        }
      }
      const present = pack(keys, B, P + S);
      return {
        logits: tensor('float32', logits, [B, S, V]),
        hidden_states: tensor('float32', hidden, [B, S, H]),
        'present.0.key': present,
        'present.0.value': pack(keys, B, P + S),
      };
    },
  };

  const mtp: SessionLike = {
    path: 'fake/mtp.onnx',
    inputNames: ['inputs_embeds', 'previous_hidden', 'attention_mask', 'position_ids', 'past_key_values.mtp.key', 'past_key_values.mtp.value'],
    outputNames: ['logits', 'hidden_states', 'present.mtp.key', 'present.mtp.value'],
    async run(feeds) {
      calls.draft++;
      const { B, S, P, keys, mask, pos, emb } = unpack(feeds, 'past_key_values.mtp.key');
      const prev = feeds.previous_hidden!.data as Float32Array;
      const logits = new Float32Array(B * S * V).fill(-1);
      const hidden = new Float32Array(B * S * H);
      for (let b = 0; b < B; b++) {
        for (let s = 0; s < S; s++) keys[b]!.push([emb[(b * S + s) * H]!, pos[b * S + s]!]);
        for (let s = 0; s < S; s++) {
          if (mask[b * (P + S) + P + s] === 0) continue;
          const me = pos[b * S + s]!;
          const positions = keys[b]!.filter((_, j) => mask[b * (P + S) + j] === 1 && j <= P + s).map(([, p]) => p);
          if (positions.length !== me + 1 || positions.some((p, i) => p !== i))
            throw new Error(`draft row at position ${me} attends to positions [${positions.join(',')}]`);
          // Pair (token at me+1, decoder state at me): the decoder state at me+1 follows.
          const sum = (prev[(b * S + s) * H]! + emb[(b * S + s) * H]! * (me + 2)) % MOD;
          const guess = wrongAt(me) ? (sum + 1) % V : sum % V;
          logits[(b * S + s) * V + guess] = 10;
          hidden.set([sum, 0, 0, 0], (b * S + s) * H);
        }
      }
      return {
        logits: tensor('float32', logits, [B, S, V]),
        hidden_states: tensor('float32', hidden, [B, S, H]),
        'present.mtp.key': pack(keys, B, P + S),
        'present.mtp.value': pack(keys, B, P + S),
      };
    },
  };

  const layout: CacheLayout = {
    kvHeads: 1,
    headDim: D,
    decoder: [{ pastKey: 'past_key_values.0.key', pastValue: 'past_key_values.0.value', presentKey: 'present.0.key', presentValue: 'present.0.value' }],
    mtp: [{ pastKey: 'past_key_values.mtp.key', pastValue: 'past_key_values.mtp.value', presentKey: 'present.mtp.key', presentValue: 'present.mtp.value' }],
  };
  return {
    forward: new Forward({ decoder, embed, mtp, hidden: H, vocab: V }),
    layout,
    calls,
    prompt: (ids) => {
      const embeds = new Float32Array(ids.length * H);
      ids.forEach((id, i) => embeds.set([id, 1, 0, 0], i * H));
      return { embeds, length: ids.length };
    },
    expected: (prompt, count) => {
      const seq = [...prompt];
      let sum = prompt.reduce((acc, t, p) => (acc + t * (p + 1)) % MOD, 0);
      const out: number[] = [];
      while (out.length < count) {
        const next = sum % V;
        out.push(next);
        sum = (sum + next * (seq.length + 1)) % MOD;
        seq.push(next);
      }
      return out;
    },
  };
}

function unpack(feeds: Readonly<Record<string, Tensor>>, pastName: string) {
  const past = feeds[pastName]!;
  const [B, , P] = past.dims as [number, number, number, number];
  const S = feeds.inputs_embeds!.dims[1]!;
  const data = past.data as Float32Array;
  const keys: [number, number][][] = [];
  for (let b = 0; b < B; b++) {
    const row: [number, number][] = [];
    for (let j = 0; j < P; j++) row.push([data[(b * P + j) * D]!, data[(b * P + j) * D + 1]!]);
    keys.push(row);
  }
  return {
    B,
    S,
    P,
    keys,
    mask: Array.from(feeds.attention_mask!.data as BigInt64Array, Number),
    pos: Array.from(feeds.position_ids!.data as BigInt64Array, Number),
    emb: feeds.inputs_embeds!.data as Float32Array,
  };
}

function pack(keys: readonly (readonly [number, number])[][], B: number, L: number): Tensor {
  const out = new Float32Array(B * L * D);
  keys.forEach((row, b) => row.forEach(([t, p], j) => out.set([t, p], (b * L + j) * D)));
  return tensor('float32', out, [B, 1, L, D]);
}
