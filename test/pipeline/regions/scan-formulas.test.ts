import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { renderEqual } from '../../../bench/math/index.ts';
import { degradePage, jpegPdf, seededRandom } from '../../../bench/scans/index.ts';
import type { OcrLine, SourceDocument } from '../../../core/types.ts';
import type { OcrEngine } from '../../../inference/engine.ts';
import { createPaddleEngine } from '../../../inference/paddle/index.ts';
import { openPdf } from '../../../pipeline/pdf/index.ts';
import { findScanFormulas } from '../../../pipeline/regions/index.ts';
import { fromUpright, toUpright } from '../../../pipeline/regions/upright.ts';
import { renderPdfPage } from '../../../pipeline/render/index.ts';
import { readDocument } from '../../../pipeline/run/index.ts';

/** The LaTeX the fixture typesets (test/fixtures/regions/formulas.tex). */
const TRUTH = ['x^{a^{b^{c}}} = y', 'y_{i_{j_{k}}} = x', 'x = y'];
const PROSE = [
  'The first estimate below holds for every positive number, and we use it throughout this note.',
  'The second one follows from the first by a change of variables in the same way.',
  'The last one is the plainest of the three, set with its left side raised.',
];

function docOf(name: string, bytes: Uint8Array): SourceDocument {
  const uri = `file:///test/${name}`;
  return { id: createHash('sha256').update(uri).digest('hex').slice(0, 16), uri, relativePath: name, mime: 'application/pdf', bytes, contentHash: 'x' };
}

/** The fixture's page scanned, as a JPEG and as an image-only PDF of it. */
async function scanOf(turn: 0 | 180): Promise<Uint8Array> {
  return (await scanned(turn)).pdf;
}

/**
 * The fixture's page as a clean office scan would give it (200 dpi, skewed, blurred, lightly noised,
 * JPEG), in an image-only PDF. On noisier scans the guard refuses most of the model's readings of
 * these small formulas (`node bench/quality/formulas/scans.ts` has the figures).
 */
async function scanned(turn: 0 | 180): Promise<{ jpeg: Uint8Array; pdf: Uint8Array }> {
  const path = new URL('../../fixtures/regions/formulas.pdf', import.meta.url);
  const pdf = await openPdf(new Uint8Array(await readFile(path)), { source: 'formulas.pdf' });
  try {
    const image = await renderPdfPage(await pdf.page(1), { source: 'formulas.pdf', docId: 'formulas', pageNumber: 1, dpi: 200 });
    const grey = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
      .greyscale()
      .raw()
      .toBuffer();
    const random = seededRandom(`test/scan-formulas/${turn}`);
    const scan = await degradePage(grey, image.width, image.height, { skewDeg: 0.8, blurSigma: 0.6, noiseSigma: 5, jpegQuality: 70, turn }, random);
    return { jpeg: scan.jpeg, pdf: jpegPdf(scan.jpeg, scan.width, scan.height, 200) };
  } finally {
    await pdf.close();
  }
}

const words = (text: string): string[] => text.toLowerCase().match(/\p{L}{3,}/gu) ?? [];

