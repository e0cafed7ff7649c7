import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { renderEqual } from '../../../bench/math/index.ts';
import type { Element, SourceDocument } from '../../../core/types.ts';
import type { OcrEngine, PageImage } from '../../../inference/engine.ts';
import { createPaddleEngine } from '../../../inference/paddle/index.ts';
import { openPdf } from '../../../pipeline/pdf/index.ts';
import { insertInOrder, moveTags, splitBlocks } from '../../../pipeline/regions/blocks.ts';
import { readRegions, sharedFormulaReader } from '../../../pipeline/regions/index.ts';
import { renderPdfRegions } from '../../../pipeline/render/index.ts';
import type { ProcessedDocument } from '../../../pipeline/run/index.ts';
import { isUnreadSource, processSources, readDocument } from '../../../pipeline/run/index.ts';
import type { TextLayerPage } from '../../../pipeline/text-layer/index.ts';
import { extractTextLayer } from '../../../pipeline/text-layer/index.ts';
import { chartPng, noisePng, regionPdf, textPng } from '../../support/region-pdfs.ts';

const BODY = [
  'Quarterly results were strong across every region, with shipments of the new arm up by a third on the same quarter last year.',
  'The board thanks every team for the work that made this possible, and looks forward to the next quarter.',
];
const BANNER = 'Northwind Robotics Quarterly';

function docOf(name: string, bytes: Uint8Array): SourceDocument {
  const uri = `file:///test/${name}`;
  return { id: createHash('sha256').update(uri).digest('hex').slice(0, 16), uri, relativePath: name, mime: 'application/pdf', bytes, contentHash: 'x' };
}

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];

