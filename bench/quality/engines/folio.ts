/** Folio itself through its CLI (`folio convert --engine E`), one child process per set. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measured, runChild } from '../../common/tools.ts';
import { commonRoot } from '../../olmocr/runner.ts';
import type { QualityDocument, QualityEngine } from '../types.ts';

const CLI = fileURLToPath(new URL('../../../bin/folio.ts', import.meta.url));
const PACKAGE = fileURLToPath(new URL('../../../package.json', import.meta.url));

/**
 * Folio with one `--engine` value.
 * @param engine `folio convert --engine` value. @default 'auto'
 */
export function folioEngine(engine = 'auto'): QualityEngine {
  return {
    name: `folio-${engine}`,
    kind: 'folio',
    prepare: async () => undefined,
    async version() {
      const { readFile } = await import('node:fs/promises');
      return `folio ${(JSON.parse(await readFile(PACKAGE, 'utf8')) as { version: string }).version} --engine ${engine}`;
    },
    async convert(documents: readonly QualityDocument[], out: string) {
      // `folio convert` names each output after the PDF's path below the inputs' common folder.
      const root = commonRoot(documents.map((d) => `${d.name}.pdf`));
      const target = path.join(out, root);
      await mkdir(target, { recursive: true });
      const run = await runChild({
        command: process.execPath,
        args: [CLI, 'convert', ...documents.map((d) => d.pdf), '--out-dir', target, '--engine', engine, '--quiet'],
        measureMemory: true,
      });
      const failures = run.code === 0 ? [] : [`folio convert exited ${run.code}: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`];
      return { wallMs: run.wallMs, failures, ...measured([run]) };
    },
  };
}
