import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { paddleModelPaths } from '../../../inference/paddle/index.ts';
import { loadDictionary } from '../../../inference/paddle/models.ts';

describe('paddleModelPaths', () => {
  it('should point at the shipped model files', async () => {
    const paths = paddleModelPaths();
    for (const p of Object.values(paths)) assert.ok(existsSync(p), p);
    // The dictionary plus blank and space must match the recogniser's 6625 classes.
    assert.equal((await loadDictionary(paths.keys)).length, 6625);
  });
});
