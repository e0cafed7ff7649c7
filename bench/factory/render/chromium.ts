/**
 * Chromium's print-to-PDF (Debian's `chromium` through playwright-core): HTML with CSS paged media,
 * `@page` margin boxes for running heads and page numbers, printed as a browser prints a report.
 * One browser for the whole batch.
 */
import { existsSync } from 'node:fs';
import { ConfigurationError, describeError } from '../../../core/errors.ts';
import { runChild } from '../../common/tools.ts';
import type { Renderer, RenderJob } from './types.ts';

const CHROMIUM = '/usr/bin/chromium';
/** A page that takes longer than this to print is a broken document, not a slow one. */
const PRINT_TIMEOUT_MS = 60_000;

/** Install Debian's packages where missing when this user may (root, as on CI). */
export async function aptInstall(packages: readonly string[], why: string, log: (line: string) => void): Promise<void> {
  if (process.getuid?.() !== 0) throw new ConfigurationError('FOLIO_BENCH_TOOL', `${why}: apt-get install -y ${packages.join(' ')}`);
  log(`factory: installing ${packages.join(' ')} (apt-get) …`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-q'],
    ['install', '-y', '-q', '--no-install-recommends', ...packages],
  ]) {
    const run = await runChild({ command: 'apt-get', args, env, timeoutMs: 1_200_000 });
    if (run.code !== 0)
      throw new ConfigurationError(
        'FOLIO_BENCH_TOOL',
        `${why}: apt-get ${args[0]} failed (${run.stderr.trim().split('\n').at(-1)}); install ${packages.join(' ')}`,
      );
  }
}

/** Fonts every Chromium family may name; the families fall back to DejaVu where one is missing. */
const FONT_PACKAGES = ['fonts-dejavu-core', 'fonts-liberation2', 'fonts-noto-core', 'fonts-noto-cjk'];

export const chromiumRenderer: Renderer = {
  name: 'chromium',
  async ensure(log) {
    const missingFonts = !existsSync('/usr/share/fonts/truetype/liberation2') || !existsSync('/usr/share/fonts/truetype/noto');
    if (existsSync(CHROMIUM) && !missingFonts) return;
    await aptInstall(existsSync(CHROMIUM) ? FONT_PACKAGES : ['chromium', ...FONT_PACKAGES], "the factory prints HTML documents with Debian's chromium", log);
    if (!existsSync(CHROMIUM)) throw new ConfigurationError('FOLIO_BENCH_TOOL', `the factory needs ${CHROMIUM}: apt-get install -y chromium`);
  },
  async render(jobs: readonly RenderJob[], _workDir, log) {
    const failures = new Map<string, Error>();
    if (jobs.length === 0) return failures;
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
    try {
      const context = await browser.newContext({ offline: true });
      // Nothing a document links to is fetched: every resource is inline.
      await context.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
      const page = await context.newPage();
      page.setDefaultTimeout(PRINT_TIMEOUT_MS);
      for (const job of jobs) {
        if (job.source.renderer !== 'chromium') {
          failures.set(job.id, new Error(`not a Chromium source (${job.source.renderer})`));
          continue;
        }
        const { html, print } = job.source;
        try {
          await page.setContent(html, { waitUntil: 'load' });
          const templates = print.headerTemplate !== undefined || print.footerTemplate !== undefined;
          await page.pdf({
            path: job.pdf,
            format: print.format,
            landscape: print.landscape ?? false,
            margin: print.margin,
            printBackground: true,
            displayHeaderFooter: templates,
            headerTemplate: print.headerTemplate ?? '<span></span>',
            footerTemplate: print.footerTemplate ?? '<span></span>',
          });
        } catch (error) {
          failures.set(job.id, new Error(`chromium could not print ${job.id}: ${describeError(error)}`));
          log(`factory: ${job.id}: ${describeError(error)}`);
        }
      }
    } finally {
      await browser.close();
    }
    return failures;
  },
};
