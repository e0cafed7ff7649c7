import assert from 'node:assert/strict';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Grid } from '../../bench/quality/index.ts';
import {
  documentCounts,
  groundTruthSet,
  icdarSet,
  microAverage,
  normalizeCellText,
  olmocrSet,
  parseStructure,
  predictedTables,
  QUALITY_SETS,
  readStructure,
  relations,
  tabulaJsonToHtml,
} from '../../bench/quality/index.ts';

const ICDAR = '../shared/data/icdar2013-dev';

/** A grid written back as an HTML table the way a browser lays it out (empty cells fill the gaps). */
function gridHtml(grid: Grid): string {
  const rows = Math.max(...grid.cells.map((c) => c.endRow)) + 1;
  const cols = Math.max(...grid.cells.map((c) => c.endCol)) + 1;
  const at = new Map(grid.cells.map((c) => [`${c.row},${c.col}`, c]));
  const held = new Set<string>();
  let html = '<table>';
  for (let r = 0; r < rows; r++) {
    html += '<tr>';
    for (let c = 0; c < cols; c++) {
      if (held.has(`${r},${c}`)) continue;
      const cell = at.get(`${r},${c}`);
      if (!cell) {
        html += '<td></td>';
        continue;
      }
      for (let i = cell.row; i <= cell.endRow; i++) for (let j = cell.col; j <= cell.endCol; j++) held.add(`${i},${j}`);
      html += `<td rowspan="${cell.endRow - cell.row + 1}" colspan="${cell.endCol - cell.col + 1}">${cell.text.replaceAll('&', '&amp;').replaceAll('<', '&lt;')}</td>`;
    }
    html += '</tr>';
  }
  return `${html}</table>`;
}

describe('bench quality: ICDAR 2013 adjacency relations', () => {
  it('finds horizontal and vertical neighbours, skipping empty cells, once per spanning pair', () => {
    const grid: Grid = {
      cells: [
        { text: 'head', row: 0, col: 0, endRow: 0, endCol: 1 },
        { text: 'a', row: 1, col: 0, endRow: 1, endCol: 0 },
        { text: '', row: 1, col: 1, endRow: 1, endCol: 1 },
        { text: 'c', row: 1, col: 2, endRow: 1, endCol: 2 },
      ],
    };
    const r = relations(grid);
    assert.deepEqual([...r.entries()].sort(), [
      ['a\u0000c\u0000h', 1],
      ['head\u0000a\u0000v', 1],
    ]);
  });

  it('scores an output built from the ground truth 1 and an empty output 0', async () => {
    const files = (await readdir(ICDAR)).filter((f) => f.endsWith('-str.xml'));
    const full = [];
    const empty = [];
    for (const f of files) {
      const truth = await readStructure(path.join(ICDAR, f));
      full.push(documentCounts(truth, predictedTables(truth.map(gridHtml).join('\n\n'))));
      empty.push(documentCounts(truth, predictedTables('')));
    }
    assert.equal(microAverage(full).f1, 1);
    assert.equal(microAverage(empty).f1, 0);
  });

  it('counts a shuffled column as lost relations, and unmatched predicted tables not at all', () => {
    const [truth] = parseStructure(
      '<table><region><cell start-row="0" start-col="0"><content>A</content></cell><cell start-row="0" start-col="1"><content>B</content></cell><cell start-row="1" start-col="0"><content>1</content></cell><cell start-row="1" start-col="1"><content>2</content></cell></region></table>',
      't',
    );
    const c = documentCounts([truth!], predictedTables('| A | 2 |\n|---|---|\n| 1 | B |\n\n<table><tr><td>x</td><td>y</td></tr></table>'));
    // Truth: A→B, 1→2, A↓1, B↓2. Predicted pipe table: A→2, 1→B, A↓1, 2↓B; only A↓1 agrees.
    assert.deepEqual(c, { correct: 1, predicted: 4, truth: 4 });
  });

  it('lays out HTML rowspan/colspan like a browser and keeps nested tables apart', () => {
    const [outer, inner] = predictedTables(
      '<table><tr><td rowspan="2">a</td><td>b</td></tr><tr><td>c<table><tr><td>x</td><td>y</td></tr></table></td></tr></table>',
    );
    assert.deepEqual(
      outer!.cells.map((c) => [c.text, c.row, c.col, c.endRow]),
      [
        ['a', 0, 0, 1],
        ['b', 0, 1, 0],
        ['cxy', 1, 1, 1],
      ],
    );
    assert.equal(inner!.cells.length, 2);
  });

  it('normalises cell text and cleans pipe cells', () => {
    assert.equal(normalizeCellText(' Total\n  EU-１２ '), 'total eu-12');
    const [t] = predictedTables('| **Year** | `x` \\| y |\n|---|---|\n| 2&amp;3 | <br>z |');
    assert.deepEqual(
      t!.cells.map((c) => c.text),
      ['year', 'x | y', '2&3', 'z'],
    );
  });

  it('turns tabula JSON into HTML tables the scorer reads', () => {
    const html = tabulaJsonToHtml(
      JSON.stringify([
        {
          data: [
            [{ text: 'a' }, { text: 'b<' }],
            [{ text: '1' }, { text: '2' }],
          ],
        },
      ]),
    );
    assert.deepEqual(
      predictedTables(html)[0]!.cells.map((c) => c.text),
      ['a', 'b<', '1', '2'],
    );
  });
});

