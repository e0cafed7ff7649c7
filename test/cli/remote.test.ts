/**
 * Folio to Folio: `folio convert --engine remote` pointed at a `folio serve`, with no other flag,
 * both through the real command line (a real paddle engine behind a real server).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFolio, spawnFolio } from './run-folio.ts';

describe('folio convert --engine remote against folio serve', function () {
  this.timeout(180_000);

  it('should read a scan with the defaults: the served model is asked for, not a 404', async () => {
    const out = await mkdtemp(join(tmpdir(), 'folio-remote-'));
    const serve = spawnFolio(['serve', '--port', '0'], { FOLIO_SERVE_TOKEN: undefined });
    const closed = new Promise<void>((resolve) => serve.on('close', () => resolve()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        serve.stdout!.on('data', (d: Buffer) => {
          stdout += d;
          const line = /^(http:\/\/\S+)$/m.exec(stdout);
          if (line) resolve(line[1]!);
        });
        serve.on('close', (code) => reject(new Error(`folio serve exited with ${code}`)));
      });
      const run = await runFolio(['convert', 'examples/docs/scanned-memo.png', '--engine', 'remote', '--remote-url', url, '--out-dir', out, '--workers', '0'], {
        FOLIO_REMOTE_API_KEY: undefined,
      });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /pages: +1 \(remote 1; 0 failed\)/, run.stderr);
      const markdown = await readFile(join(out, 'scanned-memo.md'), 'utf8');
      assert.ok(markdown.trim().length > 50, markdown);
    } finally {
      serve.kill('SIGTERM');
      await closed;
      await rm(out, { recursive: true, force: true });
    }
  });
});
