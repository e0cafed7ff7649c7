/**
 * Where a paddle page's time goes: each page image (rendering excluded) is read by paddle and
 * then by Tesseract, side by side, and the paddle engine's own stage times are printed with the
 * CPU seconds of both, so one run on a shared machine still compares like with like.
 *
 *   npx node bench/ocr/profile.ts [--runs N] [--threads N] [--det-max-side N] [--no-tesseract] [FILE[:PAGE]...]
 *
 * Without files it profiles the docling OCR scans (ocr_test at four rotations and both TIFF
 * pages). Run it under `node --cpu-prof` for a flame graph of the same work.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { PageImage } from '../../inference/engine.ts';
import { createPaddleEngine } from '../../inference/paddle/index.ts';
import { withLayout } from '../../pipeline/layout/index.ts';
import { characterErrorRate } from './cer.ts';
import { pageImages } from './pages.ts';
import { tesseractAvailable, tesseractPage } from './tesseract.ts';

const SCANS = '../shared/data/docling-dev/ocr';
const DEFAULT_FILES = ['ocr_test.pdf', 'ocr_test_rotated_90.pdf', 'ocr_test_rotated_180.pdf', 'ocr_test_rotated_270.pdf', '2206.01062.tif'].map(
  (f) => `${SCANS}/${f}`,
);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '1' },
    threads: { type: 'string', default: '0' },
    'det-max-side': { type: 'string' },
    'no-tesseract': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const detMaxSide = values['det-max-side'] === undefined ? undefined : Number(values['det-max-side']);
const engine = withLayout(await createPaddleEngine({ threads: Number(values.threads), ...(detMaxSide === undefined ? {} : { detMaxSide }) }));
const useTesseract = !values['no-tesseract'] && (await tesseractAvailable());
const expected = await readFile(`${SCANS}/ocr_test.expected.md`, 'utf8');

const pages: PageImage[] = [];
for (const spec of positionals.length > 0 ? positionals : DEFAULT_FILES) {
  const [file, page] = spec.split(/:(?=\d+$)/) as [string, string | undefined];
  pages.push(...(await pageImages(file, page === undefined ? undefined : [Number(page)])));
}

const totals = { paddleMs: 0, paddleCpu: 0, tessMs: 0, tessCpu: 0 };
const stageTotals: Record<string, number> = {};
try {
  for (const image of pages) {
    const name = `${image.source.split('/').pop()}:${image.pageNumber}`;
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      const c0 = process.cpuUsage();
      const [result] = await engine.recognize([image]);
      const ms = performance.now() - t;
      const c1 = process.cpuUsage(c0);
      const cpu = (c1.user + c1.system) / 1000;
      const stats = result?.stats ?? {};
      const stages = Object.entries(stats).filter(([k]) => k.endsWith('Ms') && !['detMs', 'recMs', 'layoutMs'].includes(k));
      for (const [k, v] of stages) stageTotals[k] = (stageTotals[k] ?? 0) + v;
      const cer = image.source.includes('ocr_test') ? characterErrorRate(result?.markdown ?? '', expected).toFixed(3) : '-';
      let tess = '';
      if (useTesseract) {
        const run = await tesseractPage(image);
        totals.tessMs += run.ms;
        totals.tessCpu += run.cpuMs ?? Number.NaN;
        const tcer = image.source.includes('ocr_test') ? characterErrorRate(run.text, expected).toFixed(3) : '-';
        tess = ` | tesseract ${run.ms.toFixed(0)} ms (cpu ${run.cpuMs?.toFixed(0)}) CER ${tcer}`;
      }
      totals.paddleMs += ms;
      totals.paddleCpu += cpu;
      console.log(
        `${name} ${image.width}x${image.height}: paddle ${ms.toFixed(0)} ms (cpu ${cpu.toFixed(0)}) CER ${cer} lines ${stats.lines} rot ${stats.rotation}${tess}`,
      );
      console.log(`  ${stages.map(([k, v]) => `${k.replace(/Ms$/, '')} ${v.toFixed(0)}`).join(', ')}`);
    }
  }
} finally {
  await engine.close();
}
console.log(
  `stage totals ms: ${Object.entries(stageTotals)
    .map(([k, v]) => `${k.replace(/Ms$/, '')} ${v.toFixed(0)}`)
    .join(', ')}`,
);
console.log(
  `paddle ${totals.paddleMs.toFixed(0)} ms (cpu ${totals.paddleCpu.toFixed(0)})${useTesseract ? `; tesseract ${totals.tessMs.toFixed(0)} ms (cpu ${totals.tessCpu.toFixed(0)}); speed ratio paddle/tesseract ${(totals.tessMs / totals.paddleMs).toFixed(2)}x wall, ${(totals.tessCpu / totals.paddleCpu).toFixed(2)}x CPU` : ''}`,
);
