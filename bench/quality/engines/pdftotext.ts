/** poppler's `pdftotext`: the plain text layer, one process per PDF. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ChildRun } from '../../common/tools.ts';
import { hasTool, measured, runChild } from '../../common/tools.ts';
import type { QualityDocument, QualityEngine } from '../types.ts';

export const pdftotextEngine: QualityEngine = {
  name: 'pdftotext',
  kind: 'baseline',
  async prepare() {
    return (await hasTool('pdftotext')) ? undefined : 'pdftotext is not installed (apt-get install poppler-utils)';
  },
  async version() {
    const run = await runChild({ command: 'pdftotext', args: ['-v'] });
    return (run.stderr || run.stdout).split('\n')[0]!.trim();
  },
  async convert(documents: readonly QualityDocument[], out: string) {
    const failures: string[] = [];
    const runs: ChildRun[] = [];
    const start = performance.now();
    for (const doc of documents) {
      const target = path.join(out, `${doc.name}.md`);
      await mkdir(path.dirname(target), { recursive: true });
      const run = await runChild({ command: 'pdftotext', args: ['-enc', 'UTF-8', doc.pdf, target], timeoutMs: 120_000, measureMemory: true });
      runs.push(run);
      if (run.code !== 0) failures.push(`${doc.name}: ${run.stderr.trim() || `exit ${run.code}`}`);
    }
    return { wallMs: performance.now() - start, failures, ...measured(runs) };
  },
};
