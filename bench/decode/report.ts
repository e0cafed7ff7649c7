/** `bench/results/decode.md`: the table and how to read it. */
import os from 'node:os';
import { relative } from 'node:path';
import { machineInfo, machineMarkdown } from '../common/machine.ts';
import { markdownTable, percent } from '../common/markdown-table.ts';
import { referenceComparison } from './reference.ts';
import type { DecodeBenchResult, DecodeRow } from './run.ts';

const order = (r: DecodeRow) => [r.batch, r.graphs === 'steps' ? 0 : 1, r.draft === 'model' ? 0 : 1, r.k];

function compare(a: DecodeRow, b: DecodeRow): number {
  const x = order(a);
  const y = order(b);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/**
 * @example
 * await writeFile('bench/results/decode.md', decodeMarkdown(await measureDecode()));
 */
export function decodeMarkdown(result: DecodeBenchResult): string {
  const rows = result.rows
    .toSorted(compare)
    .map((r) => [
      r.graphs,
      r.draft,
      r.batch,
      r.k === 0 ? 'greedy' : `K=${r.k}`,
      r.medianMs.toFixed(0),
      `${r.decodeMs.toFixed(0)} / ${r.decodeTokensPerSecond.toFixed(0)}`,
      r.tau.toFixed(2),
      r.acceptance.map((a) => percent(a)).join(' / ') || '–',
      `${r.speedup.toFixed(2)}×`,
      `${r.decodeCpuMs.toFixed(0)} / ${r.cpuDecodeSpeedup.toFixed(2)}×`,
      `${r.e2eSpeedup.toFixed(2)}× / ${r.cpuSpeedup.toFixed(2)}×`,
      r.vsContractGreedy === undefined ? '–' : `${r.vsContractGreedy.toFixed(2)}×`,
      String(r.lossless),
      r.sameAsContract === undefined ? '–' : String(r.sameAsContract),
      r.minMargin.toExponential(1),
      `${r.prefillMs.toFixed(1)} / ${r.draftMs.toFixed(1)} / ${r.verifyMs.toFixed(1)}`,
    ]);
  const tokens = result.rows[0]?.tokens ?? 0;
  const pagesDir = relative(process.cwd(), result.pagesDir) || result.pagesDir;
  return [
    `# Decode benchmark: greedy vs FastMTP speculative decoding`,
    '',
    `Model ${result.model}, provider \`${result.device}\`${result.gpu ? ` (${result.gpu})` : ''}, ${result.threads === 0 ? "onnxruntime's default" : result.threads} thread${result.threads === 1 ? '' : 's'}${result.device === 'cpu' ? '' : ' for the CPU sessions (one for those on the GPU and the embedding lookup)'}, fp32, ${result.pages} pages from \`${pagesDir}\` (${tokens} tokens in all), ${result.eos ? `decoded to EOS (budget ${result.budget} tokens, repetition guard on): decoding is lossless, so every configuration commits the same tokens` : `${result.budget} tokens per page (EOS and the repetition guard off)`}; median of ${result.runs} runs after a warm-up, configurations timed in turn; ${result.exact ? 'bit-exact layout' : 'inexact layout (`--inexact`)'}. Load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}.`,
    '',
    markdownTable(
      [
        'graphs',
        'draft head',
        'batch',
        'decoding',
        'ms (median)',
        'decode phase ms / tokens/s',
        'τ',
        'acceptance per draft position',
        'speed-up (decode phase)',
        'decode phase CPU ms / speed-up',
        'speed-up end to end (wall / CPU)',
        'decode phase vs contract greedy',
        'lossless',
        'ids = contract greedy',
        'min top-2 margin',
        'prefill / draft / verify ms per page',
      ],
      rows,
    ),
    '',
    `**${result.summary}**`,
    '',
    ...(result.reference === undefined ? [] : [referenceComparison(result.reference, result.rows).markdown, '']),
    "- `graphs`: `steps` = the optional step graphs (`decoder_step.onnx`, `mtp_step.onnx`: KV caches in fixed buffers updated in place, LM head on the verified rows only, the whole draft in one call, 8-bit draft weights); `contract` = `decoder.onnx` and `mtp.onnx`, which every folio-ocr model has (the engine before issue #5). On a GPU provider the step graphs' KV caches stay in the device's memory between passes (`present.*` fed back as `past_key_values.*`); only logits, hidden rows and draft ids come to the CPU.",
    '- Greedy rows on the step graphs run the model as `--draft-k 0` loads it, without its draft head: decoder passes then fetch no hidden states (only the draft head reads them).',
    '- A batch larger than the number of pages is filled by repeating them (page i of the batch is page i mod n), so it measures a full batch; its ids are checked against page i mod n decoded alone.',
    "- `lossless`: the ids equal greedy decoding's with the same graphs in the same batch, and each page's equal its ids decoded alone, in every timed run. `ids = contract greedy`: the same ids as greedy decoding with the contract graphs (other graphs round differently, so this holds up to near-ties; see `min top-2 margin`).",
    "- Speed-up (decode phase): wall time after the decoder's prefill (the draft head's read of the prompt counts as draft time) against greedy decoding with the same graphs and batch; the summary line's `speedup`. End to end: total wall time, prefill included (`e2e`). The vision encoder is not timed.",
    "- `model` rows use the model's own draft head. `steered` rows (batch 1, a what-if) run the same draft passes but replace the proposals with the greedy answer at a fixed share of positions: the speed-up a draft head with that acceptance would give.",
    '- τ: tokens committed per decoder step (accepted drafts + 1). Acceptance: share of steps whose draft j was accepted.',
    "- CPU time is the process's user + system time over all its threads: on a shared machine it is less disturbed than wall time. Its decode phase is a run's CPU time less that of a prefill-only run (the same pages, stopped after their first token) timed in the same round robin; the summary line's `cpu`.",
    '',
    machineMarkdown(machineInfo()),
    '',
  ].join('\n');
}
