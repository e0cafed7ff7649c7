/**
 * `node bench/math/calibrate.ts [--limit N]`: the formula guard's confidence threshold
 * (`checkReading`'s `minMargin`) against what it lets through. Every held-out view (synthetic,
 * real) and the hand-cut olmOCR dev crops are read through the pipeline's own reader
 * (`createFormulaReader`: view, speculative decoding, KaTeX, length and repetition guards) with
 * the margin check off; each threshold then keeps the readings whose smallest logit gap reaches
 * it. Coverage: kept / all views; precision: render-equal among the kept. Writes
 * `bench/results/math-guard.md`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { PageImage } from '../../inference/engine.ts';
import { createFormulaReader } from '../../pipeline/formula/index.ts';
import { loadPages } from '../decode/run.ts';
import { loadFormulaCrops } from './crops.ts';
import { MATH_VIEWS, renderEqual } from './run.ts';

/**
 * A view's ink with a few pixels of paper, as a layout box or a text-layer line box gives it: the
 * views are the model's 128×512 canvas already, which the reader would set on paper once more.
 */
function cropInk(page: PageImage, pad = 3): PageImage {
  const { data, width, height, channels } = page;
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (data[(y * width + x) * channels]! < 128) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
  if (x1 < 0) return page;
  x0 = Math.max(0, x0 - pad);
  y0 = Math.max(0, y0 - pad);
  x1 = Math.min(width - 1, x1 + pad);
  y1 = Math.min(height - 1, y1 + pad);
  const w = x1 - x0 + 1;
  const h = y1 - y0 + 1;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = data[((y + y0) * width + x + x0) * channels]!;
  return { ...page, data: out, width: w, height: h, channels: 1 };
}

const THRESHOLDS = [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3];

interface Scored {
  readonly kept: boolean;
  readonly margin: number;
  readonly right: boolean;
}

async function truthOf(dir: string): Promise<string[]> {
  const text = await readFile(join(dir, 'truth.tsv'), 'utf8');
  return text
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => l.split('\t').slice(2).join('\t'));
}

const { values } = parseArgs({ options: { limit: { type: 'string' }, out: { type: 'string', default: 'bench/results/math-guard.md' } } });
const limit = values.limit === undefined ? Infinity : Number(values.limit);
const reader = await createFormulaReader({ minMargin: Number.NEGATIVE_INFINITY, threads: 1 });
const sets: { name: string; scored: Scored[] }[] = [];
try {
  for (const set of ['synthetic', 'real']) {
    const dir = join(MATH_VIEWS, set);
    const truth = (await truthOf(dir)).slice(0, limit);
    const images = (await loadPages(dir)).slice(0, truth.length).map((page) => cropInk(page));
    const readings = await reader.read(images.map((image) => ({ image, display: true, fallback: '' })));
    sets.push({
      name: `${set} held-out views`,
      scored: readings.map((r, i) => ({ kept: r.latex !== undefined, margin: r.confidence, right: r.latex !== undefined && renderEqual(truth[i]!, r.latex) })),
    });
  }
  const crops = (await loadFormulaCrops()).slice(0, limit);
  if (crops.length > 0) {
    const readings = await reader.read(crops.map((c) => ({ image: c.image, display: true, fallback: '' })));
    sets.push({
      name: 'olmOCR dev crops (150 dpi)',
      scored: readings.map((r, i) => ({
        kept: r.latex !== undefined,
        margin: r.confidence,
        right: r.latex !== undefined && renderEqual(crops[i]!.latex, r.latex),
      })),
    });
  }
} finally {
  await reader.close();
}

const pct = (a: number, b: number): string => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)}%`);
const lines = [
  '# folio-ocr-math: the guard threshold',
  '',
  'Written by `node bench/math/calibrate.ts`. Each reading goes through `createFormulaReader` with every',
  'guard on but the confidence one (KaTeX, end token, length); a threshold keeps those whose smallest',
  'logit gap over the tokens reaches it. Coverage: kept / views. Precision: render-equal (KaTeX MathML) among kept.',
  '',
  `| threshold | ${sets.map((s) => `${s.name} (n=${s.scored.length}): kept, coverage, precision`).join(' | ')} |`,
  `|---|${sets.map(() => '---').join('|')}|`,
];
for (const t of THRESHOLDS) {
  const cells = sets.map(({ scored }) => {
    const kept = scored.filter((s) => s.kept && s.margin >= t);
    const right = kept.filter((s) => s.right).length;
    return `${kept.length} (${right} right), ${pct(kept.length, scored.length)}, ${pct(right, kept.length)}`;
  });
  lines.push(`| ${t} | ${cells.join(' | ')} |`);
}
const all = sets.map(({ name, scored }) => `${name}: ${scored.filter((s) => s.right).length} render-equal of ${scored.length} with no threshold`);
lines.push('', ...all.map((l) => `- ${l}`), '');
await writeFile(values.out, lines.join('\n'));
console.log(lines.join('\n'));
