import assert from 'node:assert/strict';
import { sniffMime } from '../../../connector/index.ts';
import { sha256 } from '../../../core/hash.ts';
import type { SourceDocument } from '../../../core/types.ts';
import { ODP_MIME, ODS_MIME, ODT_MIME } from '../../../pipeline/formats/index.ts';
import { processDocument } from '../../../pipeline/run/index.ts';
import { makeZip } from './zip-writer.ts';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const rels = (items: string): string =>
  `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;

function source(bytes: Uint8Array, name: string): SourceDocument {
  return { id: sha256(name).slice(0, 16), uri: `file:///test/${name}`, relativePath: name, mime: sniffMime(bytes, name), bytes, contentHash: sha256(bytes) };
}

function xlsx(): Uint8Array {
  const sheet = `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>
<row r="1"><c r="A1" t="s"><v>0</v></c></row>
<row r="3"><c r="A3" t="s"><v>1</v></c><c r="B3" t="inlineStr"><is><t>Amount</t></is></c><c r="C3" t="s"><v>2</v></c></row>
<row r="4"><c r="A4"><v>45292</v></c><c r="B4"><f>1+1</f><v>2</v></c><c r="C4" t="s"><v>3</v></c></row>
<row r="5"><c r="A5" s="1"><v>45293</v></c><c r="B5"><v>0.30000000000000004</v></c></row>
</sheetData><mergeCells count="1"><mergeCell ref="C4:C5"/></mergeCells></worksheet>`;
  return makeZip([
    { name: '[Content_Types].xml', data: '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
    { name: '_rels/.rels', data: rels(`<Relationship Id="r1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/>`) },
    { name: 'xl/workbook.xml', data: `<workbook xmlns:r="${REL}"><sheets><sheet name="Budget" sheetId="1" r:id="rS"/></sheets></workbook>` },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: rels(
        `<Relationship Id="rS" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rT" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rY" Type="${REL}/styles" Target="styles.xml"/>`,
      ),
    },
    {
      name: 'xl/sharedStrings.xml',
      data: '<sst><si><t>Quarterly budget</t></si><si><t>Date</t></si><si><r><t>No</t></r><r><t>te</t></r></si><si><t>Both days</t></si></sst>',
    },
    { name: 'xl/styles.xml', data: '<styleSheet><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>' },
    { name: 'xl/worksheets/sheet1.xml', data: sheet },
  ]);
}

function pptx(): Uint8Array {
  const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
  const shape = (ph: string, paragraphs: string, y: number): string =>
    `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/><p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="${y}"/></a:xfrm></p:spPr><p:txBody>${paragraphs}</p:txBody></p:sp>`;
  const para = (text: string, pPr = ''): string => `<a:p>${pPr}<a:r><a:t>${text}</a:t></a:r></a:p>`;
  const slide = (shapes: string): string => `<p:sld ${A}><p:cSld><p:spTree>${shapes}</p:spTree></p:cSld></p:sld>`;
  return makeZip([
    { name: '_rels/.rels', data: rels(`<Relationship Id="r1" Type="${REL}/officeDocument" Target="ppt/presentation.xml"/>`) },
    {
      name: 'ppt/presentation.xml',
      data: `<p:presentation ${A} xmlns:r="${REL}"><p:sldIdLst><p:sldId id="256" r:id="rB"/><p:sldId id="257" r:id="rA"/></p:sldIdLst></p:presentation>`,
    },
    {
      name: 'ppt/_rels/presentation.xml.rels',
      data: rels(
        `<Relationship Id="rA" Type="${REL}/slide" Target="slides/slide1.xml"/><Relationship Id="rB" Type="${REL}/slide" Target="slides/slide2.xml"/>`,
      ),
    },
    // Shapes written bottom first: reading order comes from their positions.
    {
      name: 'ppt/slides/slide2.xml',
      data: slide(
        `${shape('', para('Footnote at the bottom'), 5000000)}${shape('<p:ph type="body" idx="1"/>', para('Point one') + para('Sub point', '<a:pPr lvl="1"/>'), 1000000)}${shape('<p:ph type="title"/>', para('Agenda'), 0)}`,
      ),
    },
    { name: 'ppt/slides/slide1.xml', data: slide(shape('<p:ph type="ctrTitle"/>', para('Closing'), 0)) },
    { name: 'ppt/slides/_rels/slide2.xml.rels', data: rels(`<Relationship Id="rN" Type="${REL}/notesSlide" Target="../notesSlides/notesSlide1.xml"/>`) },
    {
      name: 'ppt/notesSlides/notesSlide1.xml',
      data: `<p:notes ${A}><p:cSld><p:spTree>${shape('<p:ph type="body" idx="1"/>', para('Say hello first.'), 0)}</p:spTree></p:cSld></p:notes>`,
    },
  ]);
}

