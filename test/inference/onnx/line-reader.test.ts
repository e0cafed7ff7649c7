import assert from 'node:assert/strict';
import type { LineReader } from '../../../inference/onnx/line-reader.ts';
import { createLineReader, joinPieces, readWithFallback } from '../../../inference/onnx/line-reader.ts';
import { blankCrop, fixtureLine, LINE_TEXTS, longLine, noiseCrop, photoCrop, turned, wholeBox } from './line-inputs.ts';

// The committed folio-ocr-lines model through the TypeScript engine on the CPU.
describe('folio-ocr-lines line reader', function () {
  this.timeout(180_000);
  let speculative: LineReader;
  let greedy: LineReader;
  const MAX_TOKENS = 96;
  const MAX_VIEWS = 4;

  before(async () => {
    speculative = await createLineReader({ threads: 2, maxViewsPerLine: MAX_VIEWS });
    greedy = await createLineReader({ threads: 2, draftK: 0, maxViewsPerLine: MAX_VIEWS });
  });
  after(async () => {
    await speculative?.release();
    await greedy?.release();
  });

  it('should read a rendered line exactly', async () => {
    const image = await fixtureLine(0);
    const [line] = await speculative.read(image, [{ box: wholeBox(image), flip: false }]);
    assert.equal(line!.text, LINE_TEXTS[0]);
    assert.equal(line!.guard, undefined);
    assert.equal(line!.views, 1);
  });

  it('should give the same ids with speculative and greedy decoding, token for token', async () => {
    const images = [await fixtureLine(0), await fixtureLine(1), longLine(await fixtureLine(0), 3000), turned(await fixtureLine(1))];
    for (const image of images) {
      const lines = [{ box: wholeBox(image), flip: false }];
      const [s] = await speculative.read(image, lines);
      const [g] = await greedy.read(image, lines);
      assert.deepEqual(s!.ids, g!.ids);
      assert.ok(g!.ids.length > 1, 'the views were read, not refused');
      // Speculative decoding verified several tokens per pass on text the model reads.
      if (image === images[0]) assert.ok(s!.steps < g!.steps, `speculative ${s!.steps} passes, greedy ${g!.steps}`);
    }
  });

  it('should read a line turned upside down when told to flip it', async () => {
    const image = turned(await fixtureLine(0));
    const [line] = await speculative.read(image, [{ box: wholeBox(image), flip: true }]);
    assert.equal(line!.text, LINE_TEXTS[0]);
  });

  describe('bad input: a guarded answer within bounded tokens', () => {
    const bounded = (r: { tokens: number; views: number }): void => {
      assert.ok(r.views <= MAX_VIEWS, `views ${r.views}`);
      assert.ok(r.tokens <= r.views * MAX_TOKENS, `tokens ${r.tokens} for ${r.views} views`);
    };

    for (const [name, make] of [
      ['a crop of noise', () => noiseCrop()],
      ['a blank crop', () => blankCrop()],
      ['a crop of a photo', () => photoCrop()],
    ] as const) {
      it(`should say nothing for ${name}`, async () => {
        const image = make();
        const [line] = await speculative.read(image, [{ box: wholeBox(image), flip: false }]);
        assert.equal(line!.text, '');
        bounded(line!);
      });
    }

    it('should refuse a line 1 pixel high without cutting it', async () => {
      const image = longLine(await fixtureLine(0), 5000);
      const [line] = await speculative.read(image, [{ box: { cx: 2500, cy: 30, w: 5000, h: 1, angle: 0 }, flip: false }]);
      assert.deepEqual([line!.text, line!.guard, line!.views, line!.tokens], ['', 'too-small', 0, 0]);
    });

    it('should read a line 5,000 px long in a bounded number of views', async () => {
      const image = longLine(await fixtureLine(0), 5000);
      const [line] = await speculative.read(image, [{ box: wholeBox(image), flip: false }]);
      bounded(line!);
      assert.ok(line!.views > 1);
      assert.ok(line!.text.startsWith(`${LINE_TEXTS[0]} ${LINE_TEXTS[0]}`), line!.text);
    });

    it('should refuse a line too long for its view budget before cutting it', async () => {
      const image = longLine(await fixtureLine(0), 40_000);
      const [line] = await speculative.read(image, [{ box: wholeBox(image), flip: false }]);
      assert.deepEqual([line!.text, line!.guard, line!.views, line!.tokens], ['', 'too-long', 0, 0]);
    });

    it('should refuse text upside down read as it is', async () => {
      const image = turned(await fixtureLine(0));
      const [line] = await speculative.read(image, [{ box: wholeBox(image), flip: false }]);
      assert.equal(line!.text, '');
      assert.ok(line!.guard !== undefined);
      bounded(line!);
    });

    it('should give refused and empty lines to the other recogniser', async () => {
      const image = blankCrop(6000, 80);
      const lines = [
        { box: { cx: 300, cy: 40, w: 500, h: 40, angle: 0 }, p180: 0 },
        { box: { cx: 3000, cy: 40, w: 5000, h: 1, angle: 0 }, p180: 0 },
      ];
      const asked: number[] = [];
      const texts = await readWithFallback(speculative, image, lines, async (some) => {
        asked.push(...some.map((l) => lines.indexOf(l as (typeof lines)[number])));
        return some.map(() => ({ text: 'other', confidence: 0.7 }));
      });
      assert.deepEqual(asked, [0, 1]);
      assert.deepEqual(texts, [
        { text: 'other', confidence: 0.7 },
        { text: 'other', confidence: 0.7 },
      ]);
    });
  });

  it('should join the pieces of a line with single spaces', () => {
    assert.equal(joinPieces(['first piece\nsecond ', ' third']), 'first piece second third');
    assert.equal(joinPieces(['', '\n']), '');
  });
});
