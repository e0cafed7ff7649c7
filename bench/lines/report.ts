/** `bench/results/lines.md` from a line bench result. */
import type { MachineInfo } from '../common/machine.ts';
import { machineMarkdown } from '../common/machine.ts';
import { markdownTable, percent } from '../common/markdown-table.ts';
import type { LinesBenchResult } from './run.ts';

export interface LinesReportInput {
  readonly result: LinesBenchResult;
  readonly machine: MachineInfo;
  readonly command: string;
  readonly crops: { readonly sets: Readonly<Record<string, string>>; readonly docsPerSet: number; readonly linesPerSet: number; readonly dpi: number };
  readonly skipped: readonly { doc: string; reason: string }[];
}

const NAMES: Record<string, string> = {
  folio: 'folio-ocr-lines',
  paddle: 'PP-OCRv4 (paddle engine)',
  tesseract: 'Tesseract --psm 7',
  'folio+paddle': 'folio-ocr-lines, refusals to PP-OCRv4',
};

export function linesMarkdown(input: Readonly<LinesReportInput>): string {
  const { result, machine, command, crops, skipped } = input;
  const keys = [...new Set(result.quality.map((q) => `${q.set}\t${q.condition}`))];
  const readers = [...new Set(result.quality.map((q) => q.reader))];
  const rows = keys.map((key) => {
    const [set, condition] = key.split('\t') as [string, string];
    const qs = result.quality.filter((q) => q.set === set && q.condition === condition);
    const best = Math.min(...qs.map((q) => q.cer));
    const folio = qs.find((q) => q.reader === 'folio');
    const paddle = qs.find((q) => q.reader === 'paddle');
    return [
      set,
      condition,
      qs[0]?.lines ?? 0,
      ...readers.map((r) => {
        const q = qs.find((x) => x.reader === r);
        if (q === undefined) return '';
        const cell = `${percent(q.cer)} (exact ${percent(q.exact)})`;
        return q.cer === best ? `**${cell}**` : cell;
      }),
      folio && paddle ? (paddle.cer > 0 ? `${(folio.cer / paddle.cer).toFixed(2)}×` : 'n/a') : '',
      folio?.guarded ?? '',
    ];
  });
  const speed = result.speed.map((s) => [
    s.reader === 'folio' ? 'folio-ocr-lines' : 'PP-OCRv4',
    s.batch,
    s.reader === 'folio' ? (s.k === 0 ? 'greedy' : `K=${s.k}`) : 'CTC',
    s.linesPerS.toFixed(2),
    s.tau === undefined ? '' : s.tau.toFixed(2),
    s.speedup === undefined ? '' : `${s.speedup.toFixed(2)}×`,
  ]);
  const examples = result.examples.map((e) => [e.set, e.condition, e.truth, ...readers.map((r) => e.reads[r] ?? '')]);
  return [
    '# Line recognition on the dev scan sets',
    '',
    `Command: \`${command}\`. ${machineMarkdown(machine)}`,
    '',
    `Crops: page 1 of the first ${crops.docsPerSet} PDFs of each set (${Object.entries(crops.sets)
      .map(([k, v]) => `${k}: \`../shared/data/${v}\``)
      .join(', ')}), rendered by poppler at ${crops.dpi} dpi; boxes and truth from the text layer ` +
      `(\`pdftotext -bbox-layout\`, NFKC, spaces collapsed); ${crops.linesPerSet} lines per set drawn with a seed, each read ` +
      'clean and after the scan degrader (blur, sensor noise, JPEG; no skew or turn, so the boxes stay on their lines). ' +
      'All recognisers read the same boxes on the same page images. CER = edit distance / truth length over the lines.',
    '',
    markdownTable(['set', 'condition', 'lines', ...readers.map((r) => `${NAMES[r]} CER`), 'folio / PP-OCRv4', 'folio refused'], rows),
    '',
    `folio-ocr-lines' misses by kind: ${Object.entries(result.mistakes)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
    '## Speed on the CPU (real crops, the same lines for every row)',
    '',
    'Whole read per line (cut, vision, prefill, decode), median of the runs; τ = tokens committed per decoding pass (the first token of each view, from its prefill, not counted); speed-up against greedy at the same batch.',
    '',
    markdownTable(['reader', 'batch', 'decoding', 'lines/s', 'τ', 'speed-up'], speed),
    '',
    '## Examples',
    '',
    markdownTable(['set', 'condition', 'truth', ...readers.map((r) => NAMES[r]!)], examples),
    '',
    skipped.length > 0 ? `Skipped: ${skipped.map((s) => `${s.doc} (${s.reason})`).join('; ')}.` : '',
    '',
  ].join('\n');
}
