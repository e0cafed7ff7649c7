/** `bench/results/math.md`: folio-ocr-math's accuracy and speed through the TypeScript engine. */
import { machineInfo, machineMarkdown } from '../common/machine.ts';
import { markdownTable, percent } from '../common/markdown-table.ts';
import type { MathBenchResult } from './run.ts';

/**
 * @example
 * await writeFile('bench/results/math.md', mathMarkdown(await measureMath()));
 */
export function mathMarkdown(result: MathBenchResult): string {
  const sets = markdownTable(
    [
      'views',
      'n',
      'render-equal (KaTeX)',
      'exact (normalised)',
      'KaTeX-valid output',
      'speculative = greedy',
      'τ at K=3',
      'formulas/s greedy / K=3 (batch 16, vision included)',
    ],
    result.sets.map((s) => [
      s.set,
      s.n,
      percent(s.renderEqual),
      percent(s.exact),
      percent(s.valid),
      percent(s.identical),
      s.tau.toFixed(2),
      `${s.greedyPerSecond.toFixed(1)} / ${s.speculativePerSecond.toFixed(1)}`,
    ]),
  );
  const kinds = result.sets[0]
    ? markdownTable(
        ['kind (synthetic)', 'n', 'render-equal'],
        Object.entries(result.sets[0].byKind)
          .toSorted((a, b) => b[1].n - a[1].n)
          .map(([k, v]) => [k, v.n, percent(v.renderEqual)]),
      )
    : '';
  const speed = markdownTable(
    ['batch', 'K', 'τ', 'decode speed-up over greedy', 'end-to-end speed-up', 'formulas/s (K)', 'lossless'],
    result.speed.map((r) => [
      r.batch,
      r.k,
      r.tau.toFixed(2),
      `${r.speedup.toFixed(2)}×`,
      `${r.e2eSpeedup.toFixed(2)}×`,
      r.formulasPerSecond.toFixed(1),
      r.lossless ? 'yes' : 'NO',
    ]),
  );
  const c = result.crops;
  const crops = c
    ? `Hand-cut formula crops of olmOCR-Bench dev pages (\`bench/math/olmocr-crops.json\`, 150 dpi; boxes stand in for a formula detector, which Folio lacks): ${c.n} crops, render-equal ${percent(c.renderEqual)}, the dataset's math tests among them passed ${c.testsPassed}/${c.tests} (its semantics, \`sameRendering\`; ${c.testsCheck}), speculative = greedy ${percent(c.identical)}, τ ${c.tau.toFixed(2)} at K=3.

${markdownTable(
  ['truth', 'read (greedy)', 'smallest logit gap'],
  c.readings.map((r) => [`\`${r.truth}\``, `\`${r.predicted}\``, r.minMargin.toFixed(2)]),
)}
`
    : 'Olmocr dev crops: not measured (the dev PDFs are not beside the checkout).';
  const samples = (result.sets[0]?.samples ?? []).map((s) => `- truth \`${s.truth}\`\n  read  \`${s.predicted}\``).join('\n');
  return `# folio-ocr-math through the TypeScript engine

Model: ${result.model}; device: ${result.device}, ${result.threads} onnxruntime thread(s). Views: held-out
formulas (never drawn in training) rendered by \`training/formula/make_views.py\`, 128×512 grey.
Render-equal: KaTeX renders truth and output to the same MathML (source annotation dropped). Exact: the
same string after \`canonicalLatex\`. Speed rows: \`bench/decode\`'s round-robin measurement on the first
synthetic views (vision excluded, medians), greedy and K=3 in the same run.

${sets}

${kinds}

${crops}

${speed}

First synthetic views:
${samples}

${machineMarkdown(machineInfo())}

Reproduce: \`npx folio bench math\`.
`;
}
