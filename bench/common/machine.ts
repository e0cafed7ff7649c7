/**
 * What a figure was measured on: every result file records the machine, the runtime and the
 * versions of the packages and tools behind it, so a number is never quoted without its context.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly platform: string;
  /** 1-minute load average when measured: the machine is shared, figures move with it. */
  readonly loadAverage?: number;
  readonly node: string;
  readonly packages: Readonly<Record<string, string>>;
  readonly tools: Readonly<Record<string, string>>;
  readonly at: string;
}

const PACKAGES = ['@embedpdf/pdfium', 'onnxruntime-node', 'sharp', 'katex', 'unified', 'remark-parse', '@elastic/elasticsearch'];

function packageVersion(name: string): string {
  try {
    const file = path.join(process.cwd(), 'node_modules', name, 'package.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'not installed';
  }
}

/** First line of `tool -v` style output, or `not installed`. */
export function toolVersion(tool: string, args: readonly string[] = ['-v']): string {
  try {
    const out = execFileSync(tool, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (out.trim()) return out.trim().split('\n')[0]!.trim();
    // poppler prints its version on stderr.
    const stderr = execFileSync('sh', ['-c', `"$0" "$@" 2>&1`, tool, ...args], { encoding: 'utf8' });
    return stderr.trim().split('\n')[0]?.trim() ?? 'unknown';
  } catch (error) {
    // poppler prints its version on stderr and may exit non-zero for -v.
    const stderr = (error as { stderr?: string }).stderr;
    if (typeof stderr === 'string' && stderr.trim()) return stderr.split('\n')[0]!.trim();
    return 'not installed';
  }
}

/**
 * Describe this machine, the Node runtime, Folio's key packages and the baseline tools.
 *
 * @example
 * const machine = machineInfo()
 * console.log(machine.cpu, machine.cores)
 */
export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverage: Math.round(os.loadavg()[0]! * 10) / 10,
    node: process.version,
    packages: Object.fromEntries(PACKAGES.map((name) => [name, packageVersion(name)])),
    tools: { pdftotext: toolVersion('pdftotext'), tesseract: toolVersion('tesseract', ['--version']) },
    at: new Date().toISOString(),
  };
}

/** The machine as a Markdown paragraph for result files. */
export function machineMarkdown(machine: MachineInfo): string {
  const packages = Object.entries(machine.packages)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const tools = Object.entries(machine.tools)
    .map(([k, v]) => `${k}: ${v}`)
    .join('; ');
  return [
    `Measured ${machine.at} on ${machine.cpu} (${machine.cores} cores, ${machine.memoryGiB} GiB), ${machine.platform}, Node ${machine.node}${machine.loadAverage === undefined ? '' : `, load average ${machine.loadAverage} at the end`}.`,
    `Packages: ${packages}. Tools: ${tools}.`,
  ].join('\n');
}
