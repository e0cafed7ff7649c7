import assert from 'node:assert/strict';
import { generateDocument } from '../../../bench/furniture/documents.ts';
import { scanDocument } from '../../../bench/furniture/index.ts';
import { scoreFurniturePage } from '../../../bench/furniture/run.ts';
import { seededRandom } from '../../../bench/scans/index.ts';
import { sha256 } from '../../../core/hash.ts';
import type { SourceDocument } from '../../../core/types.ts';
import type { OcrEngine } from '../../../inference/engine.ts';
import { createPaddleEngine } from '../../../inference/paddle/index.ts';
import { withLayout } from '../../../pipeline/layout/index.ts';
import { processDocument } from '../../../pipeline/run/index.ts';

describe('paddle furniture on generated scans', function () {
  this.timeout(300_000);
  let engine: OcrEngine;
  before(async () => {
    engine = withLayout(await createPaddleEngine({ threads: 2 }));
  });
  after(async () => engine.close());

  async function read(style: 'book' | 'none', seed: string) {
    const random = seededRandom(seed);
    const doc = await generateDocument(style, style, 2, random);
    const bytes = await scanDocument(doc.pdf, random);
    const source: SourceDocument = {
      id: sha256(seed),
      uri: `generated:${seed}.pdf`,
      relativePath: `${seed}.pdf`,
      mime: 'application/pdf',
      bytes,
      contentHash: sha256(bytes),
    };
    const processed = await processDocument(source, { engine: 'auto', ocr: async () => ({ ...engine, close: async () => undefined }) });
    return { doc, processed };
  }

  it('should take a scanned book page’s running head and page number out of the body', async () => {
    const { doc, processed } = await read('book', 'test-furniture-book');
    assert.ok(
      processed.pages.every((p) => p.engine === 'paddle'),
      JSON.stringify(processed.pages.map((p) => p.engine)),
    );
    for (const [i, truth] of doc.pages.entries()) {
      const elements = processed.elements.filter((e) => e.pageNumber === i + 1);
      const score = scoreFurniturePage(elements, truth);
      assert.ok(score.matched >= 0.7 * score.truthUnits && score.matched >= 0.7 * score.foundUnits, `page ${i + 1}: ${JSON.stringify(score)}`);
      assert.ok(score.bodyCer < 0.05, `page ${i + 1}: body CER ${score.bodyCer}`);
    }
    const head = doc.pages[0]!.furniture[0]!.replace(/\d+/g, '').trim();
    assert.ok(!processed.markdown.includes(head), `running head left in the Markdown: ${head}`);
  });

  it('should find no furniture on scanned pages that have none', async () => {
    const { processed } = await read('none', 'test-furniture-none');
    const found = processed.elements.filter((e) => e.kind === 'pageHeader' || e.kind === 'pageFooter');
    assert.deepEqual(
      found.map((e) => e.text),
      [],
    );
  });
});
