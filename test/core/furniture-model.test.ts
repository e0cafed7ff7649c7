import assert from 'node:assert/strict';
import { FEATURE_NAMES, FURNITURE_MODEL, FurnitureDocument, furnitureFeatures, furnitureProbability } from '../../core/furniture-model/index.ts';
import { openPdf } from '../../pipeline/pdf/index.ts';
import type { TextLayerPage } from '../../pipeline/text-layer/index.ts';
import { extractTextLayer } from '../../pipeline/text-layer/index.ts';
import type { PageSpec, TextSpec } from '../pipeline/text-layer/make-pdf.ts';
import { makePdf, paragraph } from '../pipeline/text-layer/make-pdf.ts';

const TAG = /^<\|ref\|>(\w+)<\|\/ref\|>/;

async function pages(bytes: Uint8Array): Promise<TextLayerPage[]> {
  const pdf = await openPdf(bytes, { source: 'furniture.pdf' });
  try {
    const out: TextLayerPage[] = [];
    for await (const page of extractTextLayer(pdf)) out.push(page);
    return out;
  } finally {
    await pdf.close();
  }
}

/** The text of the page's blocks labelled furniture, and of the others. */
function split(page: TextLayerPage): { furniture: string; body: string } {
  const blocks = page.markdown.split('\n\n').map((b) => ({ label: TAG.exec(b)?.[1], text: b.split('\n').slice(1).join('\n') }));
  const furniture = blocks.filter((b) => b.label === 'page_header' || b.label === 'page_footer');
  return {
    furniture: furniture.map((b) => b.text).join('\n'),
    body: blocks
      .filter((b) => !furniture.includes(b))
      .map((b) => b.text)
      .join('\n'),
  };
}

const WORDS = ['harvest', 'valley', 'barley', 'river', 'granary', 'orchard', 'meadow', 'tenant', 'market', 'drainage', 'county', 'season'];

/** Body lines that differ in words, not only in numbers (masked numbers make lines alike). */
const body = (n: number, from: number, count = 40): TextSpec[] =>
  paragraph(
    Array.from({ length: count }, (_, i) => {
      const w = (k: number): string => WORDS[(n * 7 + i * 5 + k * 3) % WORDS.length]!;
      return `The ${w(0)} by the ${w(1)} gave more than the ${w(2)} did, so the ${w(3)} was kept.`;
    }),
    72,
    from,
  );

describe('furnitureProbability', () => {
  it('should give the probabilities scikit-learn gave the exported check vectors', () => {
    assert.ok(FURNITURE_MODEL.checks.length >= 4);
    for (const { x, p } of FURNITURE_MODEL.checks) {
      assert.equal(x.length, FEATURE_NAMES.length);
      assert.ok(Math.abs(furnitureProbability(x) - p) < 1e-9, `${furnitureProbability(x)} vs ${p}`);
    }
  });

  it('should name the features the model was trained on, in order', () => {
    assert.deepEqual(FURNITURE_MODEL.features, [...FEATURE_NAMES]);
  });
});

describe('furnitureFeatures', () => {
  it('should count a running line on other pages with its numbers masked, and a page-number sequence', () => {
    const doc = new FurnitureDocument();
    for (let page = 1; page <= 4; page++) {
      doc.observe(page, [
        { text: `Annual Review ${2020 + page}`, edge: 'top' },
        { text: `${page + 10}`, edge: 'bottom' },
      ]);
    }
    const row = { text: '13', edge: 'bottom', rank: 0, top: 0.95, bottom: 0.96, x0: 0.48, x1: 0.52, gapIn: 4, gapOut: 2, cells: 1, nextCells: 1 } as const;
    const x = furnitureFeatures(row, 3, doc);
    assert.equal(x[FEATURE_NAMES.indexOf('repeats')], 3);
    assert.equal(x[FEATURE_NAMES.indexOf('sequence')], 3);
    assert.equal(x[FEATURE_NAMES.indexOf('page_number')], 1);
    assert.equal(doc.repeats({ text: 'Annual Review 2999', edge: 'top' }, 1), 3);
  });
});

describe('text layer furniture by the classifier', () => {
  it('should take a running head repeated on every page and the page numbers out, and keep the body', async () => {
    const specs: PageSpec[] = Array.from({ length: 5 }, (_, i) => ({
      texts: [{ text: 'Northern Valleys Harvest Report 2024', x: 200, y: 40, size: 8 }, ...body(i + 1, 100), { text: String(i + 1), x: 300, y: 760, size: 9 }],
    }));
    const out = await pages(makePdf(specs));
    for (const page of out) {
      const { furniture, body: text } = split(page);
      assert.match(furniture, /Northern Valleys Harvest Report 2024/, page.markdown.slice(0, 400));
      assert.match(furniture, new RegExp(`^${page.pageNumber}$`, 'm'));
      assert.doesNotMatch(text, /Harvest Report 2024/);
      assert.match(text, /^The \w+ by the/);
    }
  });

  it("should keep a table's column-header row at the top of a page", async () => {
    const header: TextSpec[] = ['Region', 'Wheat', 'Barley', 'Oats'].map((text, i) => ({ text, x: 72 + 120 * i, y: 40, size: 10, bold: true }));
    const rows: TextSpec[] = Array.from({ length: 30 }, (_, r) =>
      [`Valley ${r + 1}`, String(120 + r), String(80 + r), String(40 + r)].map((text, i) => ({ text, x: 72 + 120 * i, y: 56 + 16 * r, size: 10 })),
    ).flat();
    const out = await pages(makePdf([{ texts: [...header, ...rows] }, { texts: body(2, 60) }, { texts: body(3, 60) }]));
    const { furniture, body: text } = split(out[0]!);
    assert.doesNotMatch(furniture, /Region|Wheat/);
    assert.match(text, /Region/);
  });

  it("should keep a one-page letter's letterhead title in the body", async () => {
    const spec: PageSpec = {
      texts: [
        { text: 'Kestrel Engineering Ltd', x: 72, y: 60, size: 20, bold: true },
        { text: 'Notice of Annual General Meeting', x: 72, y: 130, size: 14, bold: true },
        ...body(1, 170, 30),
        { text: 'Kestrel Engineering Ltd · 4 Mill Lane, Leeds · Registered in England 0412345', x: 100, y: 765, size: 7 },
      ],
    };
    const [page] = await pages(makePdf([spec]));
    const { furniture, body: text } = split(page!);
    assert.match(text, /Kestrel Engineering Ltd/);
    assert.match(text, /Notice of Annual General Meeting/);
    assert.match(furniture, /Registered in England/);
  });
});