describe('readFormat (spreadsheets and slides)', () => {
  it('should read an XLSX sheet as a titled table with dates, cached values and a merged cell', async () => {
    const result = await processDocument(source(xlsx(), 'budget.xlsx'), { engine: 'text' });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    const [heading, title, table] = result.elements;
    assert.deepEqual([heading?.kind, heading?.text, heading?.level], ['heading', 'Budget', 2]);
    assert.deepEqual([title?.kind, title?.text], ['paragraph', 'Quarterly budget']);
    assert.ok(table?.table);
    assert.deepEqual(table.table.cells, [
      ['Date', 'Amount', 'Note'],
      ['45292', '2', 'Both days'],
      ['2024-01-02', '0.3', 'Both days'],
    ]);
    assert.match(table.table.html, /<td rowspan="2">Both days<\/td>/);
    assert.deepEqual(table.headingPath, ['Budget']);
    assert.deepEqual(title?.location, { sheet: 'Budget', range: 'Budget!A1' });
    assert.deepEqual(table.location, { sheet: 'Budget', range: 'Budget!A3:C5' });
    assert.deepEqual(result.chunks[0]?.locations, [
      { sheet: 'Budget', range: 'Budget!A1' },
      { sheet: 'Budget', range: 'Budget!A3:C5' },
    ]);
  });

  it('should name the sheet rows of each part of a table split across chunks, and a CSV sheet after its file', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => `item ${i},${i * 7},note number ${i} about the item`);
    const bytes = new TextEncoder().encode(`Name,Amount,Note\n${rows.join('\n')}\n`);
    const result = await processDocument(source(bytes, 'ledger.csv'), { engine: 'text', maxTokens: 128 });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.deepEqual(result.elements.find((e) => e.kind === 'table')?.location, { sheet: 'ledger', range: 'ledger!A1:C121' });
    const ranges = result.chunks.map((chunk) => chunk.locations?.map((l) => l.range).join(' '));
    assert.ok(ranges.length > 3, `split into several chunks: ${ranges.join(', ')}`);
    assert.match(ranges[0] ?? '', /^ledger!A2:C\d+$/);
    assert.match(ranges.at(-1) ?? '', /^ledger!A\d+:C121$/);
    // The parts follow each other without a gap or an overlap.
    const bounds = ranges.map(
      (r) =>
        (r ?? '')
          .match(/A(\d+):C(\d+)/)!
          .slice(1)
          .map(Number) as [number, number],
    );
    bounds.slice(1).forEach(([from], i) => assert.equal(from, bounds[i]![1] + 1, ranges.join(', ')));
    const part = result.chunks[1]!;
    const [first, last] = bounds[1]!;
    assert.match(part.text, new RegExp(`item ${first - 2}\\b`));
    assert.match(part.text, new RegExp(`item ${last - 2}\\b`));
  });

  it('should read a PPTX deck slide by slide in presentation order, title first, bullets nested', async () => {
    const result = await processDocument(source(pptx(), 'deck.pptx'), { engine: 'text' });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.deepEqual(
      result.pages.map((p) => p.pageNumber),
      [1, 2],
    );
    const byPage = (n: number) => result.elements.filter((e) => e.pageNumber === n).map((e) => [e.kind, e.text]);
    assert.deepEqual(byPage(1), [
      ['heading', 'Agenda'],
      ['list', 'Point one\n  Sub point'],
      ['paragraph', 'Footnote at the bottom'],
      ['footnote', 'Say hello first.'],
    ]);
    assert.equal(result.elements.find((e) => e.kind === 'footnote')?.label, 'speaker_notes');
    assert.deepEqual(byPage(2), [['heading', 'Closing']]);
    assert.ok(result.elements.filter((e) => e.pageNumber === 1).every((e) => e.location?.slide === 1));
    assert.deepEqual(
      result.chunks.map((chunk) => chunk.locations),
      result.chunks.map((chunk) => chunk.pages.map((slide) => ({ slide }))),
    );
  });

  it('should read ODP slides with their numbers and speaker notes as their own elements', async () => {
    const content = `<office:document-content xmlns:office="o" xmlns:draw="d" xmlns:presentation="p" xmlns:text="x"><office:body><office:presentation>
<draw:page draw:name="page1"><draw:frame presentation:class="title"><draw:text-box><text:p>Welcome</text:p></draw:text-box></draw:frame>
<presentation:notes><draw:page-thumbnail draw:page-number="1"/><draw:frame presentation:class="notes"><draw:text-box><text:p>Greet the room.</text:p><text:p>Then start.</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>
<draw:page draw:name="page2"><draw:frame presentation:class="title"><draw:text-box><text:p>Plan</text:p></draw:text-box></draw:frame></draw:page>
</office:presentation></office:body></office:document-content>`;
    const bytes = makeZip([
      { name: 'mimetype', data: ODP_MIME, deflate: false },
      { name: 'content.xml', data: content },
    ]);
    const result = await processDocument(source(bytes, 'talk.odp'), { engine: 'text' });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.deepEqual(
      result.elements.map((e) => [e.kind, e.text, e.label, e.location?.slide]),
      [
        ['heading', 'Welcome', undefined, 1],
        ['footnote', 'Greet the room. Then start.', 'speaker_notes', 1],
        ['heading', 'Plan', undefined, 2],
      ],
    );
  });

  it('should read an ODS sheet through its mimetype and repeated cells', async () => {
    const content = `<office:document-content xmlns:office="o" xmlns:table="t" xmlns:text="x"><office:body><office:spreadsheet>
<table:table table:name="Birds"><table:table-row><table:table-cell><text:p>Bird</text:p></table:table-cell><table:table-cell><text:p>Count</text:p></table:table-cell><table:table-cell table:number-columns-repeated="16000"/></table:table-row>
<table:table-row table:number-rows-repeated="2"><table:table-cell><text:p>Duck</text:p></table:table-cell><table:table-cell><text:p>3</text:p></table:table-cell></table:table-row>
<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="16000"/></table:table-row>
</table:table></office:spreadsheet></office:body></office:document-content>`;
    const bytes = makeZip([
      { name: 'mimetype', data: ODS_MIME, deflate: false },
      { name: 'content.xml', data: content },
    ]);
    const result = await processDocument(source(bytes, 'birds.ods'), { engine: 'text' });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    const table = result.elements.find((e) => e.kind === 'table');
    assert.deepEqual(table?.table?.cells, [
      ['Bird', 'Count'],
      ['Duck', '3'],
      ['Duck', '3'],
    ]);
    assert.deepEqual(table?.location, { sheet: 'Birds', range: 'Birds!A1:B3' });
  });

  it('should read an ODT with its outline levels, a list, a spanning table and a footnote', async () => {
    const content = `<office:document-content xmlns:office="o" xmlns:text="t" xmlns:table="b"><office:body><office:text>
<text:h text:outline-level="1">Report</text:h>
<text:p>Ducks fly south<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>Most of them.</text:p></text:note-body></text:note> in winter.</text:p>
<text:h text:outline-level="2">Species</text:h>
<text:list><text:list-item><text:p>Mallard</text:p><text:list><text:list-item><text:p>Drake</text:p></text:list-item></text:list></text:list-item></text:list>
<table:table><table:table-row><table:table-cell table:number-columns-spanned="2"><text:p>Both</text:p></table:table-cell><table:covered-table-cell/></table:table-row>
<table:table-row><table:table-cell><text:p>a</text:p></table:table-cell><table:table-cell><text:p>b</text:p></table:table-cell></table:table-row></table:table>
</office:text></office:body></office:document-content>`;
    const bytes = makeZip([
      { name: 'mimetype', data: ODT_MIME, deflate: false },
      { name: 'content.xml', data: content },
    ]);
    const result = await processDocument(source(bytes, 'report.odt'), { engine: 'text' });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.deepEqual(
      result.elements.map((e) => [e.kind, e.level ?? null]),
      [
        ['heading', 1],
        ['paragraph', null],
        ['heading', 2],
        ['list', null],
        ['table', null],
        ['footnote', null],
      ],
    );
    assert.match(result.markdown, /^- Mallard\n {4}- Drake$/m);
    assert.match(result.elements.find((e) => e.kind === 'table')!.table!.html, /<th colspan="2">Both<\/th>/);
    assert.equal(result.elements.find((e) => e.kind === 'footnote')?.text, 'Most of them.');
  });
});
