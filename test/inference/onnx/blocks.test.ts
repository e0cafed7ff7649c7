import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { characterErrorRate } from '../../../bench/ocr/cer.ts';
import type { OcrEngine, PageImage } from '../../../inference/engine.ts';
import type { BlockReader } from '../../../inference/onnx/blocks.ts';
import { createBlockReader } from '../../../inference/onnx/blocks.ts';
import { parseModelConfig } from '../../../inference/onnx/config.ts';
import { createOnnxEngine } from '../../../inference/onnx/engine.ts';
import { loadPageImage } from '../../../inference/onnx/image-file.ts';
import { cutPoints } from '../../../inference/onnx/line-views.ts';
import type { OcrModel } from '../../../inference/onnx/load.ts';
import { loadModel } from '../../../inference/onnx/load.ts';
import { layoutOcrResult } from '../../../pipeline/layout/index.ts';
import { OCR_SCANS, renderFirstPage } from '../../support/pages.ts';
import { MODEL_DIR } from './fixture.ts';

const TRAINED = new URL('../../../inference/models/folio-ocr-mini/', import.meta.url).pathname;
/** The memo's text as examples/make-docs.ts draws it. */
const MEMO = `# Memo: Quarterly Archive Review

The archive team scanned 1,240 boxes of invoices this quarter. Every page was read by the embedded OCR engine and indexed with its page number, so auditors can search the scans by supplier name, invoice number or amount.

Next steps: review the pages flagged by the quality gate and rescan the faded carbon copies at a higher resolution.
`;
const TAG = /^<\|ref\|>(\w+)<\|\/ref\|><\|det\|>\[\[(\d+), (\d+), (\d+), (\d+)\]\]<\|\/det\|>$/gm;

function assertGrounded(markdown: string): void {
  const tags = [...markdown.matchAll(TAG)];
  assert.ok(tags.length >= 1, markdown);
  for (const tag of tags) {
    const [x1, y1, x2, y2] = tag.slice(2).map(Number) as [number, number, number, number];
    assert.ok(['title', 'sub_title', 'text', 'table'].includes(tag[1]!), tag[0]);
    assert.ok(x1 < x2 && y1 < y2 && x2 <= 999 && y2 <= 999, tag[0]);
  }
}

