import assert from 'node:assert/strict';
import { decode, decodeStream } from '../../../inference/onnx/decode.ts';
import { loadPageImage } from '../../../inference/onnx/image-file.ts';
import { KvCache } from '../../../inference/onnx/kv-cache.ts';
import type { OcrModel } from '../../../inference/onnx/load.ts';
import { loadModel } from '../../../inference/onnx/load.ts';
import { encodePages } from '../../../inference/onnx/prompt.ts';
import { MODEL_DIR, reference } from './fixture.ts';
import { collect, exact, useTinyModel, windowedLogits } from './harness.ts';
import { oracleDraft } from './oracle-draft.ts';

describe('decode', () => {
  const tiny = useTinyModel();

  it('should give the PyTorch greedy ids, greedy and speculative, K = 0..3', async () => {
    for (const draftK of [0, 1, 2, 3]) {
      const results = await decode(tiny.model, tiny.pages, { ...exact, draftK });
      results.forEach((r, i) => assert.deepEqual(r.ids, reference.cases[i]!.greedy_ids, `K=${draftK} page ${i}`));
    }
  });

  it('should give the same ids without the exact layout (no padding row, holes compacted)', async () => {
    for (const draftK of [0, 3]) {
      const results = await decode(tiny.model, [...tiny.pages, tiny.pages[0]!], { ...exact, draftK, exact: false });
      assert.deepEqual(
        results.map((r) => r.ids),
        [0, 1, 0].map((i) => reference.cases[i]!.greedy_ids),
      );
    }
  });

  it('should give the same ids in a batch as alone', async () => {
    const batch = [tiny.pages[0]!, tiny.pages[1]!, tiny.pages[1]!, tiny.pages[0]!, tiny.pages[1]!];
    for (const draftK of [0, 3]) {
      const results = await decode(tiny.model, batch, { ...exact, draftK });
      assert.deepEqual(
        results.map((r) => r.ids),
        [0, 1, 1, 0, 1].map((i) => reference.cases[i]!.greedy_ids),
      );
      for (const r of results) assert.ok(r.stats.minMargin > 1e-3, `margin ${r.stats.minMargin}`);
    }
  });

  it('should keep greedy ids when drafts are accepted (real decoder, oracle draft head)', async () => {
    const { prompts } = await encodePages(tiny.model, tiny.pages);
    const { hidden, vocab, kvHeads, headDim } = tiny.model.config.decoder;
    const patterns: [string, (p: number) => boolean][] = [
      ['always right', () => false],
      ['wrong every third', (p) => p % 3 === 0],
      ['wrong in runs', (p) => p % 7 < 3],
      ['always wrong', () => true],
    ];
    for (const draftK of [1, 2, 3]) {
      for (const [name, wrongAt] of patterns) {
        const oracle = oracleDraft({
          answers: reference.cases.map((c) => c.greedy_ids),
          promptLength: prompts[0]!.length,
          vocab,
          hidden,
          kvHeads,
          headDim,
          wrongAt,
        });
        const { ids, stats } = await collect({ forward: tiny.model.forward.withDraft(oracle), layout: tiny.model.layout }, prompts, {
          eosId: -1,
          draftK,
          maxTokens: reference.steps,
          repetition: false,
        });
        const taus = stats.map((s) => s.tau);
        assert.deepEqual(
          ids,
          reference.cases.map((c) => c.greedy_ids),
          `K=${draftK}, ${name}`,
        );
        // Every draft accepted: K + 1 tokens a step, the last step cut at the budget.
        const perfect = (reference.steps - 1) / Math.ceil((reference.steps - 1) / (draftK + 1));
        if (name === 'always right') assert.deepEqual(taus, [perfect, perfect]);
        else if (name === 'always wrong') assert.deepEqual(taus, [1, 1]);
        else
          assert.ok(
            taus.every((t) => t > 1 && t <= draftK + 1),
            `K=${draftK}, ${name}: tau ${taus}`,
          );
      }
    }
  });

  it('should compute a verified token bit for bit like a greedy step (passes of 2+ rows)', async () => {
    const { prompts } = await encodePages(tiny.model, [tiny.pages[1]!]);
    const p = prompts[0]!;
    const V = tiny.model.config.decoder.vocab;
    const tokens = reference.cases[1]!.greedy_ids.slice(0, 9);
    const run = async (windows: number[], rows: number) => {
      const cache = new KvCache({ batch: 1, layers: tiny.model.layout.decoder, kvHeads: 1, headDim: 32 });
      const all = (n: number) => new Uint8Array(n).fill(1);
      await tiny.model.forward.decode(cache, { embeds: p.embeds, steps: p.length, positions: [...Array(p.length).keys()], valid: all(p.length) });
      return windowedLogits(tokens, windows, rows, V, p.length, async (ids, positions, w) => {
        const valid = new Uint8Array(ids.length).fill(1, 0, w);
        const out = await tiny.model.forward.decode(cache, { embeds: await tiny.model.forward.embed(ids), steps: ids.length, positions, valid });
        cache.rollback([w], ids.length);
        return out.logits;
      });
    };
    const greedy = await run([1, 1, 1, 1, 1, 1, 1, 1, 1], 2);
    const speculative = await run([2, 4, 1, 2], 2);
    greedy.forEach((g, i) => assert.deepEqual(speculative[i], g, `token ${i}`));
  });
});

describe('decodeStream', () => {
  let model: OcrModel;
  before(async () => {
    model = await loadModel({ modelDir: MODEL_DIR, threads: 1 });
  });
  after(async () => {
    await model.release();
  });

  it('should stream the text of the page and return its ids', async () => {
    const page = await loadPageImage({ path: `${MODEL_DIR}${reference.cases[0]!.image}` });
    const stream = decodeStream(model, page, { ...exact, draftK: 3 });
    const deltas: string[] = [];
    let result = await stream.next();
    while (!result.done) {
      deltas.push(result.value);
      result = await stream.next();
    }
    assert.deepEqual(result.value.ids, reference.cases[0]!.greedy_ids);
    assert.equal(deltas.join(''), result.value.text);
    assert.ok(deltas.length > 1);
  });
});
