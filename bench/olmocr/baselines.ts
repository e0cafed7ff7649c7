/**
 * Peer engines run in the same bench as Folio: `pdftotext` (poppler, the text layer) and
 * `tesseract` (OCR on pages rendered by poppler's `pdftoppm`). Each writes `<out>/<pdf path
 * without .pdf>.md`, the naming `folio convert` uses, so one scorer reads them all.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { requireTool, runChild, TESSERACT_ENV } from '../common/tools.ts';

export const BASELINE_ENGINES = ['pdftotext', 'tesseract'] as const;
export type BaselineEngine = (typeof BASELINE_ENGINES)[number];

export interface BaselineConvertOptions {
  readonly engine: BaselineEngine;
  /** PDF paths relative to `pdfs`. */
  readonly files: readonly string[];
  readonly pdfs: string;
  readonly out: string;
  /**
   * Render resolution for tesseract.
   * @default 200
   */
  readonly dpi?: number;
}

export interface BaselineConvertResult {
  readonly wallMs: number;
  readonly failures: readonly { readonly file: string; readonly reason: string }[];
}

async function tesseractPdf(pdf: string, dpi: number): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-tess-'));
  try {
    const render = await runChild({ command: 'pdftoppm', args: ['-r', String(dpi), '-png', pdf, path.join(dir, 'page')] });
    if (render.code !== 0) throw new Error(`pdftoppm failed: ${render.stderr.trim()}`);
    const pages = (await readdir(dir)).filter((f) => f.endsWith('.png')).sort();
    const texts: string[] = [];
    for (const page of pages) {
      const ocr = await runChild({ command: 'tesseract', args: [path.join(dir, page), '-', '-l', 'eng'], env: TESSERACT_ENV });
      if (ocr.code !== 0) throw new Error(`tesseract failed: ${ocr.stderr.trim()}`);
      texts.push(ocr.stdout);
    }
    return texts.join('\n\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Convert PDFs with a baseline tool. A PDF that fails is listed, not fatal.
 *
 * @example
 * await convertWithBaseline({ engine: 'pdftotext', files: ['a.pdf'], pdfs: 'pdfs', out: 'out' })
 */
export async function convertWithBaseline({ engine, files, pdfs, out, dpi = 200 }: Readonly<BaselineConvertOptions>): Promise<BaselineConvertResult> {
  await requireTool(engine === 'pdftotext' ? 'pdftotext' : 'tesseract');
  if (engine === 'tesseract') await requireTool('pdftoppm');
  const failures: { file: string; reason: string }[] = [];
  const start = performance.now();
  for (const file of files) {
    const target = path.join(out, `${file.replace(/\.pdf$/i, '')}.md`);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      if (engine === 'pdftotext') {
        const result = await runChild({ command: 'pdftotext', args: ['-enc', 'UTF-8', path.join(pdfs, file), target] });
        if (result.code !== 0) throw new Error(result.stderr.trim() || `exit ${result.code}`);
      } else {
        await writeFile(target, await tesseractPdf(path.join(pdfs, file), dpi));
      }
    } catch (error) {
      failures.push({ file, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { wallMs: performance.now() - start, failures };
}
