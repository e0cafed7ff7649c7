/** A small promise wrapper over child processes, for the launcher's shell-outs. */

import type { SpawnOptions } from 'node:child_process';
import { spawn } from 'node:child_process';

export interface ExecResult {
  /** Exit code; null when killed by a signal. */
  readonly code: number | null;
  /** stdout and stderr interleaved, for error messages. */
  readonly output: string;
}

export interface ExecOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Kill the command after this long. @default 600000 */
  readonly timeoutMs?: number;
  /** Run as this user (we are root). */
  readonly uid?: number;
  readonly gid?: number;
}

/**
 * Run a command to completion. Never rejects for a non-zero exit (the caller words the error);
 * rejects only when the command cannot be spawned at all (ENOENT), so "not installed" is distinct.
 */
export function exec(command: string, args: readonly string[], options: Readonly<ExecOptions> = {}): Promise<ExecResult> {
  const { cwd, env, timeoutMs = 600_000, uid, gid } = options;
  return new Promise((resolvePromise, reject) => {
    const spawnOptions: SpawnOptions = { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs };
    if (uid !== undefined) spawnOptions.uid = uid;
    if (gid !== undefined) spawnOptions.gid = gid;
    const child = spawn(command, args, spawnOptions);
    let output = '';
    const append = (data: Buffer): void => {
      // Keep only the tail: mvn and unzip can be chatty and we only quote the end.
      output = (output + data.toString('utf8')).slice(-20_000);
    };
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    child.once('error', reject);
    child.once('close', (code) => resolvePromise({ code, output }));
  });
}

/** The last `lines` lines of a text, for error messages. */
export function tail(text: string, lines = 20): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
