/**
 * The pdflatex renderer: each job's `.tex` typeset in its own folder under the work directory,
 * twice where the source refers to pages (`\pageref{LastPage}`), two documents at a time (the
 * machines it runs on have two cores), each run under a time limit.
 */
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigurationError } from '../../../core/errors.ts';
import { hasTool, runChild } from '../../common/tools.ts';
import type { Renderer, RenderJob } from './types.ts';

/** Debian's TeX packages the factory's papers use (lmodern: Computer Modern in T1 as Type 1 fonts, not bitmaps). */
export const PDFLATEX_PACKAGES = ['texlive-latex-base', 'texlive-latex-recommended', 'texlive-latex-extra', 'texlive-fonts-recommended', 'lmodern'] as const;

/** LaTeX packages the papers load beyond the base (one from each Debian package they come from). */
const PAPER_PACKAGES = ['lmodern.sty', 'lastpage.sty', 'fancyhdr.sty', 'booktabs.sty', 'multirow.sty', 'adjustbox.sty', 'mathpazo.sty', 'amsthm.sty'] as const;

/** A run past this is a runaway document (a normal paper takes well under two seconds). */
const RUN_LIMIT_MS = 30_000;
/** Documents typeset at once. */
const CONCURRENCY = 2;

/** A source whose page references need a second run to settle. */
const needsSecondRun = (tex: string): boolean => /\\(?:pageref|ref)\{/.test(tex);

/** Install the TeX packages with apt-get, waiting on another install's lock rather than failing on it. */
async function install(log: (line: string) => void): Promise<void> {
  const hint = `the factory's papers are typeset by pdflatex: apt-get install -y ${PDFLATEX_PACKAGES.join(' ')}`;
  if (process.getuid?.() !== 0) throw new ConfigurationError('FOLIO_BENCH_TOOL', hint);
  log(`factory: installing ${PDFLATEX_PACKAGES.join(' ')} (apt-get) …`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const lock = ['-o', 'DPkg::Lock::Timeout=600'];
  for (const args of [
    [...lock, 'update', '-q'],
    [...lock, 'install', '-y', '-q', '--no-install-recommends', ...PDFLATEX_PACKAGES],
  ]) {
    const run = await runChild({ command: 'apt-get', args, env, timeoutMs: 1_200_000 });
    if (run.code !== 0) throw new ConfigurationError('FOLIO_BENCH_TOOL', `${hint} (apt-get ${args[2]} failed: ${run.stderr.trim().split('\n').at(-1)})`);
  }
}

/** Whether every package the papers load can be found (pdflatex alone is not enough: lmodern, lastpage …). */
async function complete(): Promise<boolean> {
  if (!(await hasTool('pdflatex'))) return false;
  const run = await runChild({ command: 'kpsewhich', args: [...PAPER_PACKAGES] });
  return run.code === 0 && run.stdout.trim().split('\n').length === PAPER_PACKAGES.length;
}

/** Typeset one job; rejects with pdflatex's first error line. */
async function typeset(job: RenderJob, workDir: string): Promise<void> {
  if (job.source.renderer !== 'pdflatex') throw new Error(`${job.id}: not a pdflatex source (${job.source.renderer})`);
  const dir = path.join(workDir, job.id);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const tex = path.join(dir, 'doc.tex');
  await writeFile(tex, job.source.tex);
  const runs = needsSecondRun(job.source.tex) ? 2 : 1;
  for (let i = 0; i < runs; i++) {
    const run = await runChild({
      command: 'pdflatex',
      args: ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', '-output-directory', dir, tex],
      cwd: dir,
      timeoutMs: RUN_LIMIT_MS,
    });
    if (run.code === 124) throw new Error(`${job.id}: pdflatex ran past ${RUN_LIMIT_MS / 1000} s`);
    if (run.code !== 0) {
      const lines = run.stdout.split('\n');
      const at = lines.findIndex((l) => l.startsWith('!'));
      const error =
        at < 0
          ? `exit ${run.code}`
          : lines
              .slice(at, at + 3)
              .join(' ')
              .replace(/\s+/g, ' ');
      throw new Error(`${job.id}: pdflatex failed: ${error}`);
    }
  }
  await mkdir(path.dirname(job.pdf), { recursive: true });
  await copyFile(path.join(dir, 'doc.pdf'), job.pdf);
  await rm(dir, { recursive: true, force: true });
}

/**
 * @example
 * await pdflatexRenderer.ensure(console.error);
 * const failures = await pdflatexRenderer.render([{ id: 'papers-article-000', source: { renderer: 'pdflatex', tex }, pdf: 'out/papers-article-000.pdf' }], '/tmp/work', console.error);
 */
export const pdflatexRenderer: Renderer = {
  name: 'pdflatex',
  async ensure(log) {
    if (await complete()) return;
    await install(log);
    if (!(await complete()))
      throw new ConfigurationError('FOLIO_BENCH_TOOL', `pdflatex or one of its packages is still missing after apt-get install ${PDFLATEX_PACKAGES.join(' ')}`);
  },
  async render(jobs, workDir, log) {
    const failures = new Map<string, Error>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        try {
          await typeset(job, workDir);
        } catch (error) {
          const failure = error instanceof Error ? error : new Error(String(error));
          failures.set(job.id, failure);
          log(`factory: ${failure.message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, jobs.length) }, worker));
    return failures;
  },
};
