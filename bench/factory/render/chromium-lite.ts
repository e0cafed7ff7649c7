/**
 * A small Chromium print for the `scripts` family's tests and debug runs until the builder's own
 * Chromium renderer (`chromium.ts`) is on main: Debian's Chromium through playwright-core, one
 * browser for the batch, each job's HTML printed with its paper, margins and header/footer
 * templates. Once `chromium.ts` lands, the family's test may use that one instead.
 */
import { existsSync } from 'node:fs';
import { ConfigurationError } from '../../../core/errors.ts';
import { runChild } from '../../common/tools.ts';
import type { Renderer } from './types.ts';

const CHROMIUM = '/usr/bin/chromium';
/** Debian's packages: the browser and the Noto fonts the scripts need (Arabic, Hebrew, CJK). */
export const CHROMIUM_PACKAGES = ['chromium', 'fonts-noto-core', 'fonts-noto-cjk'] as const;
const PRINT_LIMIT_MS = 60_000;

async function fontsPresent(): Promise<boolean> {
  const run = await runChild({ command: 'fc-list', args: [':', 'family'] }).catch(() => undefined);
  return run !== undefined && /Noto Naskh Arabic/.test(run.stdout) && /Noto Sans CJK SC/.test(run.stdout);
}

/**
 * @example
 * await chromiumLiteRenderer.ensure(console.error);
 * await chromiumLiteRenderer.render([{ id, source: { renderer: 'chromium', html, print }, pdf }], '/tmp/work', console.error);
 */
export const chromiumLiteRenderer: Renderer = {
  name: 'chromium',
  async ensure(log) {
    if (existsSync(CHROMIUM) && (await fontsPresent())) return;
    const hint = `the factory's scripts are printed by ${CHROMIUM} with Noto fonts: apt-get install -y ${CHROMIUM_PACKAGES.join(' ')}`;
    if (process.getuid?.() !== 0) throw new ConfigurationError('FOLIO_BENCH_TOOL', hint);
    log(`factory: installing ${CHROMIUM_PACKAGES.join(' ')} (apt-get) …`);
    for (const args of [
      ['-o', 'DPkg::Lock::Timeout=600', 'update', '-q'],
      ['-o', 'DPkg::Lock::Timeout=600', 'install', '-y', '-q', '--no-install-recommends', ...CHROMIUM_PACKAGES],
    ]) {
      const run = await runChild({ command: 'apt-get', args, env: { DEBIAN_FRONTEND: 'noninteractive' }, timeoutMs: 1_200_000 });
      if (run.code !== 0) throw new ConfigurationError('FOLIO_BENCH_TOOL', `${hint} (apt-get ${args[2]} failed)`);
    }
  },
  async render(jobs, _workDir, log) {
    const failures = new Map<string, Error>();
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(PRINT_LIMIT_MS);
      // Nothing a document links to is fetched.
      await page.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
      for (const job of jobs) {
        try {
          if (job.source.renderer !== 'chromium') throw new Error(`not a chromium source (${job.source.renderer})`);
          const { html, print } = job.source;
          await page.setContent(html, { waitUntil: 'load', timeout: PRINT_LIMIT_MS });
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
          const failure = new Error(`${job.id}: ${error instanceof Error ? error.message : String(error)}`);
          failures.set(job.id, failure);
          log(`factory: ${failure.message}`);
        }
      }
    } finally {
      await browser.close();
    }
    return failures;
  },
};
