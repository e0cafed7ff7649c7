import assert from 'node:assert/strict';
import { sniffMime } from '../../../connector/index.ts';
import { sha256 } from '../../../core/hash.ts';
import type { Element, SourceDocument } from '../../../core/types.ts';
import { DOCX_MIME, readFormat } from '../../../pipeline/formats/index.ts';
import { processDocument } from '../../../pipeline/run/index.ts';
import { makeDocx, p } from './zip-writer.ts';

const STYLES = `
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Chapter"><w:name w:val="Chapter Heading"/><w:basedOn w:val="Heading1"/></w:style>
<w:style w:type="paragraph" w:styleId="Outlined"><w:name w:val="Custom outline"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr></w:style>`;

const NUMBERING = `
<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum>
<w:num w:numId="7"><w:abstractNumId w:val="1"/></w:num>`;

const cell = (text: string, tcPr = ''): string => `<w:tc>${tcPr ? `<w:tcPr>${tcPr}</w:tcPr>` : ''}${p(text)}</w:tc>`;

const TABLE = `<w:tbl>
<w:tr>${cell('Name')}${cell('Q1 and Q2', '<w:gridSpan w:val="2"/>')}</w:tr>
<w:tr>${cell('North', '<w:vMerge w:val="restart"/>')}${cell('1')}${cell('2')}</w:tr>
<w:tr>${cell('', '<w:vMerge/>')}${cell('3')}${cell('4')}</w:tr>
</w:tbl>`;

const BODY = [
  p('Annual Report', { style: 'Title' }),
  p('Overview', { style: 'Heading1' }),
  '<w:p><w:r><w:t xml:space="preserve">Plain text with </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>bold</w:t></w:r><w:r><w:t xml:space="preserve"> inside.</w:t></w:r></w:p>',
  p('Details', { style: 'Heading2' }),
  p('Custom chapter', { style: 'Chapter' }),
  p('Outline level three', { style: 'Outlined' }),
  p('First step', { numId: 7 }),
  p('A detail', { numId: 7, ilvl: 1 }),
  p('Second step', { numId: 7 }),
  TABLE,
  '<w:sectPr><w:headerReference w:type="default" r:id="rIdH"/></w:sectPr>',
].join('');

const HEADER_PART = {
  name: 'word/header1.xml',
  data: `<w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${p('ACME Confidential')}</w:hdr>`,
};
const HEADER_REL = '<Relationship Id="rIdH" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/>';

function docxBytes(): Uint8Array {
  return makeDocx(BODY, { styles: STYLES, numbering: NUMBERING, rels: HEADER_REL, parts: [HEADER_PART] });
}

function source(bytes: Uint8Array, name: string): SourceDocument {
  return { id: sha256(name).slice(0, 16), uri: `file:///test/${name}`, relativePath: name, mime: sniffMime(bytes, name), bytes, contentHash: sha256(bytes) };
}

