import assert from 'node:assert/strict';
import { parseStructure } from '../../bench/quality/icdar/index.ts';
import { pageHtml, structureXml } from '../../bench/quality/tables/render.ts';
import { tableSpec } from '../../bench/quality/tables/shapes.ts';

describe('bench quality: synthetic tables', () => {
  it('draws the same table for the same index, and another for another', () => {
    assert.deepEqual(tableSpec(5), tableSpec(5));
    assert.notDeepEqual(tableSpec(5).cells, tableSpec(6).cells);
  });

  it('covers every ruling, spanning headers and header rows across the set', () => {
    const specs = Array.from({ length: 40 }, (_, i) => tableSpec(i));
    assert.deepEqual(new Set(specs.map((s) => s.ruling)), new Set(['booktabs', 'grid', 'header-rule', 'none']));
    assert.ok(specs.some((s) => s.cells.some((c) => c.header && c.colspan > 1)));
    assert.ok(specs.some((s) => s.cells.some((c) => !c.header && c.rowspan > 1)));
  });

  it('writes truth the ICDAR reader reads back slot for slot, and HTML with the same spans', () => {
    for (const i of [1, 2, 9]) {
      const spec = tableSpec(i);
      const [grid] = parseStructure(structureXml(spec, `t${i}.pdf`), `t${i}`);
      assert.equal(grid!.cells.length, spec.cells.filter((c) => c.text !== '').length);
      for (const c of spec.cells) {
        const read = grid!.cells.find((g) => g.row === c.row && g.col === c.col);
        assert.deepEqual([read?.endRow, read?.endCol], [c.row + c.rowspan - 1, c.col + c.colspan - 1]);
      }
      const html = pageHtml(spec);
      assert.equal((html.match(/colspan="/g) ?? []).length, spec.cells.filter((c) => c.colspan > 1).length);
    }
  });
});