describe('pipeline regions', function () {
  this.timeout(120_000);
  let paddle: OcrEngine;
  before(async () => {
    paddle = await createPaddleEngine({});
  });
  after(async () => {
    await paddle?.close();
  });

  const read = (name: string, bytes: Uint8Array, imageRegions = true): Promise<ProcessedDocument> =>
    readDocument(docOf(name, bytes), { engine: 'auto', ocr: async () => paddle, imageRegions, formulaRegions: false });
  const body = (elements: readonly Element[]): string[] => elements.filter((e) => e.engine === undefined && e.kind === 'paragraph').map((e) => e.text);

  describe('words drawn as an image', () => {
    it('should read a banner of rendered text with paddle and put it before the body, recording engine and route', async () => {
      const result = await read('banner.pdf', await regionPdf({ banner: await textPng(BANNER, 1400, 200), body: BODY }));
      const [page] = result.pages;
      assert.equal(page?.engine, 'text');
      assert.deepEqual(page?.regions, { imageRegions: 1, imageRegionsRead: 1, imageEngine: 'paddle' });
      const banner = result.elements.findIndex((e) => e.engine === 'paddle');
      assert.ok(banner >= 0, 'an element read by paddle');
      const element = result.elements[banner]!;
      assert.deepEqual(words(element.text), words(BANNER));
      assert.ok((element.confidence ?? 0) >= 0.8, `confidence ${element.confidence}`);
      assert.ok(element.bbox !== undefined && element.bbox[1] >= 50 && element.bbox[3] <= 130, `box ${element.bbox} inside the banner`);
      assert.ok(result.elements.findIndex((e) => e.text.startsWith('Quarterly results')) > banner, 'banner first in reading order');
      assert.deepEqual(body(result.elements), BODY);
    });

    it('should keep a chart a figure, its labels as the figure text and out of the body', async () => {
      const result = await read('chart.pdf', await regionPdf({ body: BODY, figure: await chartPng() }));
      const figures = result.elements.filter((e) => e.kind === 'figure');
      assert.equal(figures.length, 1);
      assert.equal(figures[0]?.engine, 'paddle');
      for (const word of ['sales', 'region', 'north', 'west']) assert.ok(words(figures[0]!.text).includes(word), `${word} in ${figures[0]!.text}`);
      assert.equal(result.pages[0]?.regions?.imageRegionsLabelled, 1);
      assert.deepEqual(
        result.elements.filter((e) => e.kind !== 'figure').map((e) => e.text),
        BODY,
      );
    });

    it('should read a letterhead in the top margin as the page header', async () => {
      const result = await read('letterhead.pdf', await regionPdf({ letterhead: await textPng('Contoso Legal LLP', 600, 100), body: BODY }));
      const header = result.elements.filter((e) => e.engine === 'paddle');
      assert.deepEqual(
        header.map((e) => [e.kind, words(e.text).join(' ')]),
        [['pageHeader', 'contoso legal llp']],
      );
      assert.deepEqual(body(result.elements), BODY);
    });

    it('should read a banner repeated on every page once', async () => {
      let calls = 0;
      const counting: OcrEngine = {
        name: 'paddle',
        recognize: (pages, options) => ((calls += pages.length), paddle.recognize(pages, options)),
        close: async () => undefined,
      };
      const bytes = await regionPdf({ banner: await textPng(BANNER, 1400, 200), body: BODY, pages: 3 });
      const result = await readDocument(docOf('three.pdf', bytes), { engine: 'auto', ocr: async () => counting, formulaRegions: false });
      assert.deepEqual(
        result.pages.map((p) => p.regions?.imageRegionsRead),
        [1, 1, 1],
      );
      assert.equal(calls, 1);
    });

    it('should read a letterhead once for every document the same engine reads, and again for another engine', async () => {
      let calls = 0;
      const counting = (): OcrEngine => ({
        name: 'paddle',
        recognize: (pages, options) => ((calls += pages.length), paddle.recognize(pages, options)),
        close: async () => undefined,
      });
      const banner = await textPng('Fabrikam Holdings plc', 1000, 160);
      const docs = await Promise.all(
        ['memo', 'letter'].map(async (n) => docOf(`${n}.pdf`, await regionPdf({ letterhead: banner, body: [`${n} body text`, ...BODY] }))),
      );
      const first = counting();
      for (const doc of docs) {
        const result = await readDocument(doc, { engine: 'auto', ocr: async () => first, formulaRegions: false });
        assert.equal(result.pages[0]?.regions?.imageRegionsRead, 1);
      }
      assert.equal(calls, 1, 'the second document found the reading made for the first');
      await readDocument(docs[0]!, { engine: 'auto', ocr: async () => counting(), formulaRegions: false });
      assert.equal(calls, 2, 'another engine reads for itself');
    });

    it('should leave the banner unread when switched off in worker threads too', async () => {
      const bytes = await regionPdf({ banner: await textPng(BANNER, 1400, 200), body: BODY });
      async function* one(): AsyncIterable<SourceDocument> {
        yield docOf('worker.pdf', bytes);
      }
      for (const imageRegions of [true, false]) {
        for await (const item of processSources(one(), { engine: 'auto', workers: 1, ocr: async () => paddle, imageRegions, formulaRegions: false })) {
          assert.ok(!isUnreadSource(item));
          assert.equal(item.pages[0]?.regions?.imageRegionsRead, imageRegions ? 1 : undefined);
        }
      }
    });

    it('should leave the banner unread when switched off', async () => {
      const result = await read('off.pdf', await regionPdf({ banner: await textPng(BANNER, 1400, 200), body: BODY }), false);
      assert.equal(result.pages[0]?.regions, undefined);
      assert.ok(!result.elements.some((e) => /Northwind/.test(e.text)));
      assert.deepEqual(body(result.elements), BODY);
    });

    for (const [name, png] of [
      ['noise', () => noisePng(1400, 200)],
      ['blank', () => textPng('', 1400, 200)],
    ] as const) {
      it(`should keep a ${name} image a figure and the text layer's body as it was`, async () => {
        const result = await read(`${name}.pdf`, await regionPdf({ banner: await png(), body: BODY }));
        assert.equal(result.pages[0]?.regions?.imageRegionsRead, 0);
        assert.ok(!result.elements.some((e) => e.engine !== undefined), 'nothing read from pixels');
        assert.equal(result.elements.filter((e) => e.kind === 'figure').length, 1);
        assert.deepEqual(body(result.elements), BODY);
      });
    }

    it('should add no words but the banner words from an upside-down banner', async () => {
      const result = await read('upside.pdf', await regionPdf({ banner: await textPng(BANNER, 1400, 200, { upsideDown: true }), body: BODY }));
      const added = result.elements.filter((e) => e.engine !== undefined).flatMap((e) => words(e.text));
      const allowed = new Set(words(BANNER));
      assert.deepEqual(
        added.filter((w) => !allowed.has(w)),
        [],
      );
      assert.deepEqual(body(result.elements), BODY);
    });
  });

  describe('formulas the text layer cannot rebuild', () => {
    // pdflatex output (test/fixtures/regions/formulas.tex): three display formulas with scripts the
    // text layer does not place; folio-ocr-math reads the first two with a wide logit gap, the
    // third (a fraction in an exponent) with a narrow one.
    const fixture = (): Promise<Buffer> => readFile(new URL('../../fixtures/regions/formulas.pdf', import.meta.url));
    const formulas = (elements: readonly Element[]): Element[] => elements.filter((e) => e.kind === 'formula');

    it('should replace the formulas folio-ocr-math reads with confidence, and keep the text of the one it does not', async () => {
      const result = await readDocument(docOf('formulas.pdf', new Uint8Array(await fixture())), { engine: 'auto', imageRegions: false });
      const regions = result.pages[0]?.regions;
      assert.equal(regions?.formulaRegions, 3);
      assert.equal(regions?.formulaEngine, 'folio-ocr-math');
      const read = formulas(result.elements).filter((e) => e.engine === 'folio-ocr-math');
      assert.equal(read.length, regions?.formulaRegionsRead);
      assert.ok(read.length >= 1, 'at least one formula read');
      const truth = ['x = y'];
      for (const element of read) {
        assert.ok((element.confidence ?? 0) >= 1, `confidence ${element.confidence}`);
        const latex = element.formulas?.[0]?.latex ?? '';
        assert.ok(
          truth.some((t) => renderEqual(t, latex)),
          `${latex} renders as one of the truths`,
        );
      }
      assert.match(regions?.regionsRefused as string, /formula 2: low confidence/);
      assert.ok(
        // The script k under ij is read in its place on the line (`yijk = x`: scripts stay on their line).
        result.elements.some((e) => e.engine === undefined && /^yij ?k\b.*= x/.test(e.text)),
        'the refused formula keeps its text',
      );
    });

    it('should keep the text of the text layer when switched off', async () => {
      const result = await readDocument(docOf('formulas-off.pdf', new Uint8Array(await fixture())), {
        engine: 'auto',
        imageRegions: false,
        formulaRegions: false,
      });
      assert.equal(result.pages[0]?.regions, undefined);
      assert.ok(!result.elements.some((e) => e.engine !== undefined));
      assert.ok(result.elements.some((e) => /^yij ?k\b.*= x/.test(e.text)));
    });
  });

  describe('bad formula crops', () => {
    // The fixture's text layer and formula regions, read from pixels that do not show them.
    type Box = readonly [number, number, number, number];
    let layer: TextLayerPage;
    let pdf: Awaited<ReturnType<typeof openPdf>>;
    before(async () => {
      const bytes = new Uint8Array(await readFile(new URL('../../fixtures/regions/formulas.pdf', import.meta.url)));
      pdf = await openPdf(bytes, { source: 'formulas.pdf' });
      for await (const p of extractTextLayer(pdf)) layer ??= p;
    });
    after(async () => {
      await pdf.close();
    });
    const crops = async (dpi: number, boxes: readonly Box[]) =>
      renderPdfRegions(await pdf.page(1), boxes, { source: 'formulas.pdf', docId: 'f', pageNumber: 1, dpi });
    const pixels = (image: PageImage, pixel: (i: number, data: Uint8Array) => number): PageImage => {
      const data = new Uint8Array(image.data.length);
      for (let i = 0; i < data.length; i++) data[i] = pixel(i, image.data);
      return { ...image, data };
    };
    let seed = 1;
    const cases: [string, (image: PageImage) => PageImage][] = [
      ['noise', (image) => pixels(image, () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 23) & 0xff)],
      ['blank', (image) => pixels(image, () => 255)],
      // Turned half round: pixel (x, y) comes from (w - 1 - x, h - 1 - y), channel kept.
      ['upside-down', (image) => pixels(image, (i, data) => data[data.length - 1 - (i - (i % 3)) - (2 - (i % 3))]!)],
    ];
    for (const [name, spoil] of cases) {
      it(`should keep every formula's text when the crops show ${name}`, async () => {
        const result = await readRegions(
          { markdown: layer.markdown, width: layer.width, height: layer.height, regions: layer.regions ?? [] },
          {
            formula: () => sharedFormulaReader('cpu'),
            render: async (dpi, boxes) => (await crops(dpi, boxes)).map((image) => ({ ...spoil(image), box: image.box })),
          },
        );
        assert.equal(result.details.formulaRegions, 3);
        assert.equal(result.details.formulaRegionsRead, 0, String(result.details.regionsRefused));
        assert.equal(result.markdown, layer.markdown);
      });
    }
  });

  describe('blocks', () => {
    const page = [
      '<|ref|>page_header<|/ref|><|det|>[[0, 0, 999, 30]]<|/det|>\nRunning head',
      '<|ref|>text<|/ref|><|det|>[[50, 100, 480, 300]]<|/det|>\nLeft column',
      '<|ref|>text<|/ref|><|det|>[[520, 100, 950, 200]]<|/det|>\nRight top',
      '<|ref|>text<|/ref|><|det|>[[520, 600, 950, 800]]<|/det|>\nRight bottom',
      '<|ref|>page_footer<|/ref|><|det|>[[0, 970, 999, 999]]<|/det|>\n3',
    ].join('\n\n');
    const added = [{ markdown: 'x', label: 'text' }];
    const order = (box: readonly [number, number, number, number]): string[] =>
      insertInOrder(splitBlocks(page), added, box).map((b) => b.markdown.split('\n').pop()!);

    it('should put a figure of the right column between the blocks of that column, after the left column', () => {
      assert.deepEqual(order([520, 300, 950, 500]), ['Running head', 'Left column', 'Right top', 'x', 'Right bottom', '3']);
    });

    it('should put a full-width banner after the running head and before the body', () => {
      assert.deepEqual(order([50, 40, 950, 90]), ['Running head', 'x', 'Left column', 'Right top', 'Right bottom', '3']);
    });

    it('should put a region below every block of its column last, before the footer', () => {
      assert.deepEqual(order([520, 850, 950, 950]), ['Running head', 'Left column', 'Right top', 'Right bottom', 'x', '3']);
    });

    it('should move tags read on a crop onto the page grid', () => {
      // A crop of the page's right half, lower half: its grid's (0, 0)–(999, 999) is the page's (306, 396)–(612, 792) in points.
      const moved = moveTags('<|ref|>title<|/ref|><|det|>[[0, 0, 999, 999]]<|/det|>\n# A', [306, 396, 612, 792], 612, 792);
      assert.equal(moved, '<|ref|>title<|/ref|><|det|>[[500, 500, 999, 999]]<|/det|>\n# A');
    });
  });
});