describe('readFormat (DOCX)', () => {
  it('should sniff a generated DOCX from its bytes', () => {
    assert.equal(sniffMime(docxBytes(), 'report.bin'), DOCX_MIME);
  });

  it('should map Title, built-in, based-on and outline-level styles to heading levels', async () => {
    const doc = await readFormat(docxBytes(), DOCX_MIME);
    const headings = doc.pages[0]!.blocks.filter((b) => b.kind === 'heading').map((b) => [
      b.kind === 'heading' ? b.level : 0,
      b.kind === 'heading' ? b.spans.map((s) => s.text).join('') : '',
    ]);
    // With a Title in the document, Heading 1 sits one level below it.
    assert.deepEqual(headings, [
      [1, 'Annual Report'],
      [2, 'Overview'],
      [3, 'Details'],
      [2, 'Custom chapter'],
      [4, 'Outline level three'],
    ]);
  });

  it('should turn numbering into a numbered list with a nested bullet level', async () => {
    const result = await processDocument(source(docxBytes(), 'report.docx'), { engine: 'text' });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    const list = result.elements.find((e) => e.kind === 'list');
    assert.ok(list);
    assert.equal(list.ordered, true);
    assert.deepEqual(list.items, [{ text: '1. First step', items: [{ text: 'A detail' }] }, { text: '2. Second step' }]);
    assert.match(result.markdown, /^1\. First step\n {4}- A detail\n2\. Second step$/m);
  });

  it('should keep gridSpan and vMerge as colspan and rowspan', async () => {
    const result = await processDocument(source(docxBytes(), 'report.docx'), { engine: 'text' });
    const table = result.elements.find((e) => e.kind === 'table');
    assert.ok(table?.table);
    assert.match(table.table.html, /<th colspan="2">Q1 and Q2<\/th>/);
    assert.match(table.table.html, /<td rowspan="2">North<\/td>/);
    assert.deepEqual(table.table.cells, [
      ['Name', 'Q1 and Q2', 'Q1 and Q2'],
      ['North', '1', '2'],
      ['North', '3', '4'],
    ]);
  });

  it('should keep the page header as furniture, out of the clean Markdown', async () => {
    const result = await processDocument(source(docxBytes(), 'report.docx'), { engine: 'text' });
    const header = result.elements.find((e: Element) => e.kind === 'pageHeader');
    assert.equal(header?.text, 'ACME Confidential');
    assert.doesNotMatch(result.markdown, /ACME/);
    assert.match(result.markdown, /Plain text with \*\*bold\*\* inside\./);
    assert.ok(result.chunks.length > 0);
    assert.deepEqual(result.chunks[0]!.pages, [1]);
  });

  it('should split pages where Word last rendered a page break, the heading path running on', async () => {
    const body = [
      p('Chapter', { style: 'Heading1' }),
      p('On page one.'),
      '<w:p><w:r><w:lastRenderedPageBreak/><w:t>On page two.</w:t></w:r></w:p>',
      '<w:p><w:r><w:t>Still two.</w:t><w:br w:type="page"/></w:r></w:p>',
      '<w:p><w:pPr><w:pageBreakBefore/></w:pPr><w:r><w:t>On page three.</w:t></w:r></w:p>',
    ].join('');
    const result = await processDocument(source(makeDocx(body, { styles: STYLES }), 'pages.docx'), { engine: 'text' });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.deepEqual(
      result.elements.map((e) => [e.text, e.pageNumber, e.headingPath.join('/')]),
      [
        ['Chapter', 1, ''],
        ['On page one.', 1, 'Chapter'],
        ['On page two.', 2, 'Chapter'],
        ['Still two.', 2, 'Chapter'],
        ['On page three.', 3, 'Chapter'],
      ],
    );
  });

  it('should read tracked changes as accepted by default, and show deletions and comments on request', async () => {
    const body =
      '<w:p><w:r><w:t xml:space="preserve">The plan is </w:t></w:r><w:del w:id="1" w:author="A"><w:r><w:delText>cheap</w:delText></w:r></w:del>' +
      '<w:ins w:id="2" w:author="B"><w:r><w:t>sound</w:t></w:r></w:ins><w:commentRangeStart w:id="5"/><w:r><w:t>.</w:t></w:r><w:commentRangeEnd w:id="5"/>' +
      '<w:r><w:commentReference w:id="5"/></w:r></w:p>';
    const comments = {
      name: 'word/comments.xml',
      data: `<w:comments xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:comment w:id="5" w:author="C">${p('Check the budget.')}</w:comment></w:comments>`,
    };
    const rel = '<Relationship Id="rIdC" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="comments.xml"/>';
    const bytes = makeDocx(body, { rels: rel, parts: [comments] });
    const accepted = await processDocument(source(bytes, 'plan.docx'), { engine: 'text' });
    assert.equal(accepted.markdown, 'The plan is sound.');
    const shown = await processDocument(source(bytes, 'plan.docx'), { engine: 'text', revisions: 'show' });
    assert.equal(shown.markdown, 'The plan is ~~cheap~~sound.[^c5]\n\n[^c5]: Check the budget.');
    assert.equal(shown.elements.find((e) => e.kind === 'footnote')?.text, 'Check the budget.');
  });

  it('should keep text that looks like Markdown, HTML or math as the text it is', async () => {
    const texts = [
      'see [link](x) and [1]',
      '$5 and $10, 50% off, * stars * and _under_',
      'Use &lt;div&gt; and &lt;|ref|&gt;',
      '# not a heading',
      '1. not a list',
      '| a | b |',
    ];
    const result = await processDocument(source(makeDocx(texts.map((t) => p(t)).join('')), 'literal.docx'), { engine: 'text' });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.deepEqual(
      result.elements.map((e) => [e.kind, e.text, e.formulas?.length ?? 0]),
      ['see [link](x) and [1]', '$5 and $10, 50% off, * stars * and _under_', 'Use <div> and <|ref|>', '# not a heading', '1. not a list', '| a | b |'].map(
        (t) => ['paragraph', t, 0],
      ),
    );
  });
});
