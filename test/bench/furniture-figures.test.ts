/** The README row of `folio bench furniture`: figures read from its result file, nothing made up. */
import assert from 'node:assert/strict';
import { furnitureFigures } from '../../bench/report/figures.ts';

describe('furnitureFigures', () => {
  it('writes precision, recall and body CER of the result file with the command that reproduces them', () => {
    const rows = furnitureFigures({ seed: 's1', documents: 4, pages: 9, precision: 0.9251, recall: 0.5, bodyCer: 0.0123 });
    assert.equal(rows.length, 1);
    assert.match(rows[0]!.figure, /4 documents, 9 pages, seed `s1`/);
    assert.equal(rows[0]!.value, 'precision 0.925, recall 0.500 (character trigrams), body CER 0.012');
    assert.equal(rows[0]!.command, 'npx folio bench furniture --documents 4');
  });

  it('writes no row for a missing or incomplete result', () => {
    assert.deepEqual(furnitureFigures(undefined), []);
    assert.deepEqual(furnitureFigures({ precision: 0.9 }), []);
  });
});
