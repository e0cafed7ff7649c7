/** `bench/results/retrieval.md`: the figures with what they were measured on. */
import { markdownTable } from '../common/index.ts';
import type { ModeResult } from './index.ts';
import type { RetrievalQuestion } from './questions.ts';
import type { ThroughputResult } from './throughput.ts';

export interface RetrievalReportInput {
  readonly k: number;
  readonly corpus: { readonly documents: number; readonly chunks: number };
  readonly questions: readonly RetrievalQuestion[];
  readonly quality?: readonly ModeResult[];
  readonly throughput: readonly ThroughputResult[];
  readonly machine: string;
  readonly pdfDir: string;
  /** e.g. `all-minilm-l6-v2 (int8 ONNX, 384 dims, 256 tokens)`. */
  readonly model: string;
  /** 1-minute load average when the throughput run started: other work on the machine slows it. */
  readonly loadAverage: number;
}

const f3 = (x: number) => x.toFixed(3);

export function retrievalMarkdown(input: Readonly<RetrievalReportInput>): string {
  const { k, corpus, questions, quality, throughput, machine, pdfDir, model, loadAverage } = input;
  const lexical = questions.filter((q) => q.style === 'lexical').length;
  const out: string[] = [
    '# Retrieval bench',
    '',
    `Corpus: ${corpus.documents} documents, ${corpus.chunks} chunks from \`${pdfDir}\` (text layer, Folio's chunker), embedded with ${model}. ` +
      `${questions.length} hand-written questions (${lexical} reuse the page's words, ${questions.length - lexical} paraphrase them), each with the page(s) that answer it (bench/retrieval/questions.ts). ` +
      `A question counts as answered at rank r when the r-th chunk lies on a relevant page.`,
    '',
  ];
  if (quality) {
    out.push(`## Quality (recall@${k}, MRR over the top 10)`, '');
    out.push(
      markdownTable(
        ['mode', `recall@${k}`, 'MRR', `recall@${k} lexical`, 'MRR lexical', `recall@${k} paraphrase`, 'MRR paraphrase'],
        quality.map((m) => [m.mode, f3(m.recallAtK), f3(m.mrr), f3(m.lexical.recallAtK), f3(m.lexical.mrr), f3(m.paraphrase.recallAtK), f3(m.paraphrase.mrr)]),
      ),
    );
    out.push('', 'Hybrid = BM25 and kNN lists (50 deep each) fused by reciprocal rank fusion in Folio (k = 60).', '');
    out.push('<details><summary>First relevant rank per question (— = not in the top 10)</summary>', '');
    out.push(
      markdownTable(
        ['question', ...quality.map((m) => m.mode)],
        questions.map((q, i) => [q.question, ...quality.map((m) => m.ranks[i] ?? '—')]),
      ),
    );
    out.push('', '</details>', '');
  }
  out.push('## Embedding throughput', '');
  out.push(
    markdownTable(
      ['device', 'batch', 'chunks', 'chunks/s (median of 3)', 'chunks/CPU-s', 'run ms/chunk', 'padding', 'model load (ms)', 'note'],
      throughput.map((t) => [
        t.device,
        t.batchSize,
        t.chunks,
        t.chunksPerSecond === undefined ? '—' : t.chunksPerSecond.toFixed(1),
        t.chunksPerCpuSecond === undefined ? '—' : t.chunksPerCpuSecond.toFixed(1),
        t.breakdown === undefined ? '—' : t.breakdown.runMs.toFixed(1),
        t.breakdown === undefined ? '—' : `${(100 * t.breakdown.padding).toFixed(1)}%`,
        t.loadMs === undefined ? '—' : t.loadMs.toFixed(0),
        t.error ?? '',
      ]),
    ),
  );
  out.push('', `1-minute load average when the throughput run started: ${loadAverage.toFixed(1)} (CPU figures fall when other work shares the machine).`);
  out.push(
    '',
    "On the GPU machine: `npx folio bench retrieval --devices cpu,webgpu --throughput-only` writes `retrieval-throughput.md` (WebGPU through onnxruntime-node's WebGPU execution provider; it needs libvulkan1 and the GPU's Vulkan driver).",
    '',
  );
  out.push(machine, '');
  return out.join('\n');
}
