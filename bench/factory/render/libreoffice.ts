/**
 * The LibreOffice renderer: DOCX, ODT and PPTX the families wrote, printed to PDF by
 * `soffice --headless --convert-to pdf`, many files per start (a start costs seconds, a page
 * tenths of one), each process with its own throw-away profile so parallel runs never share one.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SourceError } from '../../../core/errors.ts';
import { hasTool, runChild } from '../../common/tools.ts';
import { aptEnsure } from './apt.ts';
import type { Renderer, RenderJob } from './types.ts';

/** Debian's packages: the engine without its GUI, and the font families the families pick from. */
export const LIBREOFFICE_PACKAGES = ['libreoffice-writer-nogui', 'libreoffice-impress-nogui', 'fonts-dejavu', 'fonts-liberation2', 'fonts-noto-core'] as const;

/** Files per `soffice` start: small enough that a hung document costs one batch's time limit. */
const BATCH = 24;
/** Time limit of one batch: a start, then a few seconds per document at worst. */
const batchLimitMs = (files: number): number => 60_000 + files * 15_000;
/** A document retried alone after its batch failed to print it. */
const SINGLE_LIMIT_MS = 90_000;
/** Two processes at once: the machines this runs on have two cores. */
const PARALLEL = 2;

/** Writer's and Impress's libraries: `soffice` alone may be a Writer-only install that cannot open a PPTX. */
const MODULES = ['libswlo.so', 'libsdlo.so'].map((f) => path.join('/usr/lib/libreoffice/program', f));

/** One family of each font package the families pick from: without them LibreOffice substitutes silently. */
const FONTS = ['Liberation Serif', 'DejaVu Sans', 'Noto Serif'];

async function fontsPresent(): Promise<boolean> {
  const run = await runChild({ command: 'fc-list', args: [':', 'family'], timeoutMs: 30_000 }).catch(() => undefined);
  const families = new Set(
    (run?.stdout ?? '')
      .split('\n')
      .flatMap((l) => l.split(','))
      .map((f) => f.trim()),
  );
  return FONTS.every((f) => families.has(f));
}

async function ensure(log: (line: string) => void): Promise<void> {
  await aptEnsure(
    'soffice',
    LIBREOFFICE_PACKAGES,
    log,
    async () => (await hasTool('soffice')) && MODULES.every((m) => existsSync(m)) && (await fontsPresent()),
  );
}

/** One `soffice` run over `files` (absolute paths) into `outDir`; its stderr's tail for the failures. */
async function convert(files: readonly string[], outDir: string, profile: string, timeoutMs: number): Promise<string> {
  const run = await runChild({
    command: 'soffice',
    args: [
      `-env:UserInstallation=${pathToFileURL(profile).href}`,
      '--headless',
      '--invisible',
      '--nologo',
      '--nodefault',
      '--nolockcheck',
      '--norestore',
      '--convert-to',
      'pdf',
      '--outdir',
      outDir,
      ...files,
    ],
    timeoutMs,
    captureStdout: false,
    env: { SAL_USE_VCLPLUGIN: 'svp' },
  });
  // soffice exits 0 even when a file could not be loaded; its "Error: ..." line says why.
  const error = run.stderr.split('\n').findLast((l) => l.startsWith('Error'));
  if (run.code === 0) return error ?? '';
  return `soffice exited ${run.code}${run.code === 124 ? ` (time limit ${timeoutMs / 1000} s)` : ''}: ${error ?? run.stderr.trim().split('\n').slice(-2).join(' | ')}`;
}

const printed = async (pdf: string): Promise<boolean> => ((await stat(pdf).catch(() => undefined))?.size ?? 0) > 0;

async function render(jobs: readonly RenderJob[], workDir: string, log: (line: string) => void): Promise<Map<string, Error>> {
  const failures = new Map<string, Error>();
  const inDir = path.join(workDir, 'in');
  const outDir = path.join(workDir, 'out');
  await rm(workDir, { recursive: true, force: true });
  await mkdir(inDir, { recursive: true });
  await mkdir(outDir, { recursive: true });
  const todo: { job: RenderJob; file: string; out: string }[] = [];
  for (const job of jobs) {
    if (job.source.renderer !== 'libreoffice') {
      failures.set(
        job.id,
        new SourceError('FOLIO_BENCH_DATASET', `${job.id}: LibreOffice cannot render a ${job.source.renderer} source`, { meta: { id: job.id } }),
      );
      continue;
    }
    const file = path.join(inDir, `${job.id}.${job.source.extension}`);
    await writeFile(file, job.source.bytes);
    todo.push({ job, file, out: path.join(outDir, `${job.id}.pdf`) });
  }
  const batches: (typeof todo)[] = [];
  for (let i = 0; i < todo.length; i += BATCH) batches.push(todo.slice(i, i + BATCH));
  const notes = new Map<string, string>();
  let next = 0;
  // Each lane keeps its own profile: two soffice processes on one profile wait on each other's lock.
  const lane = async (n: number): Promise<void> => {
    const profile = path.join(workDir, `profile-${n}`);
    for (let b = next++; b < batches.length; b = next++) {
      const batch = batches[b]!;
      const started = performance.now();
      const note = await convert(
        batch.map((t) => t.file),
        outDir,
        profile,
        batchLimitMs(batch.length),
      );
      log(`factory: libreoffice: batch ${b + 1}/${batches.length} (${batch.length} files) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      for (const t of batch) {
        if (await printed(t.out)) continue;
        // Alone, so that one document that hangs or crashes the engine is the only one lost.
        const alone = await convert([t.file], outDir, profile, SINGLE_LIMIT_MS);
        if (!(await printed(t.out))) notes.set(t.job.id, alone || note || 'soffice wrote no PDF');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, batches.length) }, (_, n) => lane(n)));
  for (const t of todo) {
    const note = notes.get(t.job.id);
    if (note !== undefined) {
      failures.set(t.job.id, new SourceError('FOLIO_BENCH_DATASET', `${t.job.id}: LibreOffice did not print it (${note})`, { meta: { id: t.job.id } }));
      continue;
    }
    await mkdir(path.dirname(t.job.pdf), { recursive: true });
    await copyFile(t.out, t.job.pdf);
  }
  const left = await readdir(outDir);
  log(`factory: libreoffice: ${left.length} of ${jobs.length} printed, ${failures.size} failed`);
  return failures;
}

/**
 * The LibreOffice renderer (`source.renderer === 'libreoffice'`).
 *
 * @example
 * await libreOfficeRenderer.ensure(console.error);
 * const failures = await libreOfficeRenderer.render(jobs, '.cache/factory/work/libreoffice', console.error);
 */
export const libreOfficeRenderer: Renderer = { name: 'libreoffice', ensure, render };
