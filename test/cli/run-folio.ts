import { type ChildProcess, spawn } from 'node:child_process';

export interface FolioRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunFolioOptions {
  /** Run as this user and group (a test run as root that needs permissions to bite). */
  readonly uid?: number;
  readonly gid?: number;
}

/** Start the real `folio` command line in a child process, as a user would. */
export function spawnFolio(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
  options: Readonly<RunFolioOptions> = {},
): ChildProcess {
  // `undefined` removes a variable, e.g. the ELASTICSEARCH_URL the test setup exported.
  const merged: Record<string, string | undefined> = { ...process.env, CI: '1', ...env };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return spawn(process.execPath, ['bin/folio.ts', ...args], { env: merged, stdio: ['ignore', 'pipe', 'pipe'], ...options });
}

/** Run the real `folio` command line in a child process, as a user would. */
export function runFolio(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
  options: Readonly<RunFolioOptions> = {},
): Promise<FolioRun> {
  return new Promise((resolve, reject) => {
    const child = spawnFolio(args, env, options);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d));
    child.stderr!.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
