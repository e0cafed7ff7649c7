import assert from 'node:assert/strict';
import { decode } from '../../../inference/onnx/decode.ts';
import { KvBuffers } from '../../../inference/onnx/kv-buffer.ts';
import { encodePages } from '../../../inference/onnx/prompt.ts';
import { reference } from './fixture.ts';
import { collect, exact, useTinyModel, windowedLogits } from './harness.ts';
import { oracleStepDraft } from './oracle-draft.ts';

describe('decode on the step graphs', () => {
  const tiny = useTinyModel();

  it('should decode with the step graphs when the tiny.model has them, with the ids of the contract graphs', async () => {
    assert.notEqual(tiny.model.steps?.draft, undefined);
    for (const draftK of [0, 1, 3]) {
      for (const steps of [true, false]) {
        const results = await decode(tiny.model, tiny.pages, { ...exact, draftK, steps });
        results.forEach((r, i) => assert.deepEqual(r.ids, reference.cases[i]!.greedy_ids, `K=${draftK} steps=${steps} page ${i}`));
        assert.ok(results.every((r) => r.stats.graphs === (steps ? 'steps' : 'contract')));
      }
    }
  });

  it('should keep greedy ids when drafts are accepted (real decoder, oracle draft)', async () => {
    const { prompts } = await encodePages(tiny.model, tiny.pages);
    const patterns: [string, (p: number) => boolean][] = [
      ['always right', () => false],
      ['wrong every third', (p) => p % 3 === 0],
      ['wrong in runs', (p) => p % 7 < 3],
      ['always wrong', () => true],
    ];
    // Page by page: the draft's first call reads one page's prompt alone, so the oracle must know which.
    for (const [i, prompt] of prompts.entries()) {
      const answer = reference.cases[i]!.greedy_ids;
      for (const draftK of [1, 2, 3, 5]) {
        for (const [name, wrongAt] of patterns) {
          const oracle = oracleStepDraft(tiny.model.steps!.draft!, {
            answers: [answer],
            promptLength: prompt.length,
            vocab: tiny.model.config.decoder.vocab,
            wrongAt,
          });
          const {
            ids: [ids],
            stats: [stats],
          } = await collect(tiny.model, [prompt], {
            eosId: -1,
            draftK,
            maxTokens: reference.steps,
            repetition: false,
            steps: tiny.model.steps!.withDraft(oracle),
          });
          const tau = stats!.tau;
          assert.deepEqual(ids, answer, `page ${i}, K=${draftK}, ${name}`);
          // Right drafts are accepted up to the budget's end (the last step is cut short).
          if (name === 'always right') assert.ok(tau > draftK, `page ${i}, K=${draftK}: tau ${tau}`);
          else if (name === 'always wrong') assert.equal(tau, 1);
          else assert.ok(tau > 1 && tau <= draftK + 1, `page ${i}, K=${draftK}, ${name}: tau ${tau}`);
        }
      }
    }
  });

  it('should give the same ids in a batch as alone while tiny.pages stop at different tokens', async () => {
    // An EOS id that page 0 reaches early and page 1 never: tiny.pages leave the batch at different steps.
    const ids0 = reference.cases[0]!.greedy_ids;
    const eos = ids0.find((t) => !reference.cases[1]!.greedy_ids.includes(t))!;
    const { prompts } = await encodePages(tiny.model, [tiny.pages[0]!, tiny.pages[1]!, tiny.pages[1]!, tiny.pages[0]!]);
    const run = async (batch: typeof prompts, draftK: number) =>
      (await collect(tiny.model, batch, { eosId: eos, draftK, maxTokens: reference.steps, repetition: false, steps: tiny.model.steps! })).ids;
    const alone = [(await run([prompts[0]!], 0))[0]!, (await run([prompts[1]!], 0))[0]!];
    assert.deepEqual(alone[0], ids0.slice(0, ids0.indexOf(eos) + 1));
    for (const draftK of [0, 2, 3]) assert.deepEqual(await run(prompts, draftK), [alone[0], alone[1], alone[1], alone[0]], `K=${draftK}`);
  });

  it('should compute a verified token bit for bit like a greedy step (passes of 2+ rows)', async () => {
    const { prompts } = await encodePages(tiny.model, [tiny.pages[1]!]);
    const p = prompts[0]!;
    const V = tiny.model.config.decoder.vocab;
    const steps = tiny.model.steps!;
    const tokens = reference.cases[1]!.greedy_ids.slice(0, 9);
    const capacity = p.length + 24;
    const run = async (windows: number[], rows: number) => {
      const cache = new KvBuffers({ batch: 1, capacity, layers: tiny.model.layout.decoder, kvHeads: 1, headDim: 32 });
      const prompt = [...Array(p.length).keys()];
      cache.write((await steps.decode(cache, { embeds: p.embeds, steps: p.length, positions: prompt, logitRows: [p.length - 1] })).written, p.length, prompt);
      return windowedLogits(tokens, windows, rows, V, p.length, async (ids, positions, w) => {
        const out = await steps.decode(cache, { embeds: await tiny.model.forward.embed(ids), steps: ids.length, positions, logitRows: [...Array(w).keys()] });
        cache.write(out.written, ids.length, positions);
        return out.logits;
      });
    };
    const greedy = await run([1, 1, 1, 1, 1, 1, 1, 1, 1], 2);
    const speculative = await run([2, 4, 1, 2], 2);
    greedy.forEach((g, i) => assert.deepEqual(speculative[i], g, `token ${i}`));
  });
});
