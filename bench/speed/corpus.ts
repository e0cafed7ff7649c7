/** Long PDFs `folio bench speed` joins from a set's documents. */
import path from 'node:path';
import { requireTool, runChild } from '../common/tools.ts';
import type { QualityDocument } from '../quality/types.ts';

/**
 * One PDF of at least `pages` pages: the documents joined in order, over and over, by poppler's
 * `pdfunite`; resolves to its path and the pages it really has.
 *
 * @example
 * await joinPdfs(documents, 1600, '/tmp') // { file: '/tmp/long-1612p.pdf', pages: 1612 }
 */
export async function joinPdfs(documents: readonly QualityDocument[], pages: number, under: string): Promise<{ file: string; pages: number }> {
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
  return { file: target, pages: total };
}
