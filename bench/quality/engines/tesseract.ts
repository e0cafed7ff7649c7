/**
 * Tesseract 5 on scanned sets: each page rendered by poppler's `pdftoppm` at 300 dpi (grey), read
 * with `--psm 1` (automatic page segmentation with orientation detection), one thread, pages joined.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildRun } from '../../common/tools.ts';
import { hasTool, measured, runChild, TESSERACT_ENV } from '../../common/tools.ts';
import type { QualityDocument, QualityEngine } from '../types.ts';

export const tesseractEngine: QualityEngine = {
  name: 'tesseract',
  kind: 'baseline',
  scansOnly: true,
  async prepare() {
    if (!(await hasTool('tesseract'))) return 'tesseract is not installed (apt-get install tesseract-ocr)';
    return (await hasTool('pdftoppm')) ? undefined : 'pdftoppm is not installed (apt-get install poppler-utils)';
  },
  async version() {
    const run = await runChild({ command: 'tesseract', args: ['--version'] });
    return (run.stdout || run.stderr).split('\n')[0]!.trim();
  },
  async convert(documents: readonly QualityDocument[], out: string) {
    const failures: string[] = [];
    const runs: ChildRun[] = [];
    const start = performance.now();
    for (const doc of documents) {
      const dir = await mkdtemp(path.join(tmpdir(), 'folio-tess-'));
      try {
        const render = await runChild({
          command: 'pdftoppm',
          args: ['-r', '300', '-gray', '-png', doc.pdf, path.join(dir, 'p')],
          timeoutMs: 300_000,
          measureMemory: true,
        });
        runs.push(render);
        if (render.code !== 0) throw new Error(`pdftoppm: ${render.stderr.trim()}`);
        const pages = (await readdir(dir)).filter((f) => f.endsWith('.png')).sort();
        const texts: string[] = [];
        for (const page of pages) {
          const run = await runChild({
            command: 'tesseract',
            args: [path.join(dir, page), 'stdout', '-l', 'eng', '--psm', '1'],
            env: TESSERACT_ENV,
            timeoutMs: 300_000,
            measureMemory: true,
          });
          runs.push(run);
          texts.push(run.stdout.trim());
        }
        const target = path.join(out, `${doc.name}.md`);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, `${texts.join('\n\n')}\n`);
      } catch (error) {
        failures.push(`${doc.name}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    return { wallMs: performance.now() - start, failures, ...measured(runs) };
  },
};
