/**
 * The draft step of FastMTP speculative decoding, for a batch: the draft block first catches up
 * on the pairs (true token, true decoder state) the decoder verified last step — those cache slots
 * are kept, and the last of them proposes d1 — then it runs K−1 times on its own output, token and
 * hidden state fed back. Those K−1 slots are speculative and rolled back before returning.
 */
import type { Forward } from './forward.ts';
import type { KvCache } from './kv-cache.ts';
import { argmaxRow } from './logits.ts';
import type { Sequence } from './sequence.ts';
import { ones } from './sequence.ts';

/**
 * K proposals per sequence; the draft cache ends holding only true pairs.
 *
 * @example
 * const drafts = await proposeDrafts(forward, draftCache, active, 3, true); // [[d1, d2, d3], …]
 */
export async function proposeDrafts(forward: Forward, draftCache: KvCache, active: readonly Sequence[], K: number, exact: boolean): Promise<number[][]> {
  const B = active.length;
  const H = forward.hidden;
  const drafts: number[][] = active.map(() => []);
  const started = performance.now();
  const S = Math.max(...active.map((s) => s.pendingTokens.length));
  const embedIds: number[] = [];
  const positions: number[] = [];
  const valid = new Uint8Array(B * S);
  const hidden = new Float32Array(B * S * H);
  active.forEach((s, b) => {
    const rows = s.pendingTokens.length;
    for (let r = 0; r < S; r++) {
      const real = r < rows;
      embedIds.push(real ? s.pendingTokens[r]! : s.last);
      positions.push(real ? s.pos - rows + r : 0);
      valid[b * S + r] = real ? 1 : 0;
    }
    hidden.set(s.pendingHidden, b * S * H);
  });
  const embeds = await forward.embed(embedIds);
  // Padding rows are masked for everyone and never read back: zero their inputs.
  for (let i = 0; i < B * S; i++) if (valid[i] === 0) embeds.fill(0, i * H, (i + 1) * H);
  let out = await forward.draft(draftCache, { embeds, steps: S, positions, valid }, hidden);
  let state = new Float32Array(B * H);
  active.forEach((s, b) => {
    const row = b * S + s.pendingTokens.length - 1;
    drafts[b]!.push(argmaxRow(out.logits, row, forward.vocab));
    state.set(out.hidden.subarray(row * H, (row + 1) * H), b * H);
  });
  for (let j = 2; j <= K; j++) {
    const e = await forward.embed(drafts.map((d) => d[d.length - 1]!));
    out = await forward.draft(draftCache, { embeds: e, steps: 1, positions: active.map((s) => s.pos + j - 2), valid: ones(B) }, state);
    state = out.hidden.slice();
    drafts.forEach((d, b) => d.push(argmaxRow(out.logits, b, forward.vocab)));
  }
  if (K > 1) draftCache.rollback(new Array<number>(B).fill(0), K - 1, exact);
  const ms = performance.now() - started;
  for (const s of active) s.draftMs += ms;
  return drafts;
}
