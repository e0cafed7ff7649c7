import assert from 'node:assert/strict';
import { lineCer, normaliseLine, parseBboxLines } from '../../bench/lines/index.ts';

describe('bench lines', () => {
  it('should read lines, boxes and words from pdftotext -bbox-layout', () => {
    const xhtml = `<page width="612" height="792"><flow><block xMin="72" yMin="70" xMax="300" yMax="95">
      <line xMin="72.000000" yMin="70.500000" xMax="300.250000" yMax="82.000000">
        <word xMin="72" yMin="70.5" xMax="100" yMax="82">Fish</word>
        <word xMin="104" yMin="70.5" xMax="140" yMax="82">&amp;</word>
        <word xMin="144" yMin="70.5" xMax="300.25" yMax="82">&lt;chips&gt;</word>
      </line>
      <line xMin="72" yMin="84" xMax="90" yMax="95"><word xMin="72" yMin="84" xMax="90" yMax="95">ﬁ</word></line>
    </block></flow></page>`;
    const lines = parseBboxLines(xhtml);
    assert.deepEqual(lines[0], { x1: 72, y1: 70.5, x2: 300.25, y2: 82, text: 'Fish & <chips>' });
    assert.equal(normaliseLine(lines[1]!.text), 'fi');
  });

  it('should count edits over the truth, spaces collapsed on the reading', () => {
    assert.equal(lineCer(['abc', ' de  f '], ['abc', 'de f']), 0);
    assert.equal(lineCer(['abx', ''], ['abc', 'de f']), 5 / 7);
  });
});
