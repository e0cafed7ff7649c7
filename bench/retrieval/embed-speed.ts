/**
 * Where embedding time goes, on the chunks ingest really produces: PDFs read with the text layer,
 * chunked in the model's own tokens, then embedded under several settings side by side (each
 * setting measured in turn, round after round, so load from other work falls on all of them).
 *
 *   npx node bench/retrieval/embed-speed.ts [--dir DIR ...] [--rounds 3] [--model DIR]
 *     [--settings 'batch=32,tokens=1000000,threads=0;tokens=512,threads=1']
 *
 * Prints the chunks' token lengths, then per setting: chunks/s (median round), chunks per
 * CPU-second, ms per chunk by step (tokenise, pad, run, pool) and the padding share.
 */
import { parseArgs } from 'node:util';
import { createLocalEmbedder, DEFAULT_MODEL_DIR } from '../../inference/embed/index.ts';
import { pipelineChunks } from '../../retrieval/langchain/pipeline-source.ts';
import { markdownTable } from '../common/markdown-table.ts';
import type { ThroughputOptions, ThroughputResult } from './throughput.ts';
import { measureThroughput } from './throughput.ts';

const { values } = parseArgs({
  options: {
    dir: { type: 'string', multiple: true, default: ['../shared/data/docling-dev/pdf', '../shared/data/olmocr-bench-dev/pdfs'] },
    rounds: { type: 'string', default: '3' },
    model: { type: 'string', default: DEFAULT_MODEL_DIR },
    // Before this work: 32 texts a pass whatever their length, onnxruntime's thread default.
    settings: {
      type: 'string',
      default: 'batch=32,tokens=1000000,threads=0;tokens=256;tokens=512;tokens=1024;tokens=512,threads=1;tokens=512,threads=2,spin=0',
    },
  },
});

type Setting = Pick<ThroughputOptions, 'batchSize' | 'batchTokens' | 'threads' | 'spinning'> & { readonly label: string };

function parseSetting(text: string): Setting {
  const fields = Object.fromEntries(text.split(',').map((pair) => pair.split('=') as [string, string]));
  const number = (key: string) => (fields[key] === undefined ? undefined : Number(fields[key]));
  return {
    label: text,
    ...(number('batch') === undefined ? {} : { batchSize: number('batch')! }),
    ...(number('tokens') === undefined ? {} : { batchTokens: number('tokens')! }),
    ...(number('threads') === undefined ? {} : { threads: number('threads')! }),
    ...(fields['spin'] === undefined ? {} : { spinning: fields['spin'] !== '0' }),
  };
}

const settings = values.settings.split(';').map(parseSetting);
const counter = await createLocalEmbedder({ modelDir: values.model });
const texts: string[] = [];
const lengths: number[] = [];
for (const dir of values.dir) {
  for await (const chunk of pipelineChunks(dir, {
    engine: 'text',
    maxTokens: counter.maxTokens,
    countTokens: (text) => counter.countTokens(text),
    onFailure: () => {},
  })) {
    texts.push(chunk.text);
    lengths.push(Math.min(counter.maxTokens, counter.countTokens(chunk.text)));
  }
}
await counter.close();
lengths.sort((a, b) => a - b);
const quantile = (q: number) => lengths[Math.floor(q * (lengths.length - 1))] ?? 0;
const mean = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
console.log(
  `${texts.length} chunks from ${values.dir.join(', ')}; tokens per chunk (after truncation) p10 ${quantile(0.1)}, p50 ${quantile(0.5)}, p90 ${quantile(0.9)}, max ${quantile(1)}, mean ${mean.toFixed(0)}`,
);

const results = new Map<string, ThroughputResult[]>(settings.map((s) => [s.label, []]));
for (let round = 0; round < Number(values.rounds); round++) {
  for (const { label, ...setting } of settings) {
    const result = await measureThroughput({ texts, modelDir: values.model, passes: 1, ...setting });
    if (result.error) throw new Error(`${label}: ${result.error}`);
    results.get(label)!.push(result);
  }
}
const rows = settings.map(({ label }) => {
  const runs = [...results.get(label)!].sort((a, b) => a.chunksPerSecond! - b.chunksPerSecond!);
  const median = runs[Math.floor(runs.length / 2)]!;
  const b = median.breakdown!;
  return [
    label,
    median.chunksPerSecond!.toFixed(1),
    median.chunksPerCpuSecond!.toFixed(1),
    b.tokenizeMs.toFixed(2),
    b.padMs.toFixed(2),
    b.runMs.toFixed(2),
    b.poolMs.toFixed(2),
    `${(100 * b.padding).toFixed(1)}%`,
    b.batches,
  ];
});
console.log(
  markdownTable(
    ['setting', 'chunks/s (median round)', 'chunks/CPU-s', 'tokenise ms/chunk', 'pad ms/chunk', 'run ms/chunk', 'pool ms/chunk', 'padding', 'passes'],
    rows,
  ),
);
