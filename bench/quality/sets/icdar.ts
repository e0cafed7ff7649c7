/** `--set icdar`: ICDAR 2013 table competition dev half, adjacency-relation F1 (micro-averaged). */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ConfigurationError } from '../../../core/errors.ts';
import { documentCounts, microAverage, predictedTables, readStructure, scoreCounts } from '../icdar/index.ts';
import type { QualityDocument, QualitySet } from '../types.ts';
import { pageCount, readOutput } from './pages.ts';

/** How a set in the ICDAR format differs from the ICDAR documents: its name, its line, how its folder is made. */
export interface IcdarFormatSet {
  readonly name: string;
  readonly description: string;
  /** Makes the folder where it is missing (a generated set); resolves when it is there. */
  readonly prepare?: () => Promise<unknown>;
}

/**
 * @param data Folder with `<name>.pdf` and `<name>-str.xml`. @default '../shared/data/icdar2013-dev'
 * @param set Another set in the same format (the synthetic tables): its name, line and maker.
 */
export function icdarSet(data = '../shared/data/icdar2013-dev', set?: IcdarFormatSet): QualitySet {
  return {
    name: set?.name ?? 'icdar',
    description:
      set?.description ?? `ICDAR 2013 table competition, dev half (\`${data}\`): adjacency-relation F1 of the tables, micro-averaged over the documents`,
    tables: true,
    columns: ['document', 'pages', 'tables (truth)', 'tables (output)', 'correct', 'precision', 'recall', 'F1'],
    async documents() {
      await set?.prepare?.();
      const files = await readdir(data).catch((error: unknown) => {
        throw new ConfigurationError('FOLIO_BENCH_DATASET', `expected \`${data}\` to hold PDFs with ICDAR 2013 structure files`, { cause: error });
      });
      const names = files
        .filter((f) => f.endsWith('.pdf') && files.includes(f.replace(/\.pdf$/, '-str.xml')))
        .map((f) => f.slice(0, -4))
        .sort();
      return Promise.all(
        names.map(
          async (name): Promise<QualityDocument> => ({ name, pdf: path.join(data, `${name}.pdf`), pages: await pageCount(path.join(data, `${name}.pdf`)) }),
        ),
      );
    },
    async score(markdownDir, documents) {
      const counts = [];
      const rows: string[][] = [];
      for (const doc of documents) {
        const truth = await readStructure(path.join(data, `${doc.name}-str.xml`));
        const predicted = predictedTables(await readOutput(path.join(markdownDir, `${doc.name}.md`)));
        const c = documentCounts(truth, predicted);
        counts.push(c);
        const s = scoreCounts(c);
        rows.push([
          doc.name,
          String(doc.pages),
          String(truth.length),
          String(predicted.length),
          `${c.correct}/${c.truth}`,
          s.precision.toFixed(3),
          s.recall.toFixed(3),
          s.f1.toFixed(3),
        ]);
      }
      const all = microAverage(counts);
      return {
        headline: all.f1,
        headlineName: 'adjacency-relation F1',
        figures: { precision: all.precision, recall: all.recall, correct: all.correct, truth: all.truth, predicted: all.predicted },
        rows,
      };
    },
  };
}
