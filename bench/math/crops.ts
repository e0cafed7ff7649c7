/**
 * Real formula crops for `folio bench math`: the boxes of `olmocr-crops.json` cut from olmOCR-Bench
 * dev pages (`../shared/data`, rendered here by pdftoppm at the file's dpi; nothing is copied into
 * the repository), with the LaTeX each shows. The boxes stand in for a formula detector, which
 * Folio does not have yet: the figure measures the reader, not the finding.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../../core/errors.ts';
import type { PageImage } from '../../inference/engine.ts';
import { loadPageImage } from '../../inference/onnx/image-file.ts';

export const OLMOCR_CROPS = fileURLToPath(new URL('./olmocr-crops.json', import.meta.url));
export const OLMOCR_PDFS = fileURLToPath(new URL('../../../shared/data/olmocr-bench-dev/pdfs/', import.meta.url));

export interface FormulaCropCase {
  readonly pdf: string;
  readonly latex: string;
  /** One of the dataset's math tests (scored with its semantics too). */
  readonly test: boolean;
  readonly image: PageImage;
}

function cut(page: PageImage, [x0, y0, x1, y1]: readonly number[]): PageImage {
  const w = x1! - x0!,
    h = y1! - y0!;
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data[y * w + x] = page.data[((y + y0!) * page.width + x + x0!) * page.channels]!;
  return { ...page, data, width: w, height: h, channels: 1 };
}

/** The crops, or an empty list when the dev PDFs are not beside the checkout. */
export async function loadFormulaCrops(pdfDir: string = OLMOCR_PDFS, specFile: string = OLMOCR_CROPS): Promise<FormulaCropCase[]> {
  const spec = JSON.parse(await readFile(specFile, 'utf8')) as { dpi: number; crops: { pdf: string; box: number[]; latex: string; test: boolean }[] };
  const dir = await mkdtemp(join(tmpdir(), 'folio-math-'));
  try {
    const pages = new Map<string, PageImage>();
    const out: FormulaCropCase[] = [];
    for (const c of spec.crops) {
      if (!pages.has(c.pdf)) {
        const prefix = join(dir, `p${pages.size}`);
        try {
          execFileSync('pdftoppm', ['-r', String(spec.dpi), '-f', '1', '-l', '1', '-gray', '-png', join(pdfDir, c.pdf), prefix], { stdio: 'pipe' });
        } catch (cause) {
          if ((cause as NodeJS.ErrnoException).code === 'ENOENT')
            throw new ConfigurationError('FOLIO_BENCH_TOOL', 'bench math: pdftoppm (poppler-utils) is needed to render the dev pages', { cause });
          return [];
        }
        pages.set(c.pdf, await loadPageImage({ path: `${prefix}-1.png`, pageNumber: 1 }));
      }
      out.push({ pdf: c.pdf, latex: c.latex, test: c.test, image: cut(pages.get(c.pdf)!, c.box) });
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
