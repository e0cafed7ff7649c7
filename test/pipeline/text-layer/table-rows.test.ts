import assert from 'node:assert/strict';
import { isCaptionRow, splitSideBySide, withoutLeaders } from '../../../pipeline/text-layer/table-rows.ts';

describe('text-layer table rows', () => {
  it('splits tables set side by side with one layout', () => {
    const cells = [
      ['Topic', 'Enquiries', 'Topic', 'Enquiries'],
      ['Spain', '268', 'Germany', '91'],
      ['France', '136', 'Belgium', '56'],
    ];
    assert.deepEqual(splitSideBySide(cells), [
      [['Topic', 'Enquiries'], ['Spain', '268'], ['France', '136']],
      [['Topic', 'Enquiries'], ['Germany', '91'], ['Belgium', '56']],
    ]);
  });

  it('keeps one table whose repeated sub-headers sit over figures or repeated values', () => {
    const figures = [['Region', 'Number', 'Percent', 'Number', 'Percent'], ['North', '12', '4%', '15', '5%'], ['South', '9', '3%', '11', '4%']];
    assert.equal(splitSideBySide(figures).length, 1);
    const values = [['State', 'Tested', 'State', 'Tested'], ['NC', 'Yes', 'Yes', 'No'], ['ND', 'No', 'Yes', 'No'], ['NE', 'Yes', 'Yes', 'No']];
    assert.equal(splitSideBySide(values).length, 1);
  });

  it('knows captions and dot leaders', () => {
    assert.ok(isCaptionRow(['', 'Table 7.5 Comparisons of sources', '']));
    assert.ok(!isCaptionRow(['Tables and chairs']));
    assert.equal(withoutLeaders('Methane ........'), 'Methane');
    assert.equal(withoutLeaders('0.99'), '0.99');
  });
});
