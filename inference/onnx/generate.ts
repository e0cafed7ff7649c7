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
 *
 * The passes run on the optional step graphs when the model has them (`steps`, see
 * passes-steps.ts: no cache copies, the whole draft in one call), else on the contract graphs
 * (passes-contract.ts). This file is the loop around them, the same for both.
 */

import { ConfigurationError } from '../../core/errors.ts';
import type { Forward } from './forward.ts';
import type { KvLayerNames } from './kv-cache.ts';
import { argmaxRow, marginRow } from './logits.ts';
import type { DecodePasses } from './passes.ts';
import { ContractPasses } from './passes-contract.ts';
import { CAPACITY_SLACK, StepPasses } from './passes-steps.ts';
import type { Sequence } from './sequence.ts';
import type { StepForward } from './step-forward.ts';
import type { RepetitionGuardOptions, StopReason } from './stop.ts';
import { StopCondition } from './stop.ts';

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
  /** Pack a batch's caches when masked slots pass this fraction (contract graphs). @default 0.25 */
  readonly compactAt?: number;
  /**
   * The model's step graphs (`OcrModel.steps`): used when given, unless the budget needs more
   * positions than they encode or K exceeds their slack (then the contract graphs decode).
   * @default undefined (contract graphs)
   */
  readonly steps?: StepForward;
  readonly signal?: AbortSignal;
}

/** Figures for one page. Times are wall-clock ms of the passes the page took part in. */
export interface DecodeStats {
  /** Tokens committed, the stop token included. */
  readonly tokens: number;
  /** Decoder passes after the prefill. */
  readonly steps: number;
  /** Which graphs decoded: the optional step graphs or the contract's decoder/mtp. */
  readonly graphs: 'steps' | 'contract';
  /** Mean tokens committed per step (accepted drafts + 1, up to the stop token); 1 for greedy. */
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
  /** The decoder's pass over the prompt (the same work whatever K). */
  readonly prefillMs: number;
  /** The draft head's passes, its read of the prompt included (speculative decoding's extra work). */
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
export async function* generate(
  forward: Forward,
  layout: CacheLayout,
  prompts: readonly PromptEmbeds[],
  options: Readonly<GenerateOptions>,
): AsyncGenerator<GenerationEvent> {
  const { eosId, draftK = 3, maxTokens = 2048, repetition = {}, exact = true, compactAt = 0.25, steps, signal } = options;
  const minRows = exact ? 2 : 1;
  if (!Number.isInteger(draftK) || draftK < 0)
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`draftK\` to be an integer from 0 and up, got \`${draftK}\``);
  const K = draftK;
  const capacity = Math.max(0, ...prompts.map((p) => p.length)) + maxTokens + CAPACITY_SLACK;
  const useSteps = steps !== undefined && capacity <= steps.maxPositions && K + 2 <= CAPACITY_SLACK && (K === 0 || steps.draft !== undefined);
  if (K > 0 && !useSteps && forward.mtp === undefined)
    throw new ConfigurationError('FOLIO_MODEL_NO_DRAFT_HEAD', `\`draftK\` is ${draftK} but the model has no draft head; use 0`);
  const V = forward.vocab;
  const H = forward.hidden;
  const passes: DecodePasses = useSteps
    ? new StepPasses({ steps, forward, layout, batch: prompts.length, capacity })
    : new ContractPasses({ forward, layout, exact, compactAt });
  const graphs = useSteps ? 'steps' : 'contract';

  const done = (s: Sequence, reason: StopReason): GenerationEvent => {
    const stats: DecodeStats = {
      tokens: s.stop.tokens.length,
      steps: s.steps,
      graphs,
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

  try {
    // ---- prefill (a page's share of the batch's time), then each page's first token
    let active: Sequence[] = [];
    const prefillStarted = performance.now();
    const prefilled = await passes.prefill(prompts);
    const prefillMs = (performance.now() - prefillStarted) / Math.max(1, prompts.length);
    for (const [index, prompt] of prompts.entries()) {
      const L = prompt.length;
      const out = prefilled[index]!;
      const first = argmaxRow(out.logits, 0, V);
      const s: Sequence = {
        index,
        stop: new StopCondition({ eosId, maxTokens, repetition }),
        last: first,
        pos: L,
        pendingTokens: [first],
        pendingHidden: out.hidden.slice((L - 1) * H, L * H),
        steps: 0,
        accepted: new Array<number>(K).fill(0),
        minMargin: marginRow(out.logits, 0, V),
        committedInSteps: 0,
        prefillMs,
        draftMs: 0,
        verifyMs: 0,
      };
      const reason = s.stop.push(first);
      if (reason === undefined && K > 0) {
        const priming = performance.now();
        await passes.primeDraft(s, prompt, out.hidden, K);
        s.draftMs = performance.now() - priming;
      }
      yield { type: 'tokens', index, ids: [first] };
      if (reason !== undefined) yield done(s, reason);
      else active.push(s);
    }
    if (active.length === 0) return;
    await passes.start(active.map((s) => s.index));

    while (active.length > 0) {
      if (signal?.aborted) {
        for (const s of active) yield done(s, 'aborted');
        return;
      }
      // ---- draft: catch up on the pairs verified last step, then K−1 recursive proposals
      let started = performance.now();
      const drafts = K > 0 ? await passes.draft(active, K) : active.map(() => []);
      const drafted = performance.now();
      for (const s of active) s.draftMs += drafted - started;

      // ---- verify: [last, d1..dK] in one decoder pass
      started = performance.now();
      const W = Math.max(K + 1, minRows);
      const out = await passes.verify(active, drafts, W);

      // ---- pick, stream, stop
      const keep: number[] = [];
      const finished: Sequence[] = [];
      const events: GenerationEvent[] = [];
      active.forEach((s, b) => {
        const d = drafts[b]!;
        const row = (r: number) => b * out.logitRows + r;
        let a = 0;
        let pick = argmaxRow(out.logits, row(0), V);
        while (a < K && pick === d[a]) {
          a++;
          pick = argmaxRow(out.logits, row(a), V);
        }
        const committed = [...d.slice(0, a), pick];
        for (let r = 0; r <= a; r++) s.minMargin = Math.min(s.minMargin, marginRow(out.logits, row(r), V));
        s.steps++;
        for (let j = 0; j < a; j++) s.accepted[j]!++;
        const emitted: number[] = [];
        let reason: StopReason | undefined;
        for (const token of committed) {
          emitted.push(token);
          reason = s.stop.push(token);
          if (reason !== undefined) break;
        }
        // τ counts what the page keeps: tokens verified past its stop token are not committed.
        s.committedInSteps += emitted.length;
        events.push({ type: 'tokens', index: s.index, ids: emitted });
        keep.push(a + 1);
        s.pendingTokens = committed;
        s.pendingHidden = out.hidden.slice(b * out.hiddenRows * H, (b * out.hiddenRows + a + 1) * H);
        s.pos += a + 1;
        s.last = pick;
        if (reason !== undefined) {
          events.push(done(s, reason));
          finished.push(s);
        }
      });
      passes.accept(keep, W);
      const ms = performance.now() - started;
      for (const s of active) s.verifyMs += ms;
      yield* events;

      if (finished.length > 0) {
        const rows = active.flatMap((s, b) => (finished.includes(s) ? [] : [b]));
        active = rows.map((b) => active[b]!);
        if (active.length === 0) break;
        await passes.select(rows);
      }
    }
  } finally {
    passes.dispose();
  }
}
