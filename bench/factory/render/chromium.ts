/**
 * Chromium's print-to-PDF (Debian's `chromium` through playwright-core): HTML with CSS paged media,
 * `@page` margin boxes for running heads and page numbers, printed as a browser prints a report.
 * One browser for the whole batch.
 */
import { existsSync } from 'node:fs';
import { describeError } from '../../../core/errors.ts';
import { runChild } from '../../common/tools.ts';
import { aptEnsure } from './apt.ts';
import type { Renderer, RenderJob } from './types.ts';

const CHROMIUM = '/usr/bin/chromium';
/** A page that takes longer than this to print is a broken document, not a slow one. */
const PRINT_TIMEOUT_MS = 60_000;

/** Debian's browser and the fonts every Chromium family names (Latin, Arabic, Hebrew, CJK). */
export const CHROMIUM_PACKAGES = ['chromium', 'fonts-dejavu-core', 'fonts-liberation2', 'fonts-noto-core', 'fonts-noto-cjk'] as const;

async function fontsPresent(): Promise<boolean> {
  const run = await runChild({ command: 'fc-list', args: [':', 'family'] }).catch(() => undefined);
  return run !== undefined && /Liberation Serif/.test(run.stdout) && /Noto Naskh Arabic/.test(run.stdout) && /Noto Sans CJK SC/.test(run.stdout);
}

export const chromiumRenderer: Renderer = {
  name: 'chromium',
  async ensure(log) {
    await aptEnsure(CHROMIUM, CHROMIUM_PACKAGES, log, async () => existsSync(CHROMIUM) && (await fontsPresent()));
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
          // A string, not a function: this module is type-checked without the DOM's types.
          await page.evaluate('document.fonts.ready.then(() => true)');
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
