import assert from 'node:assert/strict';
import { ConfigurationError, InferenceError } from '../../../core/errors.ts';
import type { PageImage } from '../../../inference/engine.ts';
import { decode } from '../../../inference/onnx/decode.ts';
import { createOnnxEngine } from '../../../inference/onnx/engine.ts';
import { loadPageImage } from '../../../inference/onnx/image-file.ts';
import { loadModel } from '../../../inference/onnx/load.ts';
import { MODEL_DIR, reference } from './fixture.ts';

describe('createOnnxEngine', () => {
  let pages: PageImage[];
  before(async () => {
    pages = await Promise.all(reference.cases.map((c, i) => loadPageImage({ path: `${MODEL_DIR}${c.image}`, pageNumber: i + 1 })));
  });

  it('should recognise pages in batches, as decode does, with stats', async () => {
    const engine = await createOnnxEngine({ modelDir: MODEL_DIR, draftK: 2, batchSize: 2, maxTokens: 12, threads: 1 });
    const model = await loadModel({ modelDir: MODEL_DIR, threads: 1 });
    try {
      const input = [pages[0]!, pages[1]!, pages[0]!];
      const results = await engine.recognize(input);
      const expected = await decode(model, input, { draftK: 0, maxTokens: 12 });
      assert.equal(engine.name, 'onnx');
      assert.deepEqual(
        results.map((r) => r.markdown),
        expected.map((e) => e.text),
      );
      for (const r of results) {
        assert.equal(r.engine, 'onnx');
        assert.equal(r.stats.draftK, 2);
        assert.ok(r.stats.tokens! >= 1 && r.stats.tokens! <= 12);
        assert.ok('accept1' in r.stats && 'accept2' in r.stats && 'tau' in r.stats);
      }
    } finally {
      await engine.close();
      await model.release();
    }
  });

  it('should reject a bad page naming it', async () => {
    const engine = await createOnnxEngine({ modelDir: MODEL_DIR, draftK: 0, maxTokens: 4, threads: 1 });
    try {
      const empty: PageImage = { ...pages[0]!, pageNumber: 7, width: 0, data: new Uint8Array(0) };
      await assert.rejects(
        engine.recognize([pages[0]!, empty]),
        (e: unknown) => e instanceof InferenceError && e.message.startsWith(`page 7 of ${pages[0]!.source}`),
      );
    } finally {
      await engine.close();
    }
  });

  it('should reject when the signal aborts', async () => {
    const engine = await createOnnxEngine({ modelDir: MODEL_DIR, draftK: 0, maxTokens: 4, threads: 1 });
    try {
      await assert.rejects(engine.recognize([pages[0]!], { signal: AbortSignal.abort() }), { name: 'AbortError' });
    } finally {
      await engine.close();
    }
  });

  it('should validate its options', async () => {
    await assert.rejects(
      createOnnxEngine({ modelDir: MODEL_DIR, batchSize: 0 }),
      (e: unknown) => e instanceof ConfigurationError && e.message === 'Expected `batchSize` to be an integer from 1 and up, got `0` (number)',
    );
    await assert.rejects(createOnnxEngine({ modelDir: MODEL_DIR, draftK: 1.5 }), /`draftK`/);
    await assert.rejects(
      createOnnxEngine({ modelDir: MODEL_DIR, device: 'tpu' as never }),
      (e: unknown) => e instanceof ConfigurationError && e.code === 'FOLIO_BAD_DEVICE',
    );
  });
});
