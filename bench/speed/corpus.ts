/** The inputs `folio bench speed` makes from a set: the corpus copied under other paths, and long PDFs joined from it. */
import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { requireTool, runChild } from '../common/tools.ts';
import type { QualityDocument } from '../quality/types.ts';

/**
 * A folder holding `copies` copies of `files`, numbered so two files of one name stay two.
 *
 * @example
 * const dir = await copyCorpus(['a.pdf', 'b.pdf'], 4, '/tmp') // dir/copy-1/0-a.pdf …
 */
export async function copyCorpus(files: readonly string[], copies: number, under: string): Promise<string> {
  const dir = await mkdtemp(path.join(under, 'copies-'));
  for (let c = 1; c <= copies; c++) {
    await mkdir(path.join(dir, `copy-${c}`));
    for (const [i, file] of files.entries()) await copyFile(file, path.join(dir, `copy-${c}`, `${i}-${path.basename(file)}`));
  }
  return dir;
}

/**
 * One PDF of at least `pages` pages: the documents joined in order, over and over, by poppler's
 * `pdfunite`. Named `long-<pages>p.pdf` after the pages it really has.
 *
 * @example
 * await joinPdfs(documents, 1600, '/tmp') // '/tmp/long-1612p.pdf'
 */
export async function joinPdfs(documents: readonly QualityDocument[], pages: number, under: string): Promise<string> {
  await requireTool('pdfunite');
  const usable = documents.filter((d) => d.pages > 0);
  if (usable.length === 0) throw new Error('no PDFs with pages to join');
  const parts: string[] = [];
  let total = 0;
  for (let i = 0; total < pages; i++) {
    const doc = usable[i % usable.length]!;
    parts.push(doc.pdf);
    total += doc.pages;
  }
  const target = path.join(under, `long-${total}p.pdf`);
  const run = await runChild({ command: 'pdfunite', args: [...parts, target], timeoutMs: 600_000 });
  if (run.code !== 0) throw new Error(`pdfunite failed: ${run.stderr.trim().split('\n').slice(0, 2).join(' | ')}`);
  return target;
}
