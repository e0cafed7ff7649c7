/**
 * {@link DecodePasses} on the optional step graphs (`decoder_step.onnx`, `mtp_step.onnx`): caches
 * are fixed-capacity {@link KvBuffers}, slot = position, fed as they are; a step writes back only
 * the rows it added and rolls nothing back; the draft head reads the pending pairs and proposes
 * all K tokens in one call; the LM head runs on the rows verified only.
 *
 * Bit-exactness holds as on the contract path: every decoder pass has 2 rows or more, and every
 * attention row spans the same capacity C in greedy and speculative decoding (C depends on the
 * prompts and the token budget, never on K), so a token's logits are the same bits either way.
 *
 * With a resident `StepForward` (a GPU) the decoding caches stay in the device's memory from pass to
 * pass (`KvBuffers.resident`): the whole batch is prefilled by one pass straight into them (on the
 * host, page by page into buffers of exactly its length: cheaper on a CPU), and a sequence leaving
 * the batch is dropped on the device. A prompt row's attention spans the prefill buffer's slots, so
 * the two prefills can round differently; greedy and speculative decoding share whichever runs,
 * so they decode the same ids.
 */

import { ConfigurationError, InferenceError } from '../../core/errors.ts';
import type { Forward } from './forward.ts';
import type { CacheLayout, PromptEmbeds } from './generate.ts';
import { KvBuffers } from './kv-buffer.ts';
import type { DecodePasses, PrefillOutput, VerifyOutput } from './passes.ts';
import type { Sequence } from './sequence.ts';
import { range } from './sequence.ts';
import type { StepForward } from './step-forward.ts';

/** Slots past the token budget: a pass writes up to K + 1 rows beyond the last committed token. */
export const CAPACITY_SLACK = 32;

export interface StepPassesOptions {
  readonly steps: StepForward;
  /** Embeddings (memoised lookups). */
  readonly forward: Forward;
  readonly layout: CacheLayout;
  /** Pages to prefill. */
  readonly batch: number;
  /** Slots per sequence: longest prompt + token budget + {@link CAPACITY_SLACK}. */
  readonly capacity: number;
}

/**
 * @example
 * const passes = new StepPasses({ steps: model.steps, forward: model.forward, layout: model.layout, batch: 2, capacity: 600 });
 */
export class StepPasses implements DecodePasses {
  readonly #steps: StepForward;
  readonly #forward: Forward;
  readonly #layout: CacheLayout;
  readonly #cache: KvBuffers;
  readonly #draftCache: KvBuffers | undefined;

  constructor(options: Readonly<StepPassesOptions>) {
    const { steps, forward, layout, batch, capacity } = options;
    if (capacity > steps.maxPositions)
      throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected a capacity up to the model's ${steps.maxPositions} positions, got ${capacity}`);
    this.#steps = steps;
    this.#forward = forward;
    this.#layout = layout;
    this.#cache = this.#buffers(batch, capacity, layout.decoder, steps.resident);
    this.#draftCache = steps.draft === undefined ? undefined : this.#buffers(batch, capacity, layout.mtp, steps.residentDraft);
  }

  async prefill(prompts: readonly PromptEmbeds[]): Promise<PrefillOutput[]> {
    if (this.#cache.resident) return await this.#prefillResident(prompts);
    const outputs: PrefillOutput[] = [];
    for (const [index, prompt] of prompts.entries()) outputs.push(await this.#prefillOne(index, prompt));
    return outputs;
  }

  /**
   * Every prompt in one pass of the batch's resident cache, padded to the longest: a padding row
   * sits past its page's prompt, so no real row attends to it, and the page's first decoding pass
   * writes over its slots before any row reads them.
   */
  async #prefillResident(prompts: readonly PromptEmbeds[]): Promise<PrefillOutput[]> {
    const H = this.#forward.hidden;
    const V = this.#forward.vocab;
    const S = Math.max(...prompts.map((p) => p.length));
    const embeds = new Float32Array(prompts.length * S * H);
    prompts.forEach((p, b) => embeds.set(p.embeds.subarray(0, p.length * H), b * S * H));
    // The LM head runs on each prompt's last row; the rows asked for are the same for every page.
    const lastRows = [...new Set(prompts.map((p) => p.length - 1))].sort((a, b) => a - b);
    const out = await this.#steps.decode(this.#cache, { embeds, steps: S, positions: prompts.flatMap(() => range(0, S)), logitRows: lastRows });
    const R = lastRows.length;
    return prompts.map((p, b) => {
      const row = b * R + lastRows.indexOf(p.length - 1);
      const hidden = out.hidden.length === 0 ? out.hidden : out.hidden.subarray(b * S * H, (b * S + p.length) * H);
      return { logits: out.logits.subarray(row * V, (row + 1) * V), hidden };
    });
  }

  /** A page alone, into a host buffer of exactly its length; its rows go to its row of the batch's buffer. */
  async #prefillOne(index: number, prompt: PromptEmbeds): Promise<PrefillOutput> {
    const L = prompt.length;
    // An empty buffer of exactly L slots: attention over the prompt costs no more than it must.
    // The keys go to the page's row of the batch's buffer.
    const positions = range(0, L);
    const out = await this.#steps.decode(this.#buffers(1, L, this.#layout.decoder), { embeds: prompt.embeds, steps: L, positions, logitRows: [L - 1] });
    this.#cache.write(out.written, L, positions, index);
    return { logits: out.logits, hidden: out.hidden };
  }

