/** A `folio serve` child process for the benchmarks that drive it over HTTP (`bench serve`, `bench plugin`). */
import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Start `folio serve --engine paddle` on a free port and resolve once it prints its URL.
 *
 * @example
 * const { url, child } = await startFolioServe();
 * child.kill();
 */
export async function startFolioServe(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['bin/folio.ts', 'serve', '--engine', 'paddle', '--port', '0', '--queue', '256'], {
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
