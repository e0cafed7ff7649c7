/**
 * Greedy and speculative decoding of a batch of pages (FastMTP, lossless).
 *
 * Each step is the readable loop of STYLE.md: prepare inputs → forward → process logits → pick →
 * stream → stop.
 *  1. Draft (K > 0): the draft block first catches up on the positions the decoder verified last
 *     step (true token, true hidden state; those cache slots are kept), which yields draft 1; then
 *     it runs K−1 more times on its own output (token and hidden state fed back). Those K−1 slots
 *     are speculative and rolled back at once.
 *  2. Verify: the decoder reads [last token, d1..dK] in one pass. Draft j is accepted while it
 *     equals the decoder's argmax at the row before it; the argmax after the last accepted draft is
 *     committed too (the "bonus" token). The decoder cache keeps the accepted rows only.
 *  3. Every committed token goes through the stop condition in order, so greedy (K = 0) and
 *     speculative decoding commit the same ids and stop at the same one.
 *
 * Pages are prefilled one at a time (a long and a short prompt are not padded against each
 * other; a page's prefill is then bit-identical alone or in a batch) and decoded together.
 */
import { KvCache } from './kv-cache.ts';
import type { KvLayerNames } from './kv-cache.ts';
import type { Forward } from './forward.ts';
import { StopCondition } from './stop.ts';
import type { RepetitionGuardOptions, StopReason } from './stop.ts';
import { argmaxRow, marginRow } from './logits.ts';
import { proposeDrafts } from './draft.ts';
import { ones, range } from './sequence.ts';
import type { Sequence } from './sequence.ts';

/** The prompt of one page as embeddings: text and visual tokens already spliced. */
export interface PromptEmbeds {
  /** [length, hidden] */
  readonly embeds: Float32Array;
  readonly length: number;
}

export interface CacheLayout {
  readonly kvHeads: number;
  readonly headDim: number;
  readonly decoder: readonly KvLayerNames[];
  /** The draft block's cache (one block). */
  readonly mtp: readonly KvLayerNames[];
}

export interface GenerateOptions {
  readonly eosId: number;
  /** Draft tokens per step; 0 is plain greedy decoding. @default 3 */
  readonly draftK?: number;
  /** Tokens per page, the first one included. @default 2048 */
  readonly maxTokens?: number;
  /** @default {} (on, with its defaults) */
  readonly repetition?: Readonly<RepetitionGuardOptions> | false;
  /**
   * Bit-exact layout (see inference/onnx/README.md): every decoder pass has 2 rows or more (a
   * single row runs another kernel whose sums round differently) and the cache is trimmed to the
   * accepted slots after every step, so greedy and speculative decoding compute each token bit for
   * bit alike at batch 1. `false` saves the padding row and one cache copy per step; ids then equal
   * greedy's up to rounding (see `minMargin`). @default true
   */
  readonly exact?: boolean;
  /** Pack a batch's caches when masked slots pass this fraction. @default 0.25 */
  readonly compactAt?: number;
  readonly signal?: AbortSignal;
}

/** Figures for one page. Times are wall-clock ms of the passes the page took part in. */
export interface DecodeStats {
  /** Tokens committed, the stop token included. */
  readonly tokens: number;
  /** Decoder passes after the prefill. */
  readonly steps: number;
  /** Mean tokens committed per step (accepted drafts + 1); 1 for greedy. */
  readonly tau: number;
  readonly draftK: number;
  /** `acceptance[j]`: share of steps whose draft j+1 was accepted (so it falls with j). */
  readonly acceptance: readonly number[];
  /**
   * Smallest gap between the two largest logits over the committed tokens. Where it is larger than
   * the rounding noise between batch layouts (about 1e-5 in fp32), no other layout could have
   * picked another token.
   */
  readonly minMargin: number;
  readonly prefillMs: number;
  readonly draftMs: number;
  readonly verifyMs: number;
  readonly stop: StopReason;
}

export type GenerationEvent =
  | { readonly type: 'tokens'; readonly index: number; readonly ids: readonly number[] }
  | { readonly type: 'done'; readonly index: number; readonly ids: readonly number[]; readonly stats: DecodeStats };


/**
 * Decode a batch of prompts; yields committed ids as they come and one `done` event per page.
 *
 * @example
 * for await (const event of generate(forward, layout, [prompt], { eosId: 1, draftK: 3 })) {
 *   if (event.type === 'done') console.log(event.ids, event.stats.tau);
 * }
 */