  async primeDraft(s: Sequence, prompt: PromptEmbeds, hidden: Float32Array, K: number): Promise<void> {
    if (this.#draftCache === undefined) throw new InferenceError('FOLIO_MODEL_NO_DRAFT_HEAD', 'the step graphs have no draft head (mtp_step.onnx)');
    const L = prompt.length;
    const H = this.#forward.hidden;
    // The pairs (embedding of token i+1, decoder state at i) for i = 0..L−1: the prompt's, then the
    // first generated token's; the last one proposes the first step's drafts.
    const embeds = new Float32Array(L * H);
    embeds.set(prompt.embeds.subarray(H, L * H));
    embeds.set(await this.#forward.embed(s.pendingTokens), (L - 1) * H);
    const positions = range(0, L);
    const out = await this.#steps.propose(this.#buffers(1, L, this.#layout.mtp), { embeds, hidden, steps: L, positions, lastRows: [L - 1], k: K });
    this.#draftCache.write(out.written, L, positions, s.index);
    s.nextDrafts = out.ids[0];
    s.pendingTokens = [];
    s.pendingHidden = new Float32Array(0);
  }

  async start(indices: readonly number[]): Promise<void> {
    await this.select(indices);
  }

  async draft(active: readonly Sequence[], K: number): Promise<number[][]> {
    if (active.every((s) => s.nextDrafts !== undefined)) {
      return active.map((s) => {
        const d = s.nextDrafts!;
        s.nextDrafts = undefined;
        return d;
      });
    }
    const H = this.#forward.hidden;
    const B = active.length;
    const S = Math.max(...active.map((s) => s.pendingTokens.length));
    const ids: number[] = [];
    const positions: number[] = [];
    const hidden = new Float32Array(B * S * H);
    active.forEach((s, b) => {
      const n = s.pendingTokens.length;
      if (n === 0) throw new InferenceError('FOLIO_DECODE_STATE', `page ${s.index}: nothing for the draft head to read`);
      // Padding rows repeat the last pair at the next positions: past the real rows, so no real row
      // attends to them, and the next pass overwrites their slots.
      for (let r = 0; r < S; r++) {
        ids.push(s.pendingTokens[Math.min(r, n - 1)]!);
        positions.push(s.pos - n + r);
      }
      hidden.set(s.pendingHidden, b * S * H);
    });
    const out = await this.#steps.propose(this.#draftCache!, {
      embeds: await this.#forward.embed(ids),
      hidden,
      steps: S,
      positions,
      lastRows: active.map((s) => s.pendingTokens.length - 1),
      k: K,
    });
    if (!this.#draftCache!.resident) this.#draftCache!.write(out.written, S, positions);
    return out.ids;
  }

  async verify(active: readonly Sequence[], drafts: readonly (readonly number[])[], rows: number): Promise<VerifyOutput> {
    const W = rows;
    const K = drafts[0]?.length ?? 0;
    const ids = active.flatMap((s, b) => [s.last, ...drafts[b]!, ...new Array<number>(W - drafts[b]!.length - 1).fill(s.last)]);
    const positions = active.flatMap((s) => range(s.pos, s.pos + W));
    const out = await this.#steps.decode(this.#cache, { embeds: await this.#forward.embed(ids), steps: W, positions, logitRows: range(0, K + 1) });
    if (!this.#cache.resident) this.#cache.write(out.written, W, positions);
    return { logits: out.logits, logitRows: K + 1, hidden: out.hidden, hiddenRows: W };
  }

  accept(): void {
    // Nothing to roll back: rejected slots lie past every position still to be read, and the
    // next pass writes over them.
  }

  async select(rows: readonly number[]): Promise<void> {
    await this.#cache.select(rows);
    await this.#draftCache?.select(rows);
  }

  dispose(): void {
    this.#cache.dispose();
    this.#draftCache?.dispose();
  }

  /** A prefill's own buffer is never resident: its rows go to the batch's buffers through the host. */
  #buffers(batch: number, capacity: number, layers: CacheLayout['decoder'], resident = false): KvBuffers {
    const gather = resident ? this.#steps.gather : undefined;
    return new KvBuffers({
      batch,
      capacity,
      layers,
      kvHeads: this.#layout.kvHeads,
      headDim: this.#layout.headDim,
      resident,
      ...(gather === undefined ? {} : { gather }),
    });
  }
}
