/**
 * Embedding throughput per device without Elasticsearch or PDFs, for machines that only carry
 * the repository (the GPU machine): the texts are paragraphs of the repository's own docs.
 *
 *   node bench/retrieval/device-throughput.ts --devices cpu,webgpu [--chunks 512] [--batch-size 32]
 */

import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { Device } from '../../inference/index.ts';
import { markdownTable } from '../common/markdown-table.ts';
import { measureThroughput } from './throughput.ts';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: 'cpu' },
    chunks: { type: 'string', default: '512' },
    'batch-size': { type: 'string', default: '32' },
    out: { type: 'string', default: 'bench/results/embed-devices.md' },
  },
});
const paragraphs: string[] = [];
for (const file of ['README.md', 'training/README.md', 'bench/README.md', 'mappings/README.md']) {
  const text = await readFile(file, 'utf8').catch(() => '');
  paragraphs.push(
    ...text
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter((p) => p.length > 80),
  );
}
const texts = Array.from({ length: Number(values.chunks) }, (_, i) => paragraphs[i % paragraphs.length]!);
const rows: (string | number)[][] = [];
for (const device of values.devices.split(',') as Device[]) {
  const result = await measureThroughput({ texts, device, batchSize: Number(values['batch-size']) });
  rows.push([device, result.batchSize, result.chunks, result.chunksPerSecond?.toFixed(1) ?? 'n/a', result.error ?? '']);
  console.log(JSON.stringify(result));
}
let gpu = 'none';
try {
  gpu = execFileSync('nvidia-smi', ['--query-gpu=name,driver_version', '--format=csv,noheader'], { encoding: 'utf8' }).trim();
} catch {}
const md = [
  '# Embedding throughput per device',
  '',
  `all-MiniLM-L6-v2 (int8 ONNX), ${texts.length} paragraphs of the repository's docs, median of 3 passes after a warm-up. Machine: ${os.cpus()[0]?.model} × ${os.cpus().length}, GPU: ${gpu}, Node ${process.version}.`,
  '',
  markdownTable(['device', 'batch', 'chunks', 'chunks/s', 'error'], rows),
  '',
].join('\n');
await mkdir('bench/results', { recursive: true });
await writeFile(values.out, md);
console.log(md);
