/**
 * Sum an onnxruntime profile (the JSON `enableProfiling` writes) by operator type and provider:
 * where a decoder pass spends its host time. On WebGPU the kernel times are the host's cost of
 * recording each dispatch, not the GPU's; data copies show up as `Memcpy*` nodes.
 *
 *   node bench/decode/profile-summary.ts PROFILE.json [--top 15]
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

interface ProfileEvent {
  readonly cat?: string;
  readonly name?: string;
  readonly dur?: number;
  readonly args?: { readonly op_name?: string; readonly provider?: string };
}

/** Microseconds per `op (provider)` over the node events, plus the number of model runs. */
export function summariseProfile(events: readonly ProfileEvent[]): { runs: number; runUs: number; byOp: [string, number][] } {
  const byOp = new Map<string, number>();
  let runs = 0;
  let runUs = 0;
  for (const e of events) {
    if (e.cat === 'Session' && e.name === 'model_run') {
      runs++;
      runUs += e.dur ?? 0;
    }
    if (e.cat !== 'Node' || !e.name?.endsWith('_kernel_time')) continue;
    const key = `${e.args?.op_name ?? '?'} (${e.args?.provider ?? '?'})`;
    byOp.set(key, (byOp.get(key) ?? 0) + (e.dur ?? 0));
  }
  return { runs, runUs, byOp: [...byOp].sort((a, b) => b[1] - a[1]) };
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '15' } } });
  for (const file of positionals) {
    const { runs, runUs, byOp } = summariseProfile(JSON.parse(await readFile(file, 'utf8')) as ProfileEvent[]);
    const kernelUs = byOp.reduce((sum, [, us]) => sum + us, 0);
    console.log(
      `${file}: ${runs} runs, ${(runUs / Math.max(1, runs) / 1000).toFixed(2)} ms per run, kernels ${(kernelUs / Math.max(1, runs) / 1000).toFixed(2)} ms per run`,
    );
    for (const [op, us] of byOp.slice(0, Number(values.top)))
      console.log(`  ${op}: ${(us / Math.max(1, runs) / 1000).toFixed(3)} ms per run (${((100 * us) / kernelUs).toFixed(1)}%)`);
  }
}
