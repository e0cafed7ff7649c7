/**
 * The quality sets the furniture classifier moves, run into a folder of their own so runs with
 * the model and with the hand rules (`FOLIO_FURNITURE=rules`) can go side by side.
 *
 * node training/furniture/measure.ts --sets factory,docling,olmocr,icdar --out .cache/furniture/measure-model
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runQualityBenchSets } from '../../bench/quality/run.ts';

const { values } = parseArgs({ options: { sets: { type: 'string', default: 'factory' }, out: { type: 'string', default: '.cache/furniture/measure' } } });
const result = await runQualityBenchSets({
  sets: values.sets.split(','),
  engines: ['folio-auto'],
  resultsDir: values.out,
  outputDir: path.join(values.out, 'out'),
  log: () => {},
});
for (const set of result.sets) {
  for (const e of set.engines) {
    const figures = Object.entries(e.score?.figures ?? {})
      .filter(([k]) => /furniture|absent|passed|similarity|F1|headline/i.test(k))
      .map(([k, v]) => `${k} ${typeof v === 'number' ? v.toFixed(3) : v}`);
    console.log(`${set.set}\t${e.engine}\t${e.score?.headline?.toFixed(3) ?? e.notRun}\t${figures.join(', ')}`);
  }
}
