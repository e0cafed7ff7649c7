/** A `folio serve` child process for the benchmarks that drive it over HTTP (`bench serve`, `bench plugin`). */
import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Start `folio serve` (by default `--engine paddle --queue 256`) on a free port and resolve once it prints its URL.
 *
 * @example
 * const { url, child } = await startFolioServe();
 * child.kill();
 */
export async function startFolioServe(args: readonly string[] = ['--engine', 'paddle', '--queue', '256']): Promise<{ url: string; child: ChildProcess }> {
  // The young-generation cap bin/folio.js's shebang gives an installed `folio`.
  const child = spawn(process.execPath, ['--max-semi-space-size=16', 'bin/folio.ts', 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const match = /http:\/\/\S+/.exec(d.toString());
      if (match) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`folio serve exited with ${code}`)));
  });
  return { url, child };
}
