import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertDetail, processDocument } from '../../../pipeline/run/index.ts';
import { jsonPieces, writeJsonFile } from '../../../pipeline/run/json-file.ts';

const PAPER = '../shared/data/docling-dev/pdf/2305.03393v1-pg9.pdf';

describe('writeJsonFile', () => {
  it('should write what JSON.stringify(value, null, 1) gives, byte for byte, for a converted document and for edge cases', async () => {
    const bytes = new Uint8Array(await readFile(PAPER));
    const result = await processDocument(
      { id: 'd', uri: PAPER, relativePath: 'pg9.pdf', mime: 'application/pdf', bytes, contentHash: 'h' },
      { engine: 'text' },
    );
    const cases: unknown[] = [
      convertDetail(result),
      {},
      [],
      'text',
      null,
      { empty: [], none: undefined, fn: () => 1, nested: { a: [1, { b: 'line\nbreak "quoted"' }], c: [] }, list: [undefined, 2, [3, [4]]], last: 0 },
      { only: undefined },
      { date: new Date(0), items: [new Date(0)] },
    ];
    const dir = await mkdtemp(join(tmpdir(), 'folio-json-'));
    try {
      for (const [i, value] of cases.entries()) {
        assert.equal([...jsonPieces(value)].join(''), JSON.stringify(value, null, 1) ?? '', `case ${i}`);
        const path = join(dir, `${i}.json`);
        await writeJsonFile(path, value);
        assert.equal(await readFile(path, 'utf8'), JSON.stringify(value, null, 1) ?? '', `file ${i}`);
      }
      // A converted document's elements go item by item, not as one string.
      assert.ok([...jsonPieces(convertDetail(result))].length > result.elements.length);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
