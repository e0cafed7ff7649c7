import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fakeModel } from './fake-model.ts';
import { runFake } from './harness.ts';

describe('generate', () => {
  it('should decode greedily what the model computes', async () => {
    const model = fakeModel({ vocab: 50, wrongAt: () => false });
    const { ids, stats } = await runFake(model, [[3, 7, 11]], { eosId: -1, draftK: 0, maxTokens: 12 });
    assert.deepEqual(ids[0], model.expected([3, 7, 11], 12));
    assert.equal(stats[0]!.steps, 11);
    assert.equal(stats[0]!.tau, 1);
    assert.equal(stats[0]!.stop, 'max-tokens');
  });

  it('should accept every draft of a perfect draft head (tau = K + 1)', async () => {
    const model = fakeModel({ vocab: 50, wrongAt: () => false });
    const { ids, stats } = await runFake(model, [[5, 1]], { eosId: -1, draftK: 3, maxTokens: 41 });
    assert.deepEqual(ids[0], model.expected([5, 1], 41));
    assert.equal(stats[0]!.steps, 10);
    assert.equal(stats[0]!.tau, 4);
    assert.deepEqual(stats[0]!.acceptance, [1, 1, 1]);
  });

  it('should commit the same ids as greedy decoding for any K, batch, budget and EOS', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.integer({ min: 0, max: 39 }), { minLength: 1, maxLength: 9 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: -1, max: 39 }),
        fc.integer({ min: 0, max: 6 }),
        fc.boolean(),
        async (prompts, K, maxTokens, eosId, wrongSeed, exact) => {
          const model = fakeModel({ vocab: 40, wrongAt: (p) => (p * 7 + wrongSeed) % 5 < wrongSeed % 4 });
          const greedy = await runFake(model, prompts, { eosId, draftK: 0, maxTokens, repetition: false });
          const spec = await runFake(model, prompts, { eosId, draftK: K, maxTokens, repetition: false, compactAt: 0.1, exact });
          assert.deepEqual(spec.ids, greedy.ids);
          assert.deepEqual(spec.streamed, spec.ids);
          prompts.forEach((p, i) => {
            const expected = model.expected(p, maxTokens);
            const stop = expected.indexOf(eosId);
            assert.deepEqual(greedy.ids[i], stop === -1 ? expected : expected.slice(0, stop + 1));
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('should count acceptance per draft position', async () => {
    // Wrong exactly where the draft's pair position is odd: draft 1 is then right half the time.
    const model = fakeModel({ vocab: 50, wrongAt: (p) => p % 2 === 1 });
    const { ids, stats } = await runFake(model, [[2, 4, 6, 8]], { eosId: -1, draftK: 2, maxTokens: 30 });
    assert.deepEqual(ids[0], model.expected([2, 4, 6, 8], 30));
    const s = stats[0]!;
    assert.ok(s.tau > 1 && s.tau < 3, `tau ${s.tau}`);
    assert.ok(s.acceptance[0]! >= s.acceptance[1]!);
  });

  it('should stop on the repetition guard at the same token in both modes', async () => {
    // vocab 1: the model can only repeat token 0.
    const model = fakeModel({ vocab: 1, wrongAt: () => false });
    const options = { eosId: -1, maxTokens: 500, repetition: { maxPeriod: 4, minRepeats: 10, minSpan: 20 } };
    const greedy = await runFake(model, [[0]], { ...options, draftK: 0 });
    const spec = await runFake(model, [[0]], { ...options, draftK: 3 });
    assert.equal(greedy.stats[0]!.stop, 'repetition');
    assert.equal(greedy.ids[0]!.length, 20);
    assert.deepEqual(spec.ids, greedy.ids);
  });

  it('should stop every page when the signal aborts', async () => {
    const model = fakeModel({ vocab: 50, wrongAt: () => false });
    const controller = new AbortController();
    controller.abort();
    const { stats } = await runFake(model, [[1], [2]], { eosId: -1, draftK: 2, maxTokens: 50, signal: controller.signal });
    assert.deepEqual(
      stats.map((s) => s.stop),
      ['aborted', 'aborted'],
    );
  });

  it('should refuse a negative K', async () => {
    const model = fakeModel({ vocab: 50, wrongAt: () => false });
    await assert.rejects(runFake(model, [[1]], { eosId: -1, draftK: -1 }), /`draftK`/);
  });
});
