import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError, InferenceError } from '../../../core/errors.ts';
import { parseModelConfig } from '../../../inference/onnx/config.ts';
import { decode } from '../../../inference/onnx/decode.ts';
import { loadPageImage } from '../../../inference/onnx/image-file.ts';
import { intraOpThreads, loadModel } from '../../../inference/onnx/load.ts';
import { MODEL_DIR, reference } from './fixture.ts';

describe('loadModel', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-model-'));
    await cp(MODEL_DIR, dir, { recursive: true });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('should load the tiny model and read its contract', async () => {
    const model = await loadModel({ modelDir: dir, threads: 1 });
    try {
      assert.equal(model.config.family, 'folio-ocr');
      assert.equal(model.config.tokensPerView, 68);
      assert.deepEqual(model.config.decoder, { layers: 2, hidden: 64, kvHeads: 1, headDim: 32, vocab: 512, maxPositions: 512 });
      assert.equal(model.config.draft.k, 3);
      assert.equal(model.layout.decoder.length, 2);
      assert.notEqual(model.forward.mtp, undefined);
    } finally {
      await model.release();
    }
  });

  it('should name a missing file', async () => {
    await unlink(join(dir, 'mtp.onnx'));
    await assert.rejects(
      loadModel({ modelDir: dir }),
      (e: unknown) => e instanceof InferenceError && e.code === 'FOLIO_MODEL_FILE' && e.message.includes('mtp.onnx'),
    );
  });

  it('should not need the draft head for greedy decoding', async () => {
    await unlink(join(dir, 'mtp.onnx'));
    const model = await loadModel({ modelDir: dir, withoutDraftHead: true, threads: 1 });
    assert.equal(model.forward.mtp, undefined);
    await model.release();
  });

  it('should load a model without the optional step graphs and decode with the contract graphs', async () => {
    // The real jina-ocr-v1 export has decoder.onnx and mtp.onnx only.
    const file = join(dir, 'folio-model.json');
    const json = JSON.parse(await readFile(file, 'utf8'));
    delete json.onnx.decoder_step;
    delete json.onnx.mtp_step;
    await writeFile(file, JSON.stringify(json));
    await unlink(join(dir, 'decoder_step.onnx'));
    await unlink(join(dir, 'mtp_step.onnx'));
    const model = await loadModel({ modelDir: dir, threads: 1 });
    try {
      assert.equal(model.config.files.decoderStep, undefined);
      assert.equal(model.steps, undefined);
      const [page] = await decode(model, [await loadPageImage({ path: join(dir, 'input-0.png') })], {
        ignoreEos: true,
        repetition: false,
        maxTokens: 6,
        draftK: 2,
      });
      assert.equal(page!.stats.graphs, 'contract');
      assert.deepEqual(page!.ids, reference.cases[0]!.greedy_ids.slice(0, 6));
    } finally {
      await model.release();
    }
  });

  it('should open the step graphs when declared and present, unless told not to', async () => {
    const auto = await loadModel({ modelDir: dir, threads: 1 });
    const off = await loadModel({ modelDir: dir, threads: 1, steps: false });
    const greedy = await loadModel({ modelDir: dir, threads: 1, withoutDraftHead: true });
    try {
      assert.equal(auto.config.files.decoderStep, 'decoder_step.onnx');
      assert.notEqual(auto.steps?.draft, undefined);
      assert.equal(off.steps, undefined);
      assert.notEqual(greedy.steps, undefined);
      assert.equal(greedy.steps!.draft, undefined);
    } finally {
      await Promise.all([auto.release(), off.release(), greedy.release()]);
    }
  });

  it('should skip declared step graphs that are missing, and name them when they are required', async () => {
    await unlink(join(dir, 'decoder_step.onnx'));
    const model = await loadModel({ modelDir: dir, threads: 1 });
    assert.equal(model.steps, undefined);
    await model.release();
    await assert.rejects(
      loadModel({ modelDir: dir, steps: true }),
      (e: unknown) => e instanceof InferenceError && e.code === 'FOLIO_MODEL_FILE' && e.message.includes('decoder_step.onnx'),
    );
  });

  it('should name a corrupt file', async () => {
    await writeFile(join(dir, 'decoder.onnx'), 'not a model');
    await assert.rejects(
      loadModel({ modelDir: dir }),
      (e: unknown) => e instanceof InferenceError && e.code === 'FOLIO_MODEL_LOAD' && e.message.includes('decoder.onnx'),
    );
  });

  it('should name a folder without folio-model.json', async () => {
    await unlink(join(dir, 'folio-model.json'));
    await assert.rejects(loadModel({ modelDir: dir }), /folio-model\.json: missing/);
  });

  it('should list shapes that do not match folio-model.json', async () => {
    const file = join(dir, 'folio-model.json');
    const json = JSON.parse(await readFile(file, 'utf8'));
    json.decoder.hidden = 96;
    json.decoder.vocab = 1000;
    await writeFile(file, JSON.stringify(json));
    await assert.rejects(
      loadModel({ modelDir: dir }),
      (e: unknown) =>
        e instanceof InferenceError &&
        e.code === 'FOLIO_MODEL_SHAPE' &&
        /decoder\.onnx: output `logits` is \[.*,512\], expected \[\?,\?,1000\]/.test(e.message) &&
        e.message.includes('vision.onnx'),
    );
  });

  it('should say what webgpu needs when it cannot start', async function () {
    let model;
    try {
      model = await loadModel({ modelDir: dir, device: 'webgpu', withoutDraftHead: true });
    } catch (e) {
      assert.ok(e instanceof ConfigurationError && e.code === 'FOLIO_DEVICE_UNAVAILABLE', String(e));
      assert.match(e.message, /vision\.onnx: execution provider `webgpu` is not available here .*libvulkan\.so\.1/s);
      return;
    }
    // A machine with a Vulkan GPU runs it: nothing to check here.
    await model.release();
    this.skip();
  });

  it('should say so when a provider is not available', async () => {
    // The CUDA provider's files are never installed here (.npmrc skips the download).
    await assert.rejects(
      loadModel({ modelDir: dir, device: 'cuda' }),
      (e: unknown) => e instanceof ConfigurationError && e.code === 'FOLIO_DEVICE_UNAVAILABLE' && e.message.includes('cuda'),
    );
  });
});

