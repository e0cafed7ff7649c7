/**
 * Render the right-to-left test pages (`pages.ts`) to `pdf/<name>.pdf` with pango-view and write
 * `groundtruth/<name>.md`: `node bench/quality/rtl/make.ts` (needs `apt-get install
 * pango1.0-tools fonts-dejavu-core`). The PDFs are committed, so the bench does not need pango.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../../../core/errors.ts';
import { requireTool, runChild } from '../../common/tools.ts';
import { groundTruth, RTL_PAGES } from './pages.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const escapeMarkup = (s: string): string => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** Render every page; resolves to the files written. */
export async function makeRtlPages(): Promise<string[]> {
  await requireTool('pango-view');
  await mkdir(path.join(HERE, 'pdf'), { recursive: true });
  await mkdir(path.join(HERE, 'groundtruth'), { recursive: true });
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'folio-rtl-'));
  const written: string[] = [];
  try {
    for (const page of RTL_PAGES) {
      const markup = [`<span size="x-large" weight="bold">${escapeMarkup(page.title)}</span>`, ...page.paragraphs.map(escapeMarkup)].join('\n\n');
      const input = path.join(tmp, `${page.name}.txt`);
      await writeFile(input, markup);
      const pdf = path.join(HERE, 'pdf', `${page.name}.pdf`);
      const args = [
        '-q',
        '--markup',
        '--font=DejaVu Sans 12',
        '--width=470',
        '--wrap=word',
        '--margin=60',
        ...(page.dir === 'rtl' ? ['--rtl', '--align=right'] : []),
        `--output=${pdf}`,
        input,
      ];
      const run = await runChild({ command: 'pango-view', args });
      if (run.code !== 0) throw new ConfigurationError('FOLIO_BENCH_TOOL', `pango-view failed for ${page.name}: ${run.stderr.trim()}`);
      await writeFile(path.join(HERE, 'groundtruth', `${page.name}.md`), groundTruth(page));
      written.push(pdf);
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return written;
}

if (import.meta.main) console.error(`rtl: wrote ${(await makeRtlPages()).join(', ')}`);
