/**
 * {@link DecodePasses} on the contract graphs every folio-ocr model has: `decoder.onnx` and
 * `mtp.onnx` with "past in, present out" caches ({@link KvCache}: concatenated by the model,
 * rolled back and compacted here), the draft run step by step (`draft.ts`).
 */

import { proposeDrafts } from './draft.ts';
import type { Forward } from './forward.ts';
import type { CacheLayout, PromptEmbeds } from './generate.ts';
import type { KvLayerNames } from './kv-cache.ts';
import { KvCache } from './kv-cache.ts';
import type { DecodePasses, PrefillOutput, VerifyOutput } from './passes.ts';
import type { Sequence } from './sequence.ts';
import { ones, range } from './sequence.ts';

export interface ContractPassesOptions {
  readonly forward: Forward;
  readonly layout: CacheLayout;
  /** Trim rejected slots after every step (see GenerateOptions.exact). */
  readonly exact: boolean;
  /** Pack a batch's caches when masked slots pass this fraction. */
  readonly compactAt: number;
}

/**
 * @example
 * const passes = new ContractPasses({ forward: model.forward, layout: model.layout, exact: true, compactAt: 0.25 });
 */
export class ContractPasses implements DecodePasses {
  readonly #forward: Forward;
  readonly #layout: CacheLayout;
  readonly #exact: boolean;
  readonly #compactAt: number;
  readonly #prefilled = new Map<number, { cache: KvCache; draft: KvCache }>();
  #cache: KvCache | undefined;
  #draftCache: KvCache | undefined;
  /** Set by `accept`: compaction waits until finished pages have left the batch. */
  #tidy = false;

  constructor(options: Readonly<ContractPassesOptions>) {
    const { forward, layout, exact, compactAt } = options;
    this.#forward = forward;
    this.#layout = layout;
    this.#exact = exact;
    this.#compactAt = compactAt;
  }

  async prefill(prompts: readonly PromptEmbeds[]): Promise<PrefillOutput[]> {
    const outputs: PrefillOutput[] = [];
    for (const [index, prompt] of prompts.entries()) outputs.push(await this.#prefillOne(index, prompt));
    return outputs;
  }

  /** A page alone: its caches wait in `#prefilled` for `start`. */
  async #prefillOne(index: number, prompt: PromptEmbeds): Promise<PrefillOutput> {
    const L = prompt.length;
    const V = this.#forward.vocab;
    const cache = this.#newCache(this.#layout.decoder);
    this.#prefilled.set(index, { cache, draft: this.#newCache(this.#layout.mtp) });
    const out = await this.#forward.decode(cache, { embeds: prompt.embeds, steps: L, positions: range(0, L), valid: ones(L) });
    return { logits: out.logits.subarray((L - 1) * V, L * V), hidden: out.hidden };
  }

  async primeDraft(s: Sequence, prompt: PromptEmbeds, hidden: Float32Array): Promise<void> {
    const L = prompt.length;
    const H = this.#forward.hidden;
    if (L < 2) return;
    // Draft-cache slot i holds the pair (embedding of token i+1, decoder state at i); the pair of the
    // first generated token stays pending for the first step.
    const draft = this.#prefilled.get(s.index)!.draft;
    await this.#forward.draft(
      draft,
      { embeds: prompt.embeds.subarray(H, L * H), steps: L - 1, positions: range(0, L - 1), valid: ones(L - 1) },
      hidden.subarray(0, (L - 1) * H),
    );
  }

  start(indices: readonly number[]): void {
    const picked = indices.map((i) => this.#prefilled.get(i)!);
    this.#prefilled.clear();
    this.#cache = picked.length === 1 ? picked[0]!.cache : KvCache.stack(picked.map((p) => p.cache));
    this.#draftCache = picked.length === 1 ? picked[0]!.draft : KvCache.stack(picked.map((p) => p.draft));
  }

  draft(active: readonly Sequence[], K: number): Promise<number[][]> {
    this.#compact(active.length);
    return proposeDrafts(this.#forward, this.#draftCache!, active, K, this.#exact);
  }

  async verify(active: readonly Sequence[], drafts: readonly (readonly number[])[], rows: number): Promise<VerifyOutput> {
    this.#compact(active.length);
    const W = rows;
    const B = active.length;
    const ids = active.flatMap((s, b) => [s.last, ...drafts[b]!, ...new Array<number>(W - drafts[b]!.length - 1).fill(s.last)]);
    const positions = active.flatMap((s) => range(s.pos, s.pos + W));
    const valid = new Uint8Array(B * W);
    active.forEach((_, b) => valid.fill(1, b * W, b * W + drafts[b]!.length + 1));
    const out = await this.#forward.decode(this.#cache!, { embeds: await this.#forward.embed(ids), steps: W, positions, valid });
    return { logits: out.logits, logitRows: W, hidden: out.hidden, hiddenRows: W };
  }

  accept(keep: readonly number[], rows: number): void {
    this.#cache!.rollback(keep, rows, this.#exact);
    this.#tidy = true;
  }

  select(rows: readonly number[]): void {
    this.#cache!.select(rows);
    this.#draftCache!.select(rows);
  }

  dispose(): void {
    for (const p of this.#prefilled.values()) {
      p.cache.dispose();
      p.draft.dispose();
    }
    this.#prefilled.clear();
    this.#cache?.dispose();
    this.#draftCache?.dispose();
  }

  /** Holes left by different acceptance in a batch are packed away once they pass a share of the cache. */
  #compact(batch: number): void {
    if (!this.#tidy) return;
    this.#tidy = false;
    if (batch > 1 || !this.#exact) {
      this.#cache!.compact(this.#compactAt);
      this.#draftCache!.compact(this.#compactAt);
    }
  }

  #newCache(names: readonly KvLayerNames[]): KvCache {
    return new KvCache({ batch: 1, layers: names, kvHeads: this.#layout.kvHeads, headDim: this.#layout.headDim });
  }
}
