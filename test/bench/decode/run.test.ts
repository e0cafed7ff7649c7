import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_MODEL, runDecodeBench } from '../../../bench/decode/index.ts';

describe('runDecodeBench', () => {
  it('should compare greedy and speculative decoding on both graph sets and end with the summary line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-bench-decode-'));
    const lines: string[] = [];
    try {
      // The random fixture never emits EOS on purpose: decode a fixed budget.
      const code = await runDecodeBench({
        argv: ['--model', FIXTURE_MODEL, '--k', '0,3', '--batch', '1,2', '--runs', '1', '--tokens', '8', '--ignore-eos', '--threads', '1'],
        resultsDir: dir,
        log: (l) => lines.push(l),
      });
      assert.equal(code, 0);
      assert.match(
        lines.at(-1)!,
        /^lossless=true speedup=\d+\.\d\d tau=1\.00 cpu=\d+\.\d\d e2e=\d+\.\d\d \(steered draft at 0\.8: speedup=\d+\.\d\d tau=\d\.\d\d\)$/,
      );
      const json = JSON.parse(await readFile(join(dir, 'decode.json'), 'utf8'));
      const rows = json.rows.map((r: { graphs: string; draft: string; batch: number; k: number }) => `${r.graphs} ${r.draft} ${r.batch} ${r.k}`).sort();
      assert.deepEqual(rows, [
        'contract model 1 0',
        'contract model 1 3',
        'contract model 2 0',
        'contract model 2 3',
        'steps model 1 0',
        'steps model 1 3',
        'steps model 2 0',
        'steps model 2 3',
        'steps steered 1 3',
      ]);
      assert.ok(json.rows.every((r: { lossless: boolean; sameAsContract: boolean }) => r.lossless && r.sameAsContract));
      assert.deepEqual(
        json.perK.map((r: { k: number }) => r.k),
        [3],
      );
      assert.match(await readFile(join(dir, 'decode.md'), 'utf8'), /\| steps \| model \| 1 \| greedy \|/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('should set a PyTorch reference of the same budget beside the greedy rows, and refuse another budget', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-bench-decode-'));
    const lines: string[] = [];
    try {
      const row = (batch: number, decode: number) => ({ batch, tokens: 16, ms: 10, tokens_per_s: 1600, decode_tokens_per_s: decode, times_ms: [10, 11] });
      const reference = { engine: 'PyTorch test', device: 'cpu', precision: 'fp32', budget: 8, measured: 'now', rows: [row(1, 500), row(2, 900)] };
      await writeFile(join(dir, 'ref.json'), JSON.stringify(reference));
      const argv = [
        '--model',
        FIXTURE_MODEL,
        '--k',
        '0',
        '--batch',
        '1,2',
        '--runs',
        '1',
        '--tokens',
        '8',
        '--ignore-eos',
        '--threads',
        '1',
        '--graphs',
        'steps',
        '--steer',
        '0',
        '--reference',
        join(dir, 'ref.json'),
      ];
      assert.equal(await runDecodeBench({ argv, resultsDir: dir, log: (l) => lines.push(l) }), 0);
      const json = JSON.parse(await readFile(join(dir, 'decode.json'), 'utf8'));
      const greedy = (batch: number) => json.rows.find((r: { batch: number; k: number }) => r.batch === batch && r.k === 0).decodeTokensPerSecond;
      assert.ok(lines.at(-1)!.endsWith(` pytorch/ts@b1=${(500 / greedy(1)).toFixed(2)} pytorch/ts@b2=${(900 / greedy(2)).toFixed(2)}`), lines.at(-1));
      assert.match(await readFile(join(dir, 'decode.md'), 'utf8'), /## Against PyTorch[^]*\| 2 \| 10 \/ 1600 \| 900 \|/);
      await writeFile(join(dir, 'ref.json'), JSON.stringify({ ...reference, budget: 9 }));
      await assert.rejects(runDecodeBench({ argv, resultsDir: dir, log: () => {} }), /budget of 9 tokens, the bench uses 8/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('should name a bad flag', async () => {
    await assert.rejects(runDecodeBench({ argv: ['--batch', 'x'], log: () => {} }), /Expected `--batch` to be integers separated by commas, got `x`/);
    await assert.rejects(runDecodeBench({ argv: ['--device', 'tpu'], log: () => {} }), /`--device` to be one of cpu, webgpu, cuda/);
  });
});