describe('parseModelConfig', () => {
  it('should refuse an unknown family', async () => {
    const json = JSON.parse(await readFile(`${MODEL_DIR}folio-model.json`, 'utf8'));
    assert.throws(
      () => parseModelConfig({ ...json, family: 'llama' }, 'x/folio-model.json'),
      (e: unknown) =>
        e instanceof InferenceError &&
        e.code === 'FOLIO_MODEL_FAMILY' &&
        e.message === 'x/folio-model.json: unknown model family `llama`; this engine runs folio-ocr',
    );
  });

  it('should name the field and the value that are wrong', async () => {
    const json = JSON.parse(await readFile(`${MODEL_DIR}folio-model.json`, 'utf8'));
    assert.throws(() => parseModelConfig({ ...json, decoder: { ...json.decoder, kv_heads: '1' } }, 'm.json'), {
      message: 'm.json: expected `decoder.kv_heads` to be an integer from 1 and up, got `"1"` (string)',
    });
    assert.throws(() => parseModelConfig({ ...json, image: { ...json.image, mean: [0.5] } }, 'm.json'), /`image\.mean` to be three numbers/);
  });
});

describe('intraOpThreads', () => {
  it('should give sessions on a GPU and the embedding lookup beside one a single thread, and the rest the option', () => {
    assert.equal(intraOpThreads({ device: 'webgpu', on: 'webgpu', threads: 0, lookup: false }), 1);
    assert.equal(intraOpThreads({ device: 'webgpu', on: 'cpu', threads: 0, lookup: true }), 1);
    // The draft head beside a GPU and every session of a CPU model keep the caller's threads.
    assert.equal(intraOpThreads({ device: 'webgpu', on: 'cpu', threads: 0, lookup: false }), 0);
    assert.equal(intraOpThreads({ device: 'cpu', on: 'cpu', threads: 4, lookup: true }), 4);
    assert.equal(intraOpThreads({ device: 'cpu', on: 'cpu', threads: 0, lookup: false }), 0);
  });
});
