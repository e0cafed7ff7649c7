/**
 * Tesseract (Debian `tesseract-ocr`, English) as the baseline, run on exactly the page images
 * the paddle engine gets. Wall time is measured around the process, CPU time (user + system)
 * with `/usr/bin/time`: on a shared machine CPU seconds compare engines fairly where wall
 * seconds depend on what else runs. Writing the PNG it reads is not counted. It runs with one
 * thread ({@link TESSERACT_ENV}).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { PageImage } from '../../inference/engine.ts';
import { hasTool, TESSERACT_ENV } from '../common/index.ts';

export interface TesseractRun {
  readonly text: string;
  readonly ms: number;
  /** User + system CPU milliseconds, when `/usr/bin/time` is there. */
  readonly cpuMs?: number;
  readonly error?: string;
}

export async function tesseractAvailable(): Promise<boolean> {
  return hasTool('tesseract');
}

export interface TesseractOptions {
  /** Page segmentation mode (`--psm`); Tesseract's own default (3) when absent. @default undefined */
  readonly psm?: number;
}

/** OCR one page image with Tesseract; never throws (a failure comes back as `error`). */
export async function tesseractPage(image: PageImage, options: Readonly<TesseractOptions> = {}): Promise<TesseractRun> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-tess-'));
  try {
    const file = join(dir, 'page.png');
    const png = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    await writeFile(file, png);
    const timed = await hasTool('/usr/bin/time');
    const tess = [file, 'stdout', '-l', 'eng', ...(options.psm === undefined ? [] : ['--psm', String(options.psm)])];
    const [command, args] = timed ? ['/usr/bin/time', ['-f', 'FOLIO_CPU %U %S', 'tesseract', ...tess]] : ['tesseract', tess];
    const started = performance.now();
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...TESSERACT_ENV } });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.on('data', (c: Buffer) => err.push(c));
      child.on('error', reject);
      child.on('close', (c) => resolve({ code: c ?? 1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    });
    const ms = performance.now() - started;
    const cpu = /FOLIO_CPU ([\d.]+) ([\d.]+)/.exec(stderr);
    const cpuMs = cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : undefined;
    if (code !== 0)
      return {
        text: '',
        ms,
        ...(cpuMs === undefined ? {} : { cpuMs }),
        error:
          stderr
            .trim()
            .split('\n')
            .filter((l) => !l.startsWith('FOLIO_CPU'))
            .pop() ?? `exit ${code}`,
      };
    return { text: stdout, ms, ...(cpuMs === undefined ? {} : { cpuMs }) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
