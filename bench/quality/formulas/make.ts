/**
 * Typeset the pages of `--set formulas` (`pages.ts`) with pdflatex into `.cache/quality/formulas/`:
 * `pdf/<name>.pdf` and `truth/<name>.json` (the formulas as typeset). Rebuilt when the pages change
 * (a hash of their sources is kept beside them). Needs `apt-get install texlive-latex-base
 * texlive-latex-recommended texlive-fonts-recommended`; runs offline.
 *
 *     node bench/quality/formulas/make.ts
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigurationError } from '../../../core/errors.ts';
import { hasTool, runChild } from '../../common/tools.ts';
import { CACHE_DIR } from '../engines/cache.ts';
import { type FormulaPage, formulaPages, pageSource } from './pages.ts';

export const FORMULAS_DIR = path.join(CACHE_DIR, 'formulas');

export interface FormulaSetFiles {
  readonly dir: string;
  readonly pages: readonly FormulaPage[];
}

/**
 * The typeset pages, made when missing or stale; a ConfigurationError when pdflatex is missing
 * or fails (naming the page and pdflatex's first error line).
 */
export async function ensureFormulaPages(dir = FORMULAS_DIR): Promise<FormulaSetFiles> {
  const pages = await formulaPages();
  const sources = pages.map((p) => ({ page: p, tex: pageSource(p) }));
  const hash = createHash('sha256')
    .update(sources.map((s) => s.tex).join('\0'))
    .digest('hex');
  const stamp = path.join(dir, 'sources.sha256');
  if ((await readFile(stamp, 'utf8').catch(() => '')) === hash) return { dir, pages };
  if (!(await hasTool('pdflatex')))
    throw new ConfigurationError(
      'FOLIO_BENCH_TOOL',
      'the formulas set needs pdflatex: apt-get install texlive-latex-base texlive-latex-recommended texlive-fonts-recommended',
    );
  await rm(dir, { recursive: true, force: true });
  for (const sub of ['tex', 'pdf', 'truth']) await mkdir(path.join(dir, sub), { recursive: true });
  for (const { page, tex } of sources) {
    await writeFile(path.join(dir, 'tex', `${page.name}.tex`), tex);
    const run = await runChild({
      command: 'pdflatex',
      args: ['-interaction=nonstopmode', '-halt-on-error', '-output-directory', path.join(dir, 'pdf'), path.join(dir, 'tex', `${page.name}.tex`)],
      timeoutMs: 60_000,
    });
    if (run.code !== 0) {
      const error = run.stdout.split('\n').find((l) => l.startsWith('!')) ?? `exit ${run.code}`;
      throw new ConfigurationError('FOLIO_BENCH_TOOL', `pdflatex failed on ${page.name}.tex: ${error}`);
    }
    await writeFile(path.join(dir, 'truth', `${page.name}.json`), `${JSON.stringify(page.formulas, null, 1)}\n`);
  }
  for (const { page } of sources) for (const ext of ['aux', 'log']) await rm(path.join(dir, 'pdf', `${page.name}.${ext}`), { force: true });
  await writeFile(stamp, hash);
  return { dir, pages };
}

if (import.meta.main) {
  const { dir, pages } = await ensureFormulaPages();
  console.error(`formulas: ${pages.length} pages, ${pages.reduce((s, p) => s + p.formulas.length, 0)} formulas in ${dir}`);
}
