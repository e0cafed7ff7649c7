/**
 * Outside tools the benchmarks run beside Folio (pdftotext, tesseract) and child processes in
 * general: presence checks with an install hint, and runs that report wall time and peak memory.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { ConfigurationError } from '../../core/errors.ts';

const run = promisify(execFile);

const INSTALL_HINT: Readonly<Record<string, string>> = {
  pdftotext: 'apt-get update && apt-get install -y poppler-utils',
  pdfinfo: 'apt-get update && apt-get install -y poppler-utils',
  tesseract: 'apt-get update && apt-get install -y tesseract-ocr',
};

/** Whether a command can be started (`which`). */
export async function hasTool(tool: string): Promise<boolean> {
  try {
    await run('which', [tool]);
    return true;
  } catch {
    return false;
  }
}

/** Throw a ConfigurationError naming the tool and how to install it when it is missing. */
export async function requireTool(tool: string): Promise<void> {
  if (await hasTool(tool)) return;
  const hint = INSTALL_HINT[tool] ?? `install ${tool}`;
  throw new ConfigurationError('FOLIO_BENCH_TOOL', `\`${tool}\` is not installed; run \`${hint}\``, { meta: { tool } });
}

export interface ChildRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
  /** Peak RSS of the child in MiB, when /usr/bin/time is available. */
  readonly peakRssMiB?: number;
  /** CPU seconds (user + system) of the child and its threads, when /usr/bin/time is available. */
  readonly cpuSeconds?: number;
}

export interface RunChildOptions {
  readonly command: string;
  readonly args: readonly string[];
  /**
   * Measure the child's peak RSS and CPU time through `/usr/bin/time -v`.
   * @default false
   */
  readonly measureMemory?: boolean;
  /** @default process.cwd() */
  readonly cwd?: string;
  /**
   * Keep stdout (off for runs whose output goes to files and may be large).
   * @default true
   */
  readonly captureStdout?: boolean;
  /**
   * Kill the child after this many milliseconds; the run then resolves with code 124.
   * @default undefined (no limit)
   */
  readonly timeoutMs?: number;
  /** Extra environment variables on top of this process's. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Run a child process to completion, never throwing for a non-zero exit.
 *
 * @example
 * const { wallMs, peakRssMiB } = await runChild({ command: 'pdftotext', args: ['a.pdf', '-'], measureMemory: true })
 */
/**
 * How the Tesseract baseline runs: one OpenMP thread per process, as Tesseract's maintainers
 * advise for throughput. Its default OpenMP threads spin while they wait, and on a shared 2-core
 * machine that spinning dominated: the same two-page TIFF took 20.9 s wall (19 CPU s) with the
 * default and 3.6 s (3.1 CPU s) with one thread, side by side on 2026-11-29.
 */
export const TESSERACT_ENV: Readonly<Record<string, string>> = { OMP_THREAD_LIMIT: '1' };

export async function runChild({
  command,
  args,
  measureMemory = false,
  cwd = process.cwd(),
  captureStdout = true,
  timeoutMs,
  env,
}: Readonly<RunChildOptions>): Promise<ChildRun> {
  const useTime = measureMemory && (await hasTool('/usr/bin/time'));
  const [cmd, argv] = useTime ? ['/usr/bin/time', ['-v', command, ...args]] : [command, [...args]];
  const start = performance.now();
  return new Promise((resolve, reject) => {
    // Own process group, so a timeout also ends what the child started (e.g. under /usr/bin/time).
    const child = spawn(cmd, argv, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: timeoutMs !== undefined,
      ...(env ? { env: { ...process.env, ...env } } : {}),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      if (captureStdout) out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    let timedOut = false;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            try {
              if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
            } catch {
              child.kill('SIGKILL');
            }
          }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const wallMs = performance.now() - start;
      let stderr = Buffer.concat(err).toString('utf8');
      let peak: number | undefined;
      let cpu: number | undefined;
      if (useTime) {
        const match = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
        if (match) peak = Math.round((Number(match[1]) / 1024) * 10) / 10;
        const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
        const system = /System time \(seconds\): ([\d.]+)/.exec(stderr);
        if (user && system) cpu = Math.round((Number(user[1]) + Number(system[1])) * 100) / 100;
        stderr = stderr.replace(/\n?\s*Command being timed:[\s\S]*$/, '');
      }
      if (timedOut) stderr += `\nkilled after ${timeoutMs} ms`;
      resolve({
        code: timedOut ? 124 : (code ?? 1),
        stdout: Buffer.concat(out).toString('utf8'),
        stderr,
        wallMs,
        ...(peak === undefined ? {} : { peakRssMiB: peak }),
        ...(cpu === undefined ? {} : { cpuSeconds: cpu }),
      });
    });
  });
}

/**
 * The CPU seconds summed and the largest peak RSS over several measured runs (one engine's
 * processes), each left out when no run measured it.
 *
 * @example
 * return { wallMs, failures, ...measured(runs) } // { cpuSeconds: 3.2, peakRssMiB: 41.5 }
 */
export function measured(runs: readonly ChildRun[]): { cpuSeconds?: number; peakRssMiB?: number } {
  const cpu = runs.flatMap((r) => (r.cpuSeconds === undefined ? [] : [r.cpuSeconds]));
  const rss = runs.flatMap((r) => (r.peakRssMiB === undefined ? [] : [r.peakRssMiB]));
  return {
    ...(cpu.length > 0 ? { cpuSeconds: Math.round(cpu.reduce((a, b) => a + b, 0) * 100) / 100 } : {}),
    ...(rss.length > 0 ? { peakRssMiB: Math.max(...rss) } : {}),
  };
}
