import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { OcrEngine } from '../../inference/engine.ts';
import { createPaddleEngine } from '../../inference/paddle/index.ts';
import { layoutOcrResult } from '../../pipeline/layout/index.ts';
import { loadImagePages } from '../../pipeline/render/index.ts';
import { idleReleasingEngine } from '../../server/index.ts';

describe('idleReleasingEngine', function () {
  this.timeout(120_000);

  it('should create the engine on first use, close it once idle, and create it again for the next page', async () => {
    const [page] = await loadImagePages(await readFile('examples/docs/scanned-memo.png'), { source: 'memo.png', docId: 'memo' });
    const created: OcrEngine[] = [];
    let closed = 0;
    const engine = idleReleasingEngine(
      'paddle',
      async () => {
        const real = await createPaddleEngine({});
        created.push(real);
        // The real engine, its close counted.
        return {
          name: real.name,
          recognize: (pages, options) => real.recognize(pages, options),
          close: async () => {
            closed++;
            await real.close();
          },
        };
      },
      { idleMs: 300 },
    );
    try {
      assert.equal(created.length, 0, 'nothing is loaded before a page comes');
      const [first] = await engine.recognize([page!]);
      assert.match(layoutOcrResult(first!, 1).markdown, /Quarterly Archive Review/i);
      // Two pages at once share the engine; the idle clock starts when both are done.
      await Promise.all([engine.recognize([page!]), engine.recognize([page!])]);
      assert.equal(created.length, 1);
      await sleep(800);
      assert.equal(closed, 1, 'closed after 300 ms without a page');
      const [again] = await engine.recognize([page!]);
      assert.match(layoutOcrResult(again!, 1).markdown, /Quarterly Archive Review/i);
      assert.equal(created.length, 2, 'created again for the next page');
    } finally {
      await engine.close();
    }
    assert.equal(closed, 2);
  });
});
