/**
 * Pictures inside a DOCX: under `auto` a picture of text is read by paddle through the PDF route's
 * image-region reader, its words in the document's flow; under `text` it stays a figure with its
 * alt text; an icon-sized picture is never sent to OCR.
 */
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { sniffMime } from '../../../connector/index.ts';
import { sha256 } from '../../../core/hash.ts';
import type { SourceDocument } from '../../../core/types.ts';
import type { OcrEngine } from '../../../inference/engine.ts';
import { createPaddleEngine } from '../../../inference/paddle/index.ts';
import { processDocument } from '../../../pipeline/run/index.ts';
import { drawnPdf, renderedPage } from '../../support/ocr-pages.ts';
import { makeDocx, p } from './zip-writer.ts';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A DrawingML inline picture, as Word writes one. */
const picture = (relId: string, descr: string): string =>
  `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:docPr id="1" name="Picture 1" descr="${descr}"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:blipFill><a:blip r:embed="${relId}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

/** Two lines of text drawn on a page, rendered, and cut out as a PNG: a memo pasted as a picture. */
async function textPicture(): Promise<Uint8Array> {
  const pdf = await drawnPdf([
    { text: 'Warehouse inventory closes on Friday', x: 60, y: 80, size: 18 },
    { text: 'Contact the logistics desk for extensions', x: 60, y: 110, size: 18 },
  ]);
  const page = await renderedPage(pdf, 'memo.pdf', 150);
  const scale = 150 / 72;
  const png = await sharp(page.data, { raw: { width: page.width, height: page.height, channels: page.channels } })
    .extract({ left: Math.round(40 * scale), top: Math.round(50 * scale), width: Math.round(500 * scale), height: Math.round(80 * scale) })
    .png()
    .toBuffer();
  return new Uint8Array(png);
}

/** A 16×16 icon: too small to hold a line of text. */
async function icon(): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer(),
  );
}

function source(bytes: Uint8Array, name: string): SourceDocument {
  return { id: sha256(name).slice(0, 16), uri: `file:///test/${name}`, relativePath: name, mime: sniffMime(bytes, name), bytes, contentHash: sha256(bytes) };
}

describe('pictures inside office files', function () {
  this.timeout(120_000);
  let paddle: OcrEngine;
  let docx: Uint8Array;
  before(async () => {
    paddle = await createPaddleEngine({});
    docx = makeDocx(`${p('Notice board')}${picture('rIdMemo', 'scanned memo')}${picture('rIdIcon', 'bell icon')}${p('End of notices')}`, {
      rels: `<Relationship Id="rIdMemo" Type="${REL}/image" Target="media/image1.png"/><Relationship Id="rIdIcon" Type="${REL}/image" Target="media/image2.png"/>`,
      parts: [
        { name: 'word/media/image1.png', data: await textPicture(), deflate: false },
        { name: 'word/media/image2.png', data: await icon(), deflate: false },
      ],
    });
  });
  after(async () => {
    await paddle?.close();
  });

  it('should read a picture of text through OCR under auto, in the flow, and leave an icon a figure', async () => {
    let calls = 0;
    const counted: OcrEngine = { ...paddle, name: paddle.name, recognize: (pages, options) => ((calls += pages.length), paddle.recognize(pages, options)) };
    const result = await processDocument(source(docx, 'notices.docx'), { engine: 'auto', ocr: async () => counted });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.match(result.markdown, /Warehouse inventory closes on Friday/i);
    assert.match(result.markdown, /logistics desk/i);
    const texts = result.elements.map((e) => e.text);
    const memo = texts.findIndex((t) => /Warehouse/i.test(t));
    assert.ok(memo > texts.indexOf('Notice board') && memo < texts.indexOf('End of notices'), `in reading order: ${JSON.stringify(texts)}`);
    assert.deepEqual(
      result.elements.filter((e) => e.kind === 'figure').map((e) => e.text),
      ['bell icon'],
      'the icon stays a figure with its alt text',
    );
    assert.equal(calls, 1, 'only the picture big enough to hold text went to OCR');
    assert.equal(result.pages[0]?.engine, 'docx');
    assert.deepEqual(result.pages[0]?.regions, { picturesRead: 1, picturesSkipped: 1 });
  });

  it('should leave every picture a figure with its alt text under --engine text', async () => {
    const result = await processDocument(source(docx, 'notices.docx'), { engine: 'text', ocr: async () => paddle });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.doesNotMatch(result.markdown, /Warehouse/i);
    assert.deepEqual(
      result.elements.filter((e) => e.kind === 'figure').map((e) => e.text),
      ['scanned memo', 'bell icon'],
    );
  });
});
