/**
 * The step graphs (`decoder_step.onnx`, `mtp_step.onnx`) in plain TypeScript, with the same rule as
 * `fake-model.ts` so the decoding loop can be tested exactly: the decoder's next token is `S mod V`,
 * S summing `token × (position + 1)` over the slots a row attends to (mod 1009).
 *
 * Like the real graphs they write each row at its position in a copy of the buffer fed to them, a
 * row reads every slot up to its own position, and the rows written come back as `written.*` for
 * the caller to keep, the whole updated copy as `present.*` (what a resident cache keeps). A slot holds (token, position); reading a slot written for another position
 * throws, so a position, capacity or buffer-handling bug (a row not written back) fails loudly, and
 * a stale token changes the output.
 */

import type { SessionLike } from '../../../inference/onnx/forward.ts';
import { gatherRowsModel, rowGather } from '../../../inference/onnx/gather-rows.ts';
import { StepForward } from '../../../inference/onnx/step-forward.ts';
import type { Tensor } from '../../../inference/runtime/ort.ts';
import { OnnxSession, tensor } from '../../../inference/runtime/ort.ts';
import { H } from './fake-model.ts';

const D = 2;
const MOD = 1009;

export interface FakeStepsOptions {
  readonly vocab: number;
  /** Positions where the draft proposes a wrong token. */
  readonly wrongAt: (position: number) => boolean;
  /** @default 4096 */
  readonly maxPositions?: number;
  /** Build a resident `StepForward` (caches fed back from `present.*`). @default false */
  readonly resident?: boolean;
}

export interface FakeSteps {
  /** Use with `fakeModel`'s forward and layout (same embeddings, same cache names). */
  readonly steps: StepForward;
  readonly calls: { decoder: number; draft: number };
}

export function fakeSteps(options: Readonly<FakeStepsOptions>): FakeSteps {
  const { vocab: V, wrongAt, maxPositions = 4096, resident = false } = options;
  const calls = { decoder: 0, draft: 0 };

  const decoder: SessionLike = {
    path: 'fake/decoder_step.onnx',
    inputNames: ['inputs_embeds', 'position_ids', 'logits_rows', 'past_key_values.0.key', 'past_key_values.0.value'],
    outputNames: ['logits', 'hidden_states', 'written.0.key', 'written.0.value', 'present.0.key', 'present.0.value'],
    async run(feeds) {
      calls.decoder++;
      const { B, S, C, cache, pos, emb } = unpack(feeds, 'past_key_values.0.key');
      const rows = Array.from(feeds.logits_rows!.data as BigInt64Array, Number);
      const logits = new Float32Array(B * rows.length * V).fill(-1);
      const hidden = new Float32Array(B * S * H);
      for (let b = 0; b < B; b++) {
        consecutive(pos, b, S, 'decoder');
        for (let s = 0; s < S; s++) write(cache, b, C, pos[b * S + s]!, emb[(b * S + s) * H]!);
        for (let s = 0; s < S; s++) {
          const sum = attend(cache, b, C, pos[b * S + s]!, 'decoder');
          hidden.set([sum, 0, 0, 0], (b * S + s) * H);
        }
        rows.forEach((r, i) => {
          logits[(b * rows.length + i) * V + (hidden[(b * S + r) * H]! % V)] = 10;
        });
      }
      const written = rowsOf(cache, B, S, C, pos);
      const present = tensor('float32', cache, [B, 1, C, D]);
      return {
        logits: tensor('float32', logits, [B, rows.length, V]),
        hidden_states: tensor('float32', hidden, [B, S, H]),
        'written.0.key': written,
        'written.0.value': written,
        'present.0.key': present,
        'present.0.value': tensor('float32', cache.slice(), [B, 1, C, D]),
      };
    },
  };

  const draft: SessionLike = {
    path: 'fake/mtp_step.onnx',
    inputNames: ['inputs_embeds', 'previous_hidden', 'position_ids', 'last_row', 'draft_k', 'past_key_values.mtp.key', 'past_key_values.mtp.value'],
    outputNames: ['draft_ids', 'written.mtp.key', 'written.mtp.value', 'present.mtp.key', 'present.mtp.value'],
    async run(feeds) {
      calls.draft++;
      const { B, S, C, cache, pos, emb } = unpack(feeds, 'past_key_values.mtp.key');
      const prev = feeds.previous_hidden!.data as Float32Array;
      const last = Array.from(feeds.last_row!.data as BigInt64Array, Number);
      const K = Number((feeds.draft_k!.data as BigInt64Array)[0]);
      const ids = new BigInt64Array(B * K);
      for (let b = 0; b < B; b++) {
        // Padding rows after the last real one must come at later positions, or they would
        // overwrite real pairs the next proposals read.
        consecutive(pos, b, S, 'draft');
        for (let s = 0; s < S; s++) write(cache, b, C, pos[b * S + s]!, emb[(b * S + s) * H]!);
        const l = b * S + last[b]!;
        let me = pos[l]!;
        // Every slot up to the proposing row must hold the pair of its own position.
        attend(cache, b, C, me, 'draft');
        // The pair (token at me+1, decoder state at me) gives the decoder state at me+1, hence the
        // token at me+2; the draft feeds its own guess and state back for the next proposal.
        let state = prev[l * H]!;
        let token = emb[l * H]!;
        for (let j = 0; j < K; j++) {
          state = (state + token * (me + 2)) % MOD;
          token = wrongAt(me) ? (state + 1) % V : state % V;
          ids[b * K + j] = BigInt(token);
          me++;
        }
      }
      const written = rowsOf(cache, B, S, C, pos);
      return {
        draft_ids: tensor('int64', ids, [B, K]),
        'written.mtp.key': written,
        'written.mtp.value': written,
        'present.mtp.key': tensor('float32', cache, [B, 1, C, D]),
        'present.mtp.value': tensor('float32', cache.slice(), [B, 1, C, D]),
      };
    },
  };

  // A resident cache drops sequences with the real gather model (on the CPU here).
  const gather = rowGather((n) => OnnxSession.create(`gather-rows(${n})`, { bytes: gatherRowsModel(n) }));
  return { steps: new StepForward({ decoder, draft, hidden: H, vocab: V, maxPositions, resident, ...(resident ? { gather } : {}) }), calls };
}

