/**
 * `--set factory` and `--set factory-scans` of `folio bench quality`: the factory's documents,
 * born-digital or scanned, scored by their generated tests, table structure, body CER and
 * furniture, overall and per family. Built on first use with the default seed and size;
 * `npx folio bench factory --build --seed S --documents N` builds another.
 */
import path from 'node:path';
import { scoreMarkdown } from '../olmocr/score.ts';
import { microAverage } from '../quality/icdar/index.ts';
import type { QualityDocument, QualitySet, SetScore } from '../quality/types.ts';
import { buildFactory, FACTORY_DIR, readFactoryManifest } from './build.ts';
import type { DocumentScore } from './score.ts';
import { readTruth, scoreDocument } from './score.ts';

const ratio = (a: number, b: number): number => (b === 0 ? 1 : a / b);

/** Furniture precision and recall from summed counts; undefined where no document had elements. */
function furnitureFigures(scores: readonly DocumentScore[]): Record<string, number> {
  const withElements = scores.filter((s) => s.furniture !== undefined);
  if (withElements.length === 0) return {};
  const sum = (k: 'matched' | 'truthUnits' | 'foundUnits'): number => withElements.reduce((s, d) => s + d.furniture![k], 0);
  return { 'furniture precision': ratio(sum('matched'), sum('foundUnits')), 'furniture recall': ratio(sum('matched'), sum('truthUnits')) };
}

/**
 * @param scanned the image-only variant (`factory-scans`)
 * @param outDir @default '.cache/factory'
 */
export function factorySet(scanned: boolean, outDir = FACTORY_DIR): QualitySet {
  const name = scanned ? 'factory-scans' : 'factory';
  const truthDir = path.join(outDir, 'truth');
  return {
    name,
    description: `the document factory (\`npx folio bench factory --build\`, seeded; families printed by Chromium, LibreOffice and pdflatex)${scanned ? ', every page scanned: 150–300 dpi, skew, blur, noise, JPEG' : ''}: generated olmOCR-style tests passed, table adjacency F1, body CER, furniture precision/recall, per family`,
    scanned,
    columns: ['document', 'family', 'pages', 'tests passed', 'table F1', 'CER', 'furniture P/R'],
    async documents() {
      let manifest = await readFactoryManifest(outDir);
      if (manifest === undefined || (scanned && !manifest.scans)) manifest = await buildFactory({ outDir });
      return manifest.documents.map((d): QualityDocument => ({ name: d.id, pdf: path.join(outDir, scanned ? 'scans' : 'pdf', `${d.id}.pdf`), pages: d.pages }));
    },
    async score(markdownDir, documents): Promise<SetScore> {
      const score = await scoreMarkdown({ dataset: path.join(outDir, 'dataset.jsonl'), markdown: markdownDir, baseline: false });
      const byDoc = Map.groupBy(score.tests, (t) => t.pdf.replace(/\.pdf$/, ''));
      const rows: string[][] = [];
      const perDoc: { family: string; score: DocumentScore; passed: number; total: number }[] = [];
      for (const doc of documents) {
        const truth = await readTruth(truthDir, doc.name);
        const s = await scoreDocument(path.join(markdownDir, `${doc.name}.md`), truth);
        const tests = byDoc.get(doc.name) ?? [];
        const passed = tests.filter((t) => t.passed).length;
        perDoc.push({ family: truth.family, score: s, passed, total: tests.length });
        const t = microAverage([s.tables]);
        const f = s.furniture;
        rows.push([
          doc.name,
          truth.family,
          String(truth.pages),
          `${passed}/${tests.length}`,
          s.tables.truth === 0 ? '—' : t.f1.toFixed(2),
          (s.edits / Math.max(1, s.truthChars)).toFixed(3),
          f === undefined || f.truthUnits + f.foundUnits === 0
            ? '—'
            : `${ratio(f.matched, f.foundUnits).toFixed(2)}/${ratio(f.matched, f.truthUnits).toFixed(2)}`,
        ]);
      }
      const figures: Record<string, number> = {};
      const passed = perDoc.reduce((s, d) => s + d.passed, 0);
      const total = perDoc.reduce((s, d) => s + d.total, 0);
      for (const [type, t] of Object.entries(score.byType)) figures[`${type} passed`] = ratio(t.passed, t.total);
      figures['table F1'] = microAverage(perDoc.map((d) => d.score.tables)).f1;
      figures.CER = ratio(
        perDoc.reduce((s, d) => s + d.score.edits, 0),
        perDoc.reduce((s, d) => s + d.score.truthChars, 0),
      );
      Object.assign(figures, furnitureFigures(perDoc.map((d) => d.score)));
      for (const [family, docs] of Map.groupBy(perDoc, (d) => d.family)) {
        figures[`${family}: tests`] = ratio(
          docs.reduce((s, d) => s + d.passed, 0),
          docs.reduce((s, d) => s + d.total, 0),
        );
        figures[`${family}: CER`] = ratio(
          docs.reduce((s, d) => s + d.score.edits, 0),
          docs.reduce((s, d) => s + d.score.truthChars, 0),
        );
        for (const [k, v] of Object.entries(furnitureFigures(docs.map((d) => d.score)))) figures[`${family}: ${k}`] = v;
      }
      figures.passed = passed;
      figures.total = total;
      return { headline: ratio(passed, total), headlineName: 'generated tests passed', figures, rows };
    },
  };
}