export async function* generate(forward: Forward, layout: CacheLayout, prompts: readonly PromptEmbeds[], options: Readonly<GenerateOptions>): AsyncGenerator<GenerationEvent> {
  const { eosId, draftK = 3, maxTokens = 2048, repetition = {}, exact = true, compactAt = 0.25, signal } = options;
  const minRows = exact ? 2 : 1;
  if (!Number.isInteger(draftK) || draftK < 0) throw new RangeError(`Expected \`draftK\` to be an integer from 0 and up, got \`${draftK}\``);
  if (draftK > 0 && forward.mtp === undefined) throw new RangeError(`\`draftK\` is ${draftK} but the model has no draft head; use 0`);
  const K = draftK;
  const H = forward.hidden;
  const newCache = (names: readonly KvLayerNames[], batch = 1) => new KvCache({ batch, layers: names, kvHeads: layout.kvHeads, headDim: layout.headDim });

  const done = (s: Sequence, reason: StopReason): GenerationEvent => {
    const stats: DecodeStats = {
      tokens: s.stop.tokens.length,
      steps: s.steps,
      tau: s.steps === 0 ? 0 : s.committedInSteps / s.steps,
      draftK: K,
      acceptance: s.accepted.map((n) => (s.steps === 0 ? 0 : n / s.steps)),
      minMargin: s.minMargin,
      prefillMs: s.prefillMs,
      draftMs: s.draftMs,
      verifyMs: s.verifyMs,
      stop: reason,
    };
    return { type: 'done', index: s.index, ids: [...s.stop.tokens], stats };
  };

  // ---- prefill, page by page
  let active: Sequence[] = [];
  const caches: KvCache[] = [];
  const draftCaches: KvCache[] = [];
  for (const [index, prompt] of prompts.entries()) {
    const L = prompt.length;
    const started = performance.now();
    const cache = newCache(layout.decoder);
    const out = await forward.decode(cache, { embeds: prompt.embeds, steps: L, positions: range(0, L), valid: ones(L) });
    const first = argmaxRow(out.logits, L - 1, forward.vocab);
    const draftCache = newCache(layout.mtp);
    if (K > 0 && L > 1) {
      // Draft-cache slot i holds the pair (embedding of token i+1, decoder state at i).
      await forward.draft(draftCache, { embeds: prompt.embeds.subarray(H, L * H), steps: L - 1, positions: range(0, L - 1), valid: ones(L - 1) }, out.hidden.subarray(0, (L - 1) * H));
    }
    const s: Sequence = {
      index,
      stop: new StopCondition({ eosId, maxTokens, repetition }),
      last: first,
      pos: L,
      pendingTokens: [first],
      pendingHidden: out.hidden.slice((L - 1) * H, L * H),
      steps: 0,
      accepted: new Array<number>(K).fill(0),
      minMargin: marginRow(out.logits, L - 1, forward.vocab),
      committedInSteps: 0,
      prefillMs: performance.now() - started,
      draftMs: 0,
      verifyMs: 0,
    };
    const reason = s.stop.push(first);
    yield { type: 'tokens', index, ids: [first] };
    if (reason !== undefined) {
      yield done(s, reason);
      continue;
    }
    active.push(s);
    caches.push(cache);
    draftCaches.push(draftCache);
  }
  if (active.length === 0) return;
  const cache = caches.length === 1 ? caches[0]! : KvCache.stack(caches);
  const draftCache = draftCaches.length === 1 ? draftCaches[0]! : KvCache.stack(draftCaches);

  try {
    while (active.length > 0) {
      if (signal?.aborted) {
        for (const s of active) yield done(s, 'aborted');
        return;
      }
      const B = active.length;

      // ---- draft: catch up, then K−1 recursive proposals
      const drafts = K > 0 ? await proposeDrafts(forward, draftCache, active, K, exact) : active.map(() => []);

      // ---- verify: [last, d1..dK] in one decoder pass
      const started = performance.now();
      const W = Math.max(K + 1, minRows);
      const ids = active.flatMap((s, b) => [s.last, ...drafts[b]!, ...new Array<number>(W - K - 1).fill(s.last)]);
      const embeds = await forward.embed(ids);
      const positions = active.flatMap((s) => range(s.pos, s.pos + W));
      const valid = new Uint8Array(B * W);
      for (let b = 0; b < B; b++) valid.fill(1, b * W, b * W + K + 1);
      const out = await forward.decode(cache, { embeds, steps: W, positions, valid });

      // ---- pick, stream, stop
      const keep: number[] = [];
      const finished: Sequence[] = [];
      const events: GenerationEvent[] = [];
      active.forEach((s, b) => {
        const d = drafts[b]!;
        let a = 0;
        let pick = argmaxRow(out.logits, b * W, forward.vocab);
        while (a < K && pick === d[a]) {
          a++;
          pick = argmaxRow(out.logits, b * W + a, forward.vocab);
        }
        const committed = [...d.slice(0, a), pick];
        for (let r = 0; r <= a; r++) s.minMargin = Math.min(s.minMargin, marginRow(out.logits, b * W + r, forward.vocab));
        s.steps++;
        s.committedInSteps += a + 1;
        for (let j = 0; j < a; j++) s.accepted[j]!++;
        const emitted: number[] = [];
        let reason: StopReason | undefined;
        for (const token of committed) {
          emitted.push(token);
          reason = s.stop.push(token);
          if (reason !== undefined) break;
        }
        events.push({ type: 'tokens', index: s.index, ids: emitted });
        keep.push(a + 1);
        s.pendingTokens = committed;
        s.pendingHidden = out.hidden.slice(b * W * H, (b * W + a + 1) * H);
        s.pos += a + 1;
        s.last = pick;
        if (reason !== undefined) {
          events.push(done(s, reason));
          finished.push(s);
        }
      });
      cache.rollback(keep, W, exact);
      const ms = performance.now() - started;
      for (const s of active) s.verifyMs += ms;
      yield* events;

      if (finished.length > 0) {
        const rows = active.flatMap((s, b) => (finished.includes(s) ? [] : [b]));
        active = rows.map((b) => active[b]!);
        if (active.length === 0) break;
        cache.select(rows);
        draftCache.select(rows);
      }
      if (active.length > 1 || !exact) {
        cache.compact(compactAt);
        draftCache.compact(compactAt);
      }
    }
  } finally {
    cache.dispose();
    draftCache.dispose();
  }
}
