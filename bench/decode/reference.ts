/**
 * The PyTorch reference (`torch_ref.py`, run on the same GPU just before the TS bench) beside the
 * TypeScript engine's greedy rows: the same views, batches and budget, timed the same way (vision
 * encoder outside the clock; end to end = prefill + decoding; decode phase = after the first token).
 */
import { readFile } from 'node:fs/promises';
import { ConfigurationError } from '../../core/errors.ts';
import { markdownTable } from '../common/markdown-table.ts';
import type { DecodeRow } from './run.ts';

export interface ReferenceRow {
  readonly batch: number;
  readonly tokens: number;
  readonly ms: number;
  readonly tokens_per_s: number;
  readonly decode_tokens_per_s: number;
  readonly times_ms: readonly number[];
}

export interface TorchReference {
  readonly engine: string;
  readonly device: string;
  readonly precision: string;
  readonly budget: number;
  readonly measured: string;
  readonly rows: readonly ReferenceRow[];
}

/** Read `torch_ref.py`'s JSON; its budget must be the bench's. */
export async function readReference(path: string, budget: number): Promise<TorchReference> {
  let ref: TorchReference;
  try {
    ref = JSON.parse(await readFile(path, 'utf8')) as TorchReference;
  } catch (cause) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench decode --reference ${path}: not a torch_ref.py result (${String(cause)})`, { cause });
  }
  if (!Array.isArray(ref.rows) || ref.rows.length === 0) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench decode --reference ${path}: no rows`);
  if (ref.budget !== budget)
    throw new ConfigurationError(
      'FOLIO_BAD_ARGUMENTS',
      `bench decode --reference ${path}: measured with a budget of ${ref.budget} tokens, the bench uses ${budget}`,
    );
  return ref;
}

/** TS greedy (step graphs, own model) against PyTorch greedy, batch by batch. */
export function referenceComparison(
  ref: TorchReference,
  rows: readonly DecodeRow[],
): { markdown: string; ratios: { batch: number; decode: number; endToEnd: number }[] } {
  const ratios: { batch: number; decode: number; endToEnd: number }[] = [];
  const table = ref.rows.flatMap((r) => {
    const ts = rows.find((x) => x.batch === r.batch && x.k === 0 && x.graphs === 'steps' && x.draft === 'model');
    if (ts === undefined) return [];
    const decode = r.decode_tokens_per_s / ts.decodeTokensPerSecond;
    const endToEnd = r.tokens_per_s / ts.tokensPerSecond;
    ratios.push({ batch: r.batch, decode, endToEnd });
    return [
      [
        r.batch,
        `${r.ms.toFixed(0)} / ${r.tokens_per_s.toFixed(0)}`,
        r.decode_tokens_per_s.toFixed(0),
        `${ts.medianMs.toFixed(0)} / ${ts.tokensPerSecond.toFixed(0)}`,
        ts.decodeTokensPerSecond.toFixed(0),
        `${decode.toFixed(2)}×`,
        `${endToEnd.toFixed(2)}×`,
        r.tokens === ts.tokens ? 'yes' : `no (${r.tokens} vs ${ts.tokens})`,
        r.times_ms.map((t) => t.toFixed(0)).join(', '),
      ],
    ];
  });
  const markdown = [
    `## Against PyTorch (same machine, same views, measured just before: ${ref.measured})`,
    '',
    `${ref.engine} on ${ref.device}, ${ref.precision}, greedy, median of ${ref.rows[0]!.times_ms.length} runs (\`bench/decode/torch_ref.py\`, eager \`folio_ocr.decode.greedy\`: a batch stays whole until its last sequence ends). TypeScript: the greedy row of this table's step graphs.`,
    '',
    markdownTable(
      [
        'batch',
        'PyTorch ms / tokens/s',
        'PyTorch decode phase tokens/s',
        'TS ms / tokens/s',
        'TS decode phase tokens/s',
        'PyTorch ÷ TS (decode phase)',
        'PyTorch ÷ TS (end to end)',
        'same tokens',
        'PyTorch runs (ms)',
      ],
      table,
    ),
  ].join('\n');
  return { markdown, ratios };
}