describe('display formulas on scanned pages', function () {
  this.timeout(180_000);
  let paddle: OcrEngine;
  before(async () => {
    paddle = await createPaddleEngine({});
  });
  after(async () => {
    await paddle?.close();
  });

  for (const turn of [0, 180] as const) {
    it(`should find the three display formulas of a scan${turn === 0 ? '' : ' fed upside down'}, write those the guard accepts as $$…$$ with engine and confidence, and keep the prose`, async () => {
      const result = await readDocument(docOf(`scan-${turn}.pdf`, await scanOf(turn)), { engine: 'auto', ocr: async () => paddle });
      const page = result.pages[0]!;
      assert.equal(page.engine, 'paddle');
      assert.equal(page.regions?.formulaRegions, 3, JSON.stringify(page.regions));
      assert.equal(page.regions?.formulaEngine, 'folio-ocr-math');
      const read = result.elements.filter((e) => e.engine === 'folio-ocr-math');
      assert.equal(read.length, page.regions?.formulaRegionsRead);
      assert.ok(read.length >= 1, `at least one formula read (${page.regions?.regionsRefused})`);
      for (const element of read) {
        assert.equal(element.kind, 'formula');
        assert.ok((element.confidence ?? 0) >= 1, `confidence ${element.confidence}`);
        assert.equal(element.formulas?.[0]?.valid, true);
      }
      // The guard keeps readings the model was sure of, most of them right (about 4 in 5 on the
      // formula scans), not all: at least one here renders as its truth.
      const right = read.filter((e) => TRUTH.some((t) => renderEqual(t, e.formulas?.[0]?.latex ?? '')));
      assert.ok(right.length >= 1, `a reading renders as a truth: ${read.map((e) => e.formulas?.[0]?.latex).join(', ')}`);
      assert.match(result.markdown, /\$\$/);
      // The prose around the formulas is still there, in order, its words not eaten by a formula.
      const text = result.elements
        .filter((e) => e.kind !== 'formula')
        .map((e) => e.text)
        .join(' ');
      const have = new Set(words(text));
      for (const sentence of PROSE) {
        const want = words(sentence);
        const found = want.filter((w) => have.has(w)).length;
        assert.ok(found >= 0.8 * want.length, `${found}/${want.length} words of "${sentence}" in ${text}`);
      }
    });
  }

  it('should find them in an image file too, where no resolution is known (the scale comes from its lines)', async () => {
    const { jpeg } = await scanned(0);
    const doc = { ...docOf('scan.jpg', jpeg), mime: 'image/jpeg' };
    const result = await readDocument(doc, { engine: 'auto', ocr: async () => paddle });
    assert.equal(result.pages[0]?.regions?.formulaRegions, 3, JSON.stringify(result.pages[0]?.regions));
    for (const element of result.elements.filter((e) => e.engine === 'folio-ocr-math'))
      assert.ok(TRUTH.some((t) => renderEqual(t, element.formulas?.[0]?.latex ?? '')));
  });

  it('should leave the scan as paddle read it when switched off', async () => {
    const bytes = await scanOf(0);
    const off = await readDocument(docOf('scan-off.pdf', bytes), { engine: 'auto', ocr: async () => paddle, formulaRegions: false });
    assert.equal(off.pages[0]?.regions, undefined);
    assert.ok(!off.elements.some((e) => e.engine === 'folio-ocr-math'));
    assert.doesNotMatch(off.markdown, /\$\$/);
  });

  describe('findScanFormulas', () => {
    const line = (text: string, box: readonly [number, number, number, number], confidence = 0.97): OcrLine => ({ text, box, confidence });
    const prose = (y: number, x1 = 900): OcrLine => line('Results were strong across every region this quarter', [100, y, x1, y + 20]);

    it('should take a centred line of symbols between paragraphs for a formula, its equation number left out', () => {
      const lines = [prose(100), prose(125), line('e=max(u△t)', [440, 160, 560, 180], 0.8), line('(1)', [870, 160, 900, 180]), prose(200), prose(225)];
      const found = findScanFormulas(lines);
      assert.equal(found.length, 1);
      assert.deepEqual(
        found[0]!.lines.map((l) => l.text),
        ['e=max(u△t)'],
      );
      // Its ink may reach up to the rows around it and to the number, no further.
      assert.deepEqual(found[0]!.room, [100, 145, 870, 200]);
    });

    it('should take stacked short lines (a fraction, a matrix) for one formula', () => {
      const lines = [prose(100), prose(125), line('a+b', [470, 160, 530, 178]), line('c', [490, 182, 510, 200]), prose(230), prose(255)];
      const found = findScanFormulas(lines);
      assert.equal(found.length, 1);
      assert.equal(found[0]!.lines.length, 2);
    });

    it('should take no line of prose: not the short last line of a paragraph, not a centred heading, not a page number', () => {
      const lines = [
        line('Quarterly Results', [400, 60, 600, 85]),
        prose(100),
        prose(125, 400),
        prose(160),
        line('for the whole year.', [100, 185, 330, 205]),
        line('Outlook and Plans', [410, 230, 590, 252]),
        line('- 63 -', [480, 256, 520, 266]),
        prose(270),
        prose(295),
      ];
      assert.deepEqual(findScanFormulas(lines), []);
    });

    it('should map boxes to the upright page and back', () => {
      for (const turn of [0, 90, 180, 270] as const) assert.deepEqual(fromUpright(toUpright([100, 200, 300, 260], turn), turn), [100, 200, 300, 260]);
      assert.deepEqual(toUpright([100, 200, 300, 260], 180), [699, 739, 899, 799]);
    });
  });
});
