import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDecodeBench } from '../../../bench/decode/index.ts';

describe('runDecodeBench', () => {
  it('should compare greedy and speculative decoding and end with the summary line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-bench-decode-'));
    const lines: string[] = [];
    try {
      const code = await runDecodeBench({ argv: ['--k', '0,3', '--batch', '1,2', '--runs', '1', '--tokens', '8', '--threads', '1'], resultsDir: dir, log: (l) => lines.push(l) });
      assert.equal(code, 0);
      assert.match(lines.at(-1)!, /^lossless=true speedup=\d+\.\d\d tau=1\.00 \(steered draft at 0\.8: speedup=\d+\.\d\d tau=\d\.\d\d\)$/);
      const json = JSON.parse(await readFile(join(dir, 'decode.json'), 'utf8'));
      assert.deepEqual(json.rows.map((r: { draft: string; batch: number; k: number }) => `${r.draft} ${r.batch} ${r.k}`), ['model 1 0', 'model 1 3', 'steered 1 3', 'model 2 0', 'model 2 3', 'steered 2 3']);
      assert.ok(json.rows.every((r: { lossless: boolean }) => r.lossless));
      assert.match(await readFile(join(dir, 'decode.md'), 'utf8'), /\| model \| 1 \| greedy \|/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('should name a bad flag', async () => {
    await assert.rejects(runDecodeBench({ argv: ['--batch', 'x'], log: () => {} }), /Expected `--batch` to be integers separated by commas, got `x`/);
    await assert.rejects(runDecodeBench({ argv: ['--device', 'tpu'], log: () => {} }), /`--device` to be one of cpu, webgpu, cuda/);
  });
});
