/**
 * Debian packages the factory's engines need, installed where missing and this user may (root, as
 * on CI), like the bench's other tools; otherwise a ConfigurationError saying what to install.
 */
import { ConfigurationError } from '../../../core/errors.ts';
import { hasTool, runChild } from '../../common/tools.ts';

/**
 * Make `tool` available by installing `packages` with apt-get when it is missing (or `present` says
 * a part of it is).
 *
 * @example
 * await aptEnsure('pdftotext', ['poppler-utils'], console.error);
 */
export async function aptEnsure(
  tool: string,
  packages: readonly string[],
  log: (line: string) => void,
  present: () => Promise<boolean> = () => hasTool(tool),
): Promise<void> {
  if (await present()) return;
  const hint = `\`${tool}\` is not installed; run \`apt-get update && apt-get install -y ${packages.join(' ')}\``;
  if (process.getuid?.() !== 0) throw new ConfigurationError('FOLIO_BENCH_TOOL', hint, { meta: { tool } });
  log(`factory: installing ${packages.join(' ')} (apt-get) …`);
  // Another apt-get may hold the lock for minutes on a shared machine: wait for it rather than fail.
  const lock = ['-o', 'DPkg::Lock::Timeout=900'];
  for (const args of [
    ['update', '-q', ...lock],
    ['install', '-y', '-q', '--no-install-recommends', ...lock, ...packages],
  ]) {
    const run = await runChild({ command: 'apt-get', args, env: { DEBIAN_FRONTEND: 'noninteractive' }, timeoutMs: 1_800_000, captureStdout: false });
    if (run.code !== 0) {
      throw new ConfigurationError('FOLIO_BENCH_TOOL', `${hint} (apt-get ${args[0]} failed: ${run.stderr.trim().split('\n').at(-1)})`, { meta: { tool } });
    }
  }
  if (!(await present())) throw new ConfigurationError('FOLIO_BENCH_TOOL', hint, { meta: { tool } });
}
