/** `bench/results/decode.md`: the table and how to read it. */
import os from 'node:os';
import { machineInfo, machineMarkdown } from '../common/machine.ts';
import { markdownTable, percent } from '../common/markdown-table.ts';
import type { DecodeBenchResult } from './run.ts';

/**
 * @example
 * await writeFile('bench/results/decode.md', decodeMarkdown(await measureDecode()));
 */
export function decodeMarkdown(result: DecodeBenchResult): string {
  const rows = result.rows.map((r) => [
    r.draft,
    r.batch,
    r.k === 0 ? 'greedy' : `K=${r.k}`,
    r.medianMs.toFixed(1),
    r.tokensPerSecond.toFixed(0),
    r.pagesPerSecond.toFixed(2),
    r.tau.toFixed(2),
    r.acceptance.map((a) => percent(a)).join(' / ') || '–',
    `${r.speedup.toFixed(2)}×`,
    `${r.medianCpuMs.toFixed(1)} / ${r.cpuSpeedup.toFixed(2)}×`,
    String(r.lossless),
    r.minMargin.toExponential(1),
    `${r.prefillMs.toFixed(1)} / ${r.draftMs.toFixed(1)} / ${r.verifyMs.toFixed(1)}`,
  ]);
  return [
    `# Decode benchmark: greedy vs FastMTP speculative decoding`,
    '',
    `Model ${result.model}, provider \`${result.device}\`${result.gpu ? ` (${result.gpu})` : ''}, fp32, ${result.tokens} tokens per page (EOS and the repetition guard off so every configuration decodes the same count), median of ${result.runs} runs after a warm-up, ${result.exact ? 'bit-exact layout' : 'inexact layout (`--inexact`)'}. Load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}.`,
    '',
    markdownTable(['draft head', 'batch', 'decoding', 'ms (median)', 'tokens/s', 'pages/s', 'τ', 'acceptance per draft position', 'speed-up', 'CPU ms / speed-up by CPU time', 'lossless', 'min top-2 margin', 'prefill / draft / verify ms per page'], rows),
    '',
    `**${result.summary}**`,
    '',
    '- `lossless`: the ids equal greedy decoding\'s in the same batch, and page 0\'s equal its ids decoded alone, in every timed run.',
    '- `model` rows use the model\'s own draft head. `steered` rows run the same draft head (same passes, same cost) but replace its proposals with the greedy answer at a fixed share of positions: acceptance as a trained head would give, verification unchanged. On a random-weight model only `steered` rows say anything about speed-up.',
    '- τ: tokens committed per decoder step (accepted drafts + 1). Acceptance: share of steps whose draft j was accepted.',
    '- Timings include the prefill (one pass per page) but not the vision encoder. CPU time is the process\'s user + system time over all its threads: on a shared machine it is less disturbed than wall time (with one onnxruntime thread it approaches the wall time of an idle machine); the summary line uses wall time.',
    '',
    machineMarkdown(machineInfo()),
    '',
  ].join('\n');
}