function unpack(feeds: Readonly<Record<string, Tensor>>, pastName: string) {
  const past = feeds[pastName]!;
  const [B, , C] = past.dims as [number, number, number, number];
  return {
    B,
    S: feeds.inputs_embeds!.dims[1]!,
    C,
    // A copy, as the graph's ScatterND makes: what the caller keeps is what it writes back.
    cache: (past.data as Float32Array).slice(),
    pos: Array.from(feeds.position_ids!.data as BigInt64Array, Number),
    emb: feeds.inputs_embeds!.data as Float32Array,
  };
}

/** `written.*`: the slots of this pass's rows, [B, 1, S, D]. */
function rowsOf(cache: Float32Array, B: number, S: number, C: number, pos: readonly number[]): Tensor {
  const out = new Float32Array(B * S * D);
  for (let b = 0; b < B; b++)
    for (let s = 0; s < S; s++) out.set(cache.subarray((b * C + pos[b * S + s]!) * D, (b * C + pos[b * S + s]! + 1) * D), (b * S + s) * D);
  return tensor('float32', out, [B, 1, S, D]);
}

function consecutive(pos: readonly number[], b: number, S: number, who: string): void {
  for (let s = 1; s < S; s++)
    if (pos[b * S + s] !== pos[b * S]! + s) throw new Error(`${who} rows of sequence ${b} are at positions [${pos.slice(b * S, (b + 1) * S).join(',')}]`);
}

function write(cache: Float32Array, b: number, C: number, p: number, token: number): void {
  if (p >= C) throw new Error(`position ${p} is past the capacity ${C}`);
  cache.set([token, p], (b * C + p) * D);
}

/** The rule's sum over slots 0..me, checking each holds its own position. */
function attend(cache: Float32Array, b: number, C: number, me: number, who: string): number {
  let sum = 0;
  for (let j = 0; j <= me; j++) {
    const [token, p] = [cache[(b * C + j) * D]!, cache[(b * C + j) * D + 1]!];
    if (p !== j) throw new Error(`${who} row at position ${me} reads slot ${j} holding position ${p}`);
    sum = (sum + token * (j + 1)) % MOD;
  }
  return sum;
}
