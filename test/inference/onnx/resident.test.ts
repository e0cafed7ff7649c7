import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { PageImage } from '../../../inference/engine.ts';
import { decode } from '../../../inference/onnx/decode.ts';
import type { SessionLike } from '../../../inference/onnx/forward.ts';
import { gatherRowsModel, rowGather } from '../../../inference/onnx/gather-rows.ts';
import type { GenerateOptions } from '../../../inference/onnx/generate.ts';
import type { RowGather } from '../../../inference/onnx/kv-buffer.ts';
import { KvBuffers } from '../../../inference/onnx/kv-buffer.ts';
import { encodePages } from '../../../inference/onnx/prompt.ts';
import { StepForward } from '../../../inference/onnx/step-forward.ts';
import type { Tensor } from '../../../inference/runtime/ort.ts';
import { OnnxSession, tensor } from '../../../inference/runtime/ort.ts';
import type { FakeModel } from './fake-model.ts';
import { fakeModel } from './fake-model.ts';
import { fakeSteps } from './fake-steps.ts';
import { reference } from './fixture.ts';
import { collect, runFake, useTinyModel } from './harness.ts';

const layers = [{ pastKey: 'pk', pastValue: 'pv', presentKey: 'k', presentValue: 'v' }];

/** A `[B, 1, C, 1]` cache whose slot (b, c) holds 10·b + c (+ 0.5 for values). */
const present = (B: number, C: number) =>
  [0, 0.5].map((v) =>
    tensor(
      'float32',
      Float32Array.from({ length: B * C }, (_, i) => 10 * Math.floor(i / C) + (i % C) + v),
      [B, 1, C, 1],
    ),
  );

const ids = async (model: FakeModel, prompts: readonly (readonly number[])[], options: GenerateOptions) => (await runFake(model, prompts, options)).ids;

describe('KvBuffers (resident)', () => {
  it('should feed the adopted present tensors as they are, and dispose the ones they replace', () => {
    const cache = new KvBuffers({ batch: 2, capacity: 3, layers, kvHeads: 1, headDim: 1, resident: true });
    assert.deepEqual(Array.from(cache.feeds().pk!.data as Float32Array), [0, 0, 0, 0, 0, 0]);
    const first = present(2, 3);
    cache.adopt(first);
    assert.equal(cache.feeds().pk, first[0]);
    assert.equal(cache.feeds().pv, first[1]);
    cache.adopt(present(2, 3));
    assert.throws(() => first[0]!.data, /disposed|not available|data/i);
  });

  it('should refuse present tensors of another shape, and adopt() without `resident`', () => {
    const cache = new KvBuffers({ batch: 2, capacity: 3, layers, kvHeads: 1, headDim: 1, resident: true });
    assert.throws(() => cache.adopt(present(1, 3)), /present: \[1,1,3,1\], expected \[2,1,3,1\]/);
    assert.throws(() => new KvBuffers({ batch: 1, capacity: 1, layers, kvHeads: 1, headDim: 1 }).adopt(present(1, 1)), /resident/);
  });

  it('should feed the host rows until the first adoption, then take no rows and select() with `gather`', async () => {
    const gathered: number[][] = [];
    const gather: RowGather = async (tensors, rows) => {
      gathered.push([...rows]);
      return tensors.map((t) =>
        tensor('float32', Float32Array.from(rows.flatMap((r) => Array.from((t.data as Float32Array).subarray(r * 2, r * 2 + 2)))), [rows.length, 1, 2, 1]),
      );
    };
    const cache = new KvBuffers({ batch: 3, capacity: 2, layers, kvHeads: 1, headDim: 1, resident: true, gather });
    // The prefilled rows go to the host arrays, which the first pass reads.
    cache.write([Float32Array.of(1, 2, 3), Float32Array.of(4, 5, 6)], 1, [0, 1, 0]);
    assert.deepEqual(Array.from(cache.feeds().pk!.data as Float32Array), [1, 0, 0, 2, 3, 0]);
    await cache.select([0, 1, 2]);
    assert.deepEqual(gathered, [], 'host arrays need no gather');
    const device = present(3, 2);
    cache.adopt(device);
    assert.throws(() => cache.write([Float32Array.of(1), Float32Array.of(1)], 1, [1]), /device holds this cache/);
    await cache.select([0, 2]);
    assert.deepEqual(gathered, [[0, 2]]);
    assert.throws(() => device[0]!.data, /disposed|not available|data/i);
    const { pk, pv } = cache.feeds();
    assert.deepEqual(pk!.dims, [2, 1, 2, 1]);
    assert.deepEqual(Array.from(pk!.data as Float32Array), [0, 1, 20, 21]);
    assert.deepEqual(Array.from(pv!.data as Float32Array), [0.5, 1.5, 20.5, 21.5]);
  });

  it('should refuse to select() on the device without `gather`', async () => {
    const cache = new KvBuffers({ batch: 2, capacity: 3, layers, kvHeads: 1, headDim: 1, resident: true });
    cache.adopt(present(2, 3));
    await assert.rejects(cache.select([1]), /needs `gather`/);
  });
});

