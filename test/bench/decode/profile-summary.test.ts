import assert from 'node:assert/strict';
import { summariseProfile } from '../../../bench/decode/profile-summary.ts';

describe('summariseProfile', () => {
  it('should sum kernel time by operator and provider, count runs, and skip other events', () => {
    const node = (op: string, provider: string, dur: number) => ({ cat: 'Node', name: `n_${op}_kernel_time`, dur, args: { op_name: op, provider } });
    const { runs, runUs, byOp } = summariseProfile([
      { cat: 'Session', name: 'model_run', dur: 100 },
      { cat: 'Session', name: 'model_run', dur: 50 },
      node('MatMul', 'WebGpuExecutionProvider', 30),
      node('MatMul', 'WebGpuExecutionProvider', 20),
      node('Range', 'CPUExecutionProvider', 5),
      { cat: 'Node', name: 'n_MatMul_fence_before', dur: 999, args: { op_name: 'MatMul', provider: 'WebGpuExecutionProvider' } },
    ]);
    assert.equal(runs, 2);
    assert.equal(runUs, 150);
    assert.deepEqual(byOp, [
      ['MatMul (WebGpuExecutionProvider)', 50],
      ['Range (CPUExecutionProvider)', 5],
    ]);
  });
});
