/**
 * Typeset the heading bench's documents (`documents.ts`) into `.cache/quality/headings/`:
 * pdflatex for the papers (`apt-get install texlive-latex-base texlive-latex-recommended
 * texlive-fonts-recommended`), Debian's Chromium (print-to-PDF through playwright-core) for the
 * web pages. Rebuilt when the sources change (their hash is kept beside them).
 *
 *     node bench/headings/make.ts
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigurationError } from '../../core/errors.ts';
import { hasTool, runChild } from '../common/tools.ts';
import { CACHE_DIR } from '../quality/engines/cache.ts';
import { type HeadingDocument, headingDocuments } from './documents.ts';

export const HEADINGS_DIR = path.join(CACHE_DIR, 'headings');
const CHROMIUM = '/usr/bin/chromium';

async function typeset(doc: HeadingDocument, dir: string): Promise<void> {
  const tex = path.join(dir, `${doc.name}.tex`);
  await writeFile(tex, doc.source);
  const run = await runChild({ command: 'pdflatex', args: ['-interaction=nonstopmode', '-halt-on-error', '-output-directory', dir, tex], timeoutMs: 60_000 });
  if (run.code !== 0) {
    const error = run.stdout.split('\n').find((l) => l.startsWith('!')) ?? `exit ${run.code}`;
    throw new ConfigurationError('FOLIO_BENCH_TOOL', `pdflatex failed on ${doc.name}.tex: ${error}`);
  }
  for (const ext of ['aux', 'log', 'tex']) await rm(path.join(dir, `${doc.name}.${ext}`), { force: true });
}

/** The documents with their PDFs in `dir`, made where missing or stale. */
export async function ensureHeadingDocuments(dir = HEADINGS_DIR): Promise<{ dir: string; documents: HeadingDocument[] }> {
  const documents = headingDocuments();
  const hash = createHash('sha256')
    .update(documents.map((d) => d.source).join('\0'))
    .digest('hex');
  const stamp = path.join(dir, 'sources.sha256');
  if ((await readFile(stamp, 'utf8').catch(() => '')) === hash) return { dir, documents };
  if (!(await hasTool('pdflatex'))) {
    throw new ConfigurationError(
      'FOLIO_BENCH_TOOL',
      'the heading bench needs pdflatex: apt-get install texlive-latex-base texlive-latex-recommended texlive-fonts-recommended',
    );
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const doc of documents) if (doc.kind === 'latex') await typeset(doc, dir);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    const page = await browser.newPage();
    for (const doc of documents.filter((d) => d.kind === 'html')) {
      await page.setContent(doc.source, { waitUntil: 'load' });
      await page.pdf({ path: path.join(dir, `${doc.name}.pdf`), format: 'A4', margin: { top: '20mm', bottom: '20mm', left: '20mm', right: '20mm' } });
    }
  } finally {
    await browser.close();
  }
  await writeFile(stamp, hash);
  return { dir, documents };
}

if (import.meta.main) {
  const { dir, documents } = await ensureHeadingDocuments();
  console.error(`headings: ${documents.length} documents in ${dir}`);
}
