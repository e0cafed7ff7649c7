import assert from 'node:assert/strict';
import { StopCondition } from '../../../inference/onnx/stop.ts';

describe('StopCondition', () => {
  it('should stop on EOS and on the budget', () => {
    const eos = new StopCondition({ eosId: 2, maxTokens: 10 });
    assert.deepEqual(
      [5, 6, 2].map((t) => eos.push(t)),
      [undefined, undefined, 'eos'],
    );
    const budget = new StopCondition({ eosId: 2, maxTokens: 3 });
    assert.deepEqual(
      [5, 6, 7].map((t) => budget.push(t)),
      [undefined, undefined, 'max-tokens'],
    );
  });

  it('should stop when a unit repeats long enough, not before', () => {
    const guard = new StopCondition({ eosId: -1, maxTokens: 1000, repetition: { maxPeriod: 8, minRepeats: 4, minSpan: 12 } });
    const unit = [7, 8, 9];
    const reasons = Array.from({ length: 15 }, (_, i) => guard.push(unit[i % 3]!));
    // 12 tokens of period 3 is the first tail long enough.
    assert.equal(reasons.indexOf('repetition'), 11);
  });

  it('should let varied text through', () => {
    const guard = new StopCondition({ eosId: -1, maxTokens: 1000 });
    for (let i = 0; i < 600; i++) assert.equal(guard.push((i * 7919) % 257), undefined);
  });

  it('should validate the budget', () => {
    assert.throws(() => new StopCondition({ eosId: 0, maxTokens: 0 }), { message: 'Expected `maxTokens` to be an integer from 1 and up, got `0` (number)' });
  });
});
