/**
 * Render formulas with KaTeX in a real Chromium and read back their glyphs, as the olmOCR-Bench
 * math test does: KaTeX's HTML output (from the npm package, so the same version as the MathML
 * test), its CSS and fonts served from `node_modules/katex/dist` through request interception (no
 * network), every formula of a batch on one page, one browser launch per batch.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import katex from 'katex';
import { CALIBRATION } from './delimiters.ts';
import type { Glyph } from './glyph.ts';
import { COLLECT_GLYPHS } from './page-script.ts';

/** Debian's Chromium, as the tests and the table set use it. */
export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A made-up origin the page is served from; requests to it are answered from KaTeX's dist folder. */
const ORIGIN = 'http://katex.folio.invalid';

const KATEX_DIST = path.dirname(createRequire(import.meta.url).resolve('katex/dist/katex.min.css'));

const TYPES: Readonly<Record<string, string>> = { '.css': 'text/css', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf' };

/** KaTeX's HTML for a formula in display mode, or undefined when KaTeX rejects it. */
function katexHtml(latex: string): string | undefined {
  try {
    return katex.renderToString(latex, { output: 'html', throwOnError: true, displayMode: true, strict: 'ignore' });
  } catch {
    return undefined;
  }
}

function pageHtml(bodies: readonly string[]): string {
  const calibration = CALIBRATION.map((c) => `<div class="calibration" data-char="${c.char}">${katexHtml(c.latex) ?? ''}</div>`).join('\n');
  const boxes = bodies.map((b, i) => `<div class="formula" data-i="${i}">${b}</div>`).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="${ORIGIN}/katex.min.css"><style>body{margin:0;font-size:20px}.formula{padding:4px 8px;width:max-content}</style></head><body>${calibration}\n${boxes}</body></html>`;
}

export interface RenderedGlyphs {
  /** Glyphs per formula, in the order given; `null` where KaTeX rejects the formula. */
  readonly glyphs: readonly (readonly Glyph[] | null)[];
}

/**
 * Render formulas in Chromium and collect their glyphs. Throws when the browser cannot start
 * (callers fall back to the MathML test and say so).
 *
 * @example
 * const { glyphs } = await renderGlyphs(['x^2', 'x_2'])
 */
export async function renderGlyphs(formulas: readonly string[], executablePath = CHROMIUM): Promise<RenderedGlyphs> {
  if (formulas.length === 0) return { glyphs: [] };
  if (!existsSync(executablePath)) throw new Error(`${executablePath} is missing (apt-get install -y chromium)`);
  const html = formulas.map(katexHtml);
  const { chromium } = await import('playwright-core');
  const profile = await mkdtemp(path.join(tmpdir(), 'folio-katex-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: ARGS, viewport: { width: 1600, height: 1000 } });
  try {
    const document = pageHtml(html.map((h) => h ?? ''));
    await context.route(`${ORIGIN}/**`, async (route) => {
      const name = new URL(route.request().url()).pathname.slice(1);
      if (name === 'index.html') return route.fulfill({ contentType: 'text/html', body: document });
      const file = path.join(KATEX_DIST, path.normalize(name));
      if (!file.startsWith(KATEX_DIST) || !existsSync(file)) return route.fulfill({ status: 404, body: '' });
      return route.fulfill({ contentType: TYPES[path.extname(file)] ?? 'application/octet-stream', body: await readFile(file) });
    });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${ORIGIN}/index.html`, { waitUntil: 'load', timeout: 120_000 });
    // A page that never settles (a font that never loads) must not hang the bench: the caller
    // then falls back to MathML.
    const limitMs = 60_000 + 20 * formulas.length;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the glyph page did not finish within ${limitMs / 1000} s`)), limitMs);
    });
    const collected = (await Promise.race([page.evaluate(COLLECT_GLYPHS), timeout]).finally(() => clearTimeout(timer))) as (Glyph[] | null)[];
    return { glyphs: collected.map((g, i) => (html[i] === undefined ? null : g)) };
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}
