/** Page count of a PDF through poppler's `pdfinfo` (1 when it cannot tell: only pages/s depends on it). */
import { runChild } from '../../common/tools.ts';

export async function pageCount(pdf: string): Promise<number> {
  const run = await runChild({ command: 'pdfinfo', args: [pdf], timeoutMs: 30_000 }).catch(() => undefined);
  const pages = Number(/^Pages:\s+(\d+)/m.exec(run?.stdout ?? '')?.[1]);
  return Number.isInteger(pages) && pages > 0 ? pages : 1;
}

/** Read a file or '' when it is missing: a missing output scores as empty output. */
export async function readOutput(file: string): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  return readFile(file, 'utf8').catch(() => '');
}
