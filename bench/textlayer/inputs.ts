/** The PDFs the text-layer bench reads, with their page counts (from poppler's `pdfinfo`). */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { runChild } from '../common/tools.ts';

export interface BenchPdf {
  readonly path: string;
  readonly pages: number;
}

/** Default corpus: born-digital docling PDFs and the gnarly set, relative to the repository root. */
export const DEFAULT_TEXTLAYER_DIRS: readonly string[] = ['../shared/data/docling-dev/pdf', '../shared/data/gnarly'];

// Needs a password of its own; the bench reads every other file with the same flags.
const SKIP = /password_protected/;

/**
 * Every `.pdf` directly in the folders (sorted), with its page count; files pdfinfo cannot count
 * are left out and returned in `skipped`.
 *
 * @example
 * const { pdfs } = await listBenchPdfs({ dirs: DEFAULT_TEXTLAYER_DIRS })
 */
export async function listBenchPdfs({ dirs }: Readonly<{ dirs: readonly string[] }>): Promise<{ pdfs: BenchPdf[]; skipped: string[] }> {
  const pdfs: BenchPdf[] = [];
  const skipped: string[] = [];
  for (const dir of dirs) {
    const names = (await readdir(dir)).filter((n) => n.toLowerCase().endsWith('.pdf')).sort();
    for (const name of names) {
      const file = path.join(dir, name);
      if (SKIP.test(name)) {
        skipped.push(`${file} (password-protected)`);
        continue;
      }
      const info = await runChild({ command: 'pdfinfo', args: [file] });
      const pages = Number(/^Pages:\s+(\d+)/m.exec(info.stdout)?.[1] ?? Number.NaN);
      if (Number.isFinite(pages) && pages > 0) pdfs.push({ path: file, pages });
      else skipped.push(`${file} (pdfinfo: ${info.stderr.trim().split('\n')[0] ?? 'no page count'})`);
    }
  }
  return { pdfs, skipped };
}