describe('createOnnxEngine with a text-block model', function () {
  // The trained model reads a page as ~10 line views; a few seconds a page on 2 cores.
  this.timeout(120_000);
  let engine: OcrEngine;
  let model: OcrModel;
  let reader: BlockReader;
  let memo: PageImage;
  let scan: PageImage;

  before(async () => {
    [engine, model, memo, scan] = await Promise.all([
      createOnnxEngine({ modelDir: TRAINED, draftK: 3, threads: 2 }),
      loadModel({ modelDir: TRAINED, threads: 2 }),
      loadPageImage({ path: 'examples/docs/scanned-memo.png', pageNumber: 1 }),
      renderFirstPage('ocr_test.pdf'),
    ]);
    reader = await createBlockReader(model, { threads: 2 });
  });
  after(async () => Promise.all([engine?.close(), reader?.release(), model?.release()]));

  it('should read real pages line by line into grounded Markdown, speculative equal to greedy', async () => {
    const expectedScan = await readFile(`${OCR_SCANS}/ocr_test.expected.md`, 'utf8');
    const read = await engine.recognize([memo, scan]);
    const { results: greedy } = await reader.read([memo, scan], { draftK: 0 });
    // The engine hands back positioned lines, not Markdown: the layout stage writes that.
    assert.deepEqual(
      read.map((r) => [r.markdown, r.positioned]),
      greedy.map((r) => ['', r.positioned]),
    );
    const speculative = read.map((r, i) => layoutOcrResult(r, [memo, scan][i]!.pageNumber));

    const [m, s] = speculative as [(typeof speculative)[0], (typeof speculative)[0]];
    // The model has ~12% CER on clean synthetic blocks; whole-page garbage scores near 1.
    const memoCer = characterErrorRate(m.markdown, MEMO);
    const scanCer = characterErrorRate(s.markdown, expectedScan);
    assert.ok(memoCer < 0.45, `memo CER ${memoCer.toFixed(3)}: ${m.markdown}`);
    assert.ok(scanCer < 0.35, `ocr_test CER ${scanCer.toFixed(3)}: ${s.markdown}`);
    for (const word of ['archive', 'page', 'search']) assert.ok(m.markdown.includes(word), `${word} in ${m.markdown}`);
    for (const word of ['PDF', 'document', 'conversion']) assert.ok(s.markdown.includes(word), `${word} in ${s.markdown}`);
    assertGrounded(m.markdown);
    assertGrounded(s.markdown);
    assert.ok((m.markdown.match(TAG) ?? []).length >= 2, 'the memo has a heading and paragraphs apart');

    for (const [r, g] of [
      [m, greedy[0]!],
      [s, greedy[1]!],
    ] as const) {
      assert.equal(r.engine, 'onnx');
      assert.equal(r.stats.draftK, 3);
      assert.ok(r.stats.lines! >= 1 && r.stats.views! >= r.stats.lines!, JSON.stringify(r.stats));
      // The same tokens, in fewer verification steps when drafts are accepted.
      assert.equal(r.stats.tokens, g.stats.tokens);
      assert.equal(g.stats.steps, g.stats.tokens - g.extra.views!, "greedy: one step per token after each view's prefill");
      assert.ok(r.stats.steps! <= g.stats.steps);
      // τ counts what each step committed, tokens cut off at a stop included, so it is a bit above this.
      assert.ok(r.stats.tau! >= (r.stats.tokens! - r.stats.views!) / r.stats.steps! && r.stats.tau! <= 4, JSON.stringify(r.stats));
      assert.ok('accept1' in r.stats && 'accept3' in r.stats);
    }
  });

  it('should return an empty page for a white image', async () => {
    const white: PageImage = { docId: 'd', source: 'white.png', pageNumber: 2, data: new Uint8Array(64 * 48).fill(255), width: 64, height: 48, channels: 1 };
    const [r] = await engine.recognize([white]);
    assert.equal(r!.markdown, '');
    assert.equal(r!.stats.tokens, 0);
  });
});

describe('parseModelConfig › input', () => {
  it('should read `input`, treat a missing one as `page` and reject others naming the field', async () => {
    const json = JSON.parse(await readFile(`${MODEL_DIR}folio-model.json`, 'utf8')) as Record<string, unknown>;
    assert.equal(parseModelConfig({ ...json, input: undefined }, 'm.json').input, 'page');
    assert.equal(parseModelConfig({ ...json, input: 'text-block' }, 'm.json').input, 'text-block');
    assert.throws(() => parseModelConfig({ ...json, input: 'lines' }, 'm.json'), /m\.json: expected `input` to be one of page, text-block, got `"lines"`/);
  });

  it('should let the engine option override it, validated', async () => {
    await assert.rejects(
      createOnnxEngine({ modelDir: MODEL_DIR, input: 'lines' as never }),
      /Expected `input` to be `page` or `text-block`, got `lines` \(string\)/,
    );
    await assert.rejects(createOnnxEngine({ modelDir: MODEL_DIR, viewBatchSize: 0 }), /Expected `viewBatchSize` to be an integer from 1 and up, got `0`/);
  });
});

describe('cutPoints', () => {
  it('should cut a long line at word spaces into pieces that fit', () => {
    // Ink everywhere but a blank column every 10 px (word spaces).
    const width = 100;
    const height = 4;
    const data = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 9; x < width; x += 10) data[y * width + x] = 255;
    const pieces = cutPoints({ data, width, height }, 32);
    assert.equal(pieces[0]![0], 0);
    assert.equal(pieces.at(-1)![1], width);
    for (const [i, [x0, x1]] of pieces.entries()) {
      assert.ok(x1 - x0 <= 32 && x1 > x0);
      if (i > 0) assert.equal(x0, pieces[i - 1]![1]);
      if (i < pieces.length - 1) assert.equal(data[x1]!, 255, `cut at ${x1} is in a space`);
    }
  });
});
