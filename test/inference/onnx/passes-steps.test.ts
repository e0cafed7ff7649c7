import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fakeModel } from './fake-model.ts';
import { fakeSteps } from './fake-steps.ts';
import { runFake } from './harness.ts';

describe('generate on the step graphs (StepPasses)', () => {
  it('should decode greedily what the model computes, without the contract graphs', async () => {
    const model = fakeModel({ vocab: 50, wrongAt: () => false });
    const { steps } = fakeSteps({ vocab: 50, wrongAt: () => false });
    const { ids, stats } = await runFake(model, [[3, 7, 11]], { eosId: -1, draftK: 0, maxTokens: 12, steps });
    assert.deepEqual(ids[0], model.expected([3, 7, 11], 12));
    assert.equal(stats[0]!.graphs, 'steps');
    assert.deepEqual(model.calls, { decoder: 0, draft: 0 });
  });

  it('should draft K tokens in one call per step and accept all of a perfect head (tau = K + 1)', async () => {
    const model = fakeModel({ vocab: 50, wrongAt: () => false });
    const fake = fakeSteps({ vocab: 50, wrongAt: () => false });
    const { ids, stats } = await runFake(model, [[5, 1]], { eosId: -1, draftK: 3, maxTokens: 41, steps: fake.steps });
    assert.deepEqual(ids[0], model.expected([5, 1], 41));
    assert.equal(stats[0]!.steps, 10);
    assert.equal(stats[0]!.tau, 4);
    // One prefill and one pass per step for the decoder; the draft reads the prompt in its first call.
    assert.deepEqual(fake.calls, { decoder: 11, draft: 10 });
  });

  it('should commit the same ids as greedy decoding, and as the contract graphs, for any K, batch, budget and EOS', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.integer({ min: 0, max: 39 }), { minLength: 1, maxLength: 9 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: -1, max: 39 }),
        fc.integer({ min: 0, max: 6 }),
        fc.boolean(),
        async (prompts, K, maxTokens, eosId, wrongSeed, exact) => {
          const wrongAt = (p: number) => (p * 7 + wrongSeed) % 5 < wrongSeed % 4;
          const model = fakeModel({ vocab: 40, wrongAt });
          const { steps } = fakeSteps({ vocab: 40, wrongAt });
          const contract = await runFake(model, prompts, { eosId, draftK: 0, maxTokens, repetition: false });
          const greedy = await runFake(model, prompts, { eosId, draftK: 0, maxTokens, repetition: false, steps });
          const spec = await runFake(model, prompts, { eosId, draftK: K, maxTokens, repetition: false, exact, steps });
          assert.deepEqual(greedy.ids, contract.ids);
          assert.deepEqual(spec.ids, greedy.ids);
          assert.deepEqual(spec.streamed, spec.ids);
          assert.ok(spec.stats.every((s) => s.graphs === 'steps'));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('should fall back to the contract graphs when the budget needs more positions than the step graphs encode', async () => {
    const model = fakeModel({ vocab: 50, wrongAt: () => false });
    const { steps, calls } = fakeSteps({ vocab: 50, wrongAt: () => false, maxPositions: 40 });
    const fits = await runFake(model, [[1, 2]], { eosId: -1, draftK: 2, maxTokens: 6, steps });
    const over = await runFake(model, [[1, 2]], { eosId: -1, draftK: 2, maxTokens: 20, steps });
    assert.equal(fits.stats[0]!.graphs, 'steps');
    assert.equal(over.stats[0]!.graphs, 'contract');
    assert.deepEqual(over.ids[0], model.expected([1, 2], 20));
    assert.ok(calls.decoder > 0 && model.calls.decoder > 0);
  });
});