describe('bench quality: sets', () => {
  it('registers the icdar, tables, docling, olmocr, rtl, formulas and factory sets by name', () => {
    assert.deepEqual(Object.keys(QUALITY_SETS).sort(), ['docling', 'factory', 'factory-scans', 'formulas', 'icdar', 'olmocr', 'rtl', 'tables']);
  });

  it('scores missing output as empty, never throwing, and reports the right-to-left page on its own', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-quality-'));
    const set = groundTruthSet();
    const docs = await set.documents();
    assert.ok(docs.some((d) => d.name === 'right_to_left_01'));
    const reference = (await import('node:fs/promises')).readFile('../shared/data/docling-dev/groundtruth/right_to_left_01.md', 'utf8');
    await writeFile(path.join(dir, 'right_to_left_01.md'), await reference);
    const score = await set.score(dir, docs);
    assert.equal(score.figures['rtl'], 1);
    assert.ok(score.headline < 0.5);
    const icdar = await icdarSet().score(dir, (await icdarSet().documents()).slice(0, 2));
    assert.equal(icdar.headline, 0);
  });

  it('counts olmOCR tests without the baseline tests', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-quality-'));
    const set = olmocrSet();
    const docs = await set.documents();
    const score = await set.score(dir, docs);
    assert.equal(score.figures['passed'], 0);
    assert.equal(score.figures['total'], 55);
    assert.equal(score.figures['withBaselineTotal'], 65);
  });
});

describe('bench quality: README rows', () => {
  it('names the set, shows every engine beside Folio, and a baseline that could not run as not run', async () => {
    const { qualityFigures } = await import('../../bench/report/figures.ts');
    const rows = qualityFigures({
      sets: [
        {
          set: 'icdar',
          documents: 34,
          pages: 122,
          engines: [
            { engine: 'folio-auto', score: { headline: 0.865, headlineName: 'adjacency-relation F1', figures: {} }, pagesPerSecond: 10 },
            { engine: 'tabula-guess', notRun: 'java is not installed' },
          ],
        },
        {
          set: 'olmocr',
          documents: 10,
          pages: 10,
          engines: [
            {
              engine: 'folio-auto',
              score: { headline: 0.6, headlineName: 'tests passed without baseline tests', figures: { passed: 33, total: 55, overall: 0.79 } },
              pagesPerSecond: 0.5,
            },
          ],
        },
      ],
    });
    assert.equal(rows.length, 2);
    assert.match(rows[0]!.figure, /ICDAR-2013 table dev set \(34 PDFs, 122 pages\): adjacency-relation F1/);
    assert.match(rows[0]!.value, /folio-auto 0\.865, 10\.00 p\/s; tabula-guess not run \(java is not installed\)/);
    assert.match(rows[1]!.value, /33\/55 \(60\.0%; "overall" 79\.0%\)/);
    assert.match(rows[1]!.figure, /not the official benchmark/);
  });
});