describe('gatherRowsModel', () => {
  it('should keep the rows asked for, of every tensor, in the order asked', async () => {
    const gather = rowGather((n) => OnnxSession.create(`gather-rows(${n})`, { bytes: gatherRowsModel(n) }));
    const [k, v] = await gather(present(3, 2), [2, 0]);
    assert.deepEqual(k!.dims, [2, 1, 2, 1]);
    assert.deepEqual(Array.from(k!.data as Float32Array), [20, 21, 0, 1]);
    assert.deepEqual(Array.from(v!.data as Float32Array), [20.5, 21.5, 0.5, 1.5]);
    assert.throws(() => gatherRowsModel(0), /from 1 up/);
  });
});

describe('StepPasses with resident caches', () => {
  it('should feed each pass the present tensors of the one before (decoder and draft)', async () => {
    const model = fakeModel({ vocab: 30, wrongAt: () => false });
    const { steps } = fakeSteps({ vocab: 30, wrongAt: (p) => p % 4 === 0, resident: true });
    const fed: boolean[] = [];
    const spy = (session: SessionLike, past: string, out: string): SessionLike => {
      let last: Tensor | undefined;
      return {
        ...session,
        async run(feeds, fetches) {
          // The prefill and prime passes read their own buffers; every pass after the first of the batch reads the last present.
          if (last !== undefined && feeds[past]!.dims[0] === last.dims[0] && feeds[past]!.dims[2] === last.dims[2]) fed.push(feeds[past] === last);
          const result = await session.run(feeds, fetches);
          if (fetches !== undefined && out in fetches) last = result[out];
          return result;
        },
      };
    };
    const spied = new StepForward({
      decoder: spy(steps.decoder, 'past_key_values.0.key', 'present.0.key'),
      draft: spy(steps.draft!, 'past_key_values.mtp.key', 'present.mtp.key'),
      hidden: steps.hidden,
      vocab: 30,
      maxPositions: 4096,
      resident: true,
    });
    const out = await ids(model, [[4, 2]], { eosId: -1, draftK: 2, maxTokens: 20, repetition: false, steps: spied });
    assert.deepEqual(out[0], model.expected([4, 2], 20));
    assert.ok(fed.length > 5 && fed.every(Boolean), `fed back: ${fed.join(',')}`);
  });

  it('should prefill a resident batch in one decoder pass, and a host batch page by page', async () => {
    const model = fakeModel({ vocab: 30, wrongAt: () => false });
    const prompts = [[4, 2], [7, 1, 3, 9], [5]];
    for (const [resident, passes] of [
      [true, 1],
      [false, prompts.length],
    ] as const) {
      const { steps, calls } = fakeSteps({ vocab: 30, wrongAt: () => false, resident });
      const out = await ids(model, prompts, { eosId: -1, draftK: 0, maxTokens: 1, repetition: false, steps });
      assert.deepEqual(
        out,
        prompts.map((p) => model.expected(p, 1)),
      );
      assert.equal(calls.decoder, passes, `resident: ${resident}`);
    }
  });

  it("should fetch the decoder's hidden states only where a draft head reads them", async () => {
    const model = fakeModel({ vocab: 30, wrongAt: () => false });
    const { steps } = fakeSteps({ vocab: 30, wrongAt: () => false, resident: true });
    const fetchedHidden: boolean[] = [];
    const decoder: SessionLike = {
      ...steps.decoder,
      run: (feeds, fetches) => {
        fetchedHidden.push(fetches !== undefined && 'hidden_states' in fetches);
        return steps.decoder.run(feeds, fetches);
      },
    };
    const options = { hidden: steps.hidden, vocab: 30, maxPositions: 4096, resident: true, ...(steps.gather === undefined ? {} : { gather: steps.gather }) };
    for (const draft of [undefined, steps.draft]) {
      fetchedHidden.length = 0;
      const greedy = new StepForward({ ...options, decoder, ...(draft === undefined ? {} : { draft }) });
      const out = await ids(
        model,
        [
          [4, 2],
          [7, 1, 3],
        ],
        { eosId: -1, draftK: draft === undefined ? 0 : 2, maxTokens: 9, repetition: false, steps: greedy },
      );
      assert.deepEqual(out, [model.expected([4, 2], 9), model.expected([7, 1, 3], 9)]);
      assert.ok(
        fetchedHidden.length > 3 && fetchedHidden.every((f) => f === (draft !== undefined)),
        `draft head: ${draft !== undefined}, fetched: ${fetchedHidden.join(',')}`,
      );
    }
  });

  it('should commit the ids of the host buffers for any K, batch, budget and EOS', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.integer({ min: 0, max: 39 }), { minLength: 1, maxLength: 9 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: -1, max: 39 }),
        fc.integer({ min: 0, max: 6 }),
        async (prompts, K, maxTokens, eosId, wrongSeed) => {
          const wrongAt = (p: number) => (p * 7 + wrongSeed) % 5 < wrongSeed % 4;
          const model = fakeModel({ vocab: 40, wrongAt });
          const options = { eosId, draftK: K, maxTokens, repetition: false } as const;
          const host = await ids(model, prompts, { ...options, steps: fakeSteps({ vocab: 40, wrongAt }).steps });
          const resident = await ids(model, prompts, { ...options, steps: fakeSteps({ vocab: 40, wrongAt, resident: true }).steps });
          assert.deepEqual(resident, host);
          assert.deepEqual(resident, await ids(model, prompts, { ...options, draftK: 0 }));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('loadModel({ residentKv: true }) on the CPU', () => {
  const tiny = useTinyModel({ residentKv: true });

  it('should decode the reference ids with resident caches, greedy and speculative, in a batch', async () => {
    assert.equal(tiny.model.steps?.resident, true);
    for (const draftK of [0, 1, 3]) {
      const results = await decode(tiny.model, tiny.pages, { ignoreEos: true, repetition: false, maxTokens: reference.steps, draftK });
      results.forEach((r, i) => assert.deepEqual(r.ids, reference.cases[i]!.greedy_ids, `K=${draftK} page ${i}`));
      assert.ok(results.every((r) => r.stats.graphs === 'steps'));
    }
  });

  it('should give the same ids in a batch as alone while tiny.pages leave the batch at different steps', async () => {
    const ids0 = reference.cases[0]!.greedy_ids;
    const eos = ids0.find((t) => !reference.cases[1]!.greedy_ids.includes(t))!;
    // An id page 0 reaches early and page 1 never stands in for EOS: sequences leave the batch
    // (a selection on resident caches) at different steps.
    const byEos = async (batch: PageImage[], draftK: number) =>
      (
        await collect(tiny.model, (await encodePages(tiny.model, batch)).prompts, {
          eosId: eos,
          draftK,
          maxTokens: reference.steps,
          repetition: false,
          steps: tiny.model.steps!,
        })
      ).ids;
    const alone = [(await byEos([tiny.pages[0]!], 0))[0]!, (await byEos([tiny.pages[1]!], 0))[0]!];
    assert.deepEqual(alone[0], ids0.slice(0, ids0.indexOf(eos) + 1));
    for (const draftK of [0, 2, 3])
      assert.deepEqual(
        await byEos([tiny.pages[0]!, tiny.pages[1]!, tiny.pages[1]!, tiny.pages[0]!], draftK),
        [alone[0], alone[1], alone[1], alone[0]],
        `K=${draftK}`,
      );
  });
});
