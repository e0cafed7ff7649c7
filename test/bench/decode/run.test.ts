import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_MODEL, runDecodeBench } from '../../../bench/decode/index.ts';

describe('runDecodeBench', () => {
  it('should compare greedy and speculative decoding on both graph sets and end with the summary line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-bench-decode-'));
    const lines: string[] = [];
    try {
      // The random fixture never emits EOS on purpose: decode a fixed budget.
      const code = await runDecodeBench({ argv: ['--model', FIXTURE_MODEL, '--k', '0,3', '--batch', '1,2', '--runs', '1', '--tokens', '8', '--ignore-eos', '--threads', '1'], resultsDir: dir, log: (l) => lines.push(l) });
      assert.equal(code, 0);
      assert.match(lines.at(-1)!, /^lossless=true speedup=\d+\.\d\d tau=1\.00 cpu=\d+\.\d\d e2e=\d+\.\d\d \(steered draft at 0\.8: speedup=\d+\.\d\d tau=\d\.\d\d\)$/);
      const json = JSON.parse(await readFile(join(dir, 'decode.json'), 'utf8'));
      const rows = json.rows.map((r: { graphs: string; draft: string; batch: number; k: number }) => `${r.graphs} ${r.draft} ${r.batch} ${r.k}`).sort();
      assert.deepEqual(rows, ['contract model 1 0', 'contract model 1 3', 'contract model 2 0', 'contract model 2 3', 'steps model 1 0', 'steps model 1 3', 'steps model 2 0', 'steps model 2 3', 'steps steered 1 3']);
      assert.ok(json.rows.every((r: { lossless: boolean; sameAsContract: boolean }) => r.lossless && r.sameAsContract));
      assert.deepEqual(json.perK.map((r: { k: number }) => r.k), [3]);
      assert.match(await readFile(join(dir, 'decode.md'), 'utf8'), /\| steps \| model \| 1 \| greedy \|/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('should name a bad flag', async () => {
    await assert.rejects(runDecodeBench({ argv: ['--batch', 'x'], log: () => {} }), /Expected `--batch` to be integers separated by commas, got `x`/);
    await assert.rejects(runDecodeBench({ argv: ['--device', 'tpu'], log: () => {} }), /`--device` to be one of cpu, webgpu, cuda/);
  });
});
