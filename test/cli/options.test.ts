import assert from 'node:assert/strict';
import { defaultWorkers, pipelineOptions } from '../../cli/options.ts';

describe('defaultWorkers', () => {
  it('should use one worker per core but one, at least 2, at most 4, none on a single core', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 16].map((cores) => defaultWorkers(cores)),
      [0, 2, 2, 3, 4, 4],
    );
  });
});

describe('pipelineOptions', () => {
  it('should take --workers, default it from the cores and name a bad value', async () => {
    assert.equal((await pipelineOptions({ workers: '0' })).options.workers, 0);
    assert.equal((await pipelineOptions({ workers: '3' })).options.workers, 3);
    assert.equal((await pipelineOptions({})).options.workers, defaultWorkers());
    await assert.rejects(pipelineOptions({ workers: '-1' }), /Expected `--workers` to be an integer from 0 and up, got `-1`/);
  });

  it('should still check --device when it is not the default', async () => {
    await assert.rejects(pipelineOptions({ device: 'tpu' }), /Expected `--device` to be one of cpu, webgpu, cuda, got `tpu`/);
    assert.equal((await pipelineOptions({ device: 'webgpu' })).options.engine, 'auto');
  });
});
