/** The README rows of `folio bench sources`: figures read from its result file, nothing made up. */
import assert from 'node:assert/strict';
import { sourcesFigures } from '../../bench/report/figures.ts';

describe('sourcesFigures', () => {
  it('writes S3 beside disk and the re-sync with the commands that reproduce them', () => {
    const rows = sourcesFigures({
      summary: {
        disk: { documents: 43, pages: 140, pagesPerS: 15.56, objectsPerS: 4.8 },
        s3: { documents: 43, pages: 140, pagesPerS: 11.76, objectsPerS: 3.61 },
      },
      resync: [
        { phase: 'first', documents: 1000, downloads: 1000, runS: 10.2 },
        { phase: 'resync', documents: 1000, downloads: 0, runS: 2.04 },
      ],
    });
    assert.deepEqual(
      rows.map((row) => row.value),
      ['S3 11.8 pages/s (3.6 objects/s), disk 15.6 pages/s', '0 downloads, 2.0 s'],
    );
    assert.equal(rows[1]!.command, 'npx folio bench sources --keys 1000');
  });

  it('writes no row for a missing or incomplete result', () => {
    assert.deepEqual(sourcesFigures(undefined), []);
    assert.deepEqual(sourcesFigures({ summary: { disk: { pagesPerS: 1 } } }), []);
  });
});
