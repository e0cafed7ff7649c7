/**
 * Document titles: what the file declares unless it is junk, else the title page's largest
 * heading; never the first heading of the text ("Front cover"). PDFs are made with pdf-lib and
 * read by real PDFium through the whole pipeline; Office, HTML and e-mail through their readers.
 */
import assert from 'node:assert/strict';
import { sha256, stableId } from '../../../core/hash.ts';
import type { Element, SourceDocument } from '../../../core/types.ts';
import { xmpTitle } from '../../../pipeline/pdf/index.ts';
import { isJunkTitle, titlePageHeading } from '../../../pipeline/run/document-title.ts';
import { processDocument } from '../../../pipeline/run/index.ts';
import { BOOK_TITLE, bookPdf } from '../../support/book-pdf.ts';
import { makeDocx, p } from '../formats/zip-writer.ts';

const ALMANAC = BOOK_TITLE;
const book = bookPdf;

function source(bytes: Uint8Array, name: string, mime: string): SourceDocument {
  return { id: stableId(`file:///docs/${name}`), uri: `file:///docs/${name}`, relativePath: name, mime, bytes, contentHash: sha256(bytes) };
}

const heading = (text: string, pageNumber: number, level: number, bbox?: readonly [number, number, number, number]): Element => ({
  kind: 'heading',
  text,
  level,
  headingPath: [],
  pageNumber,
  pages: [pageNumber],
  ...(bbox ? { bbox } : {}),
});

describe('isJunkTitle', () => {
  it('should refuse what producers write when nobody typed a title', () => {
    for (const junk of [
      '',
      '  ',
      'untitled',
      'Untitled Document',
      'Microsoft Word - Supporting information-PI-PC-20160913.docx',
      'report.doc',
      'CMR8',
      'Front cover',
      'Contents',
      'scan_0042',
      'C:\\Users\\me\\draft.docx',
      'https://example.org/a.pdf',
      ' No',
      '—',
    ])
      assert.equal(isJunkTitle(junk), true, junk);
    assert.equal(isJunkTitle('edgar_image', 'edgar_image.pdf'), true);
    assert.equal(isJunkTitle('almanac', 'almanac.pdf'), true, 'the file name without its extension');
  });

  it('should keep real titles', () => {
    for (const title of [ALMANAC, 'How to do the Basics', 'Dune', 'COVID-19 and Insurance', 'Edgar, King of England - Wikipedia', '코로나-19 관련 보험약관'])
      assert.equal(isJunkTitle(title, 'scan.pdf'), false, title);
  });
});

describe('titlePageHeading', () => {
  it('should take the highest level on the first two pages, not the first heading', () => {
    const elements = [heading('Front cover', 1, 1), heading('Back matter', 1, 3), heading(ALMANAC, 2, 1), heading('Chapter 1', 3, 1)];
    assert.equal(titlePageHeading(elements), ALMANAC);
    assert.equal(titlePageHeading([heading('Preface', 1, 3), heading(ALMANAC, 2, 2), heading('Chapter 1', 3, 1)]), ALMANAC, 'page 3 is past the title page');
  });

  it('should prefer clearly larger type among headings of one level on one page', () => {
    const elements = [heading('ISCA Archive', 1, 1, [59, 35, 141, 50]), heading('A Platform for Building Speech-Enabled Courses', 1, 1, [76, 90, 560, 112])];
    assert.equal(titlePageHeading(elements), 'A Platform for Building Speech-Enabled Courses');
  });

  it('should have no title without a heading on the first pages', () => {
    assert.equal(titlePageHeading([{ kind: 'paragraph', text: 'Just text.', headingPath: [], pageNumber: 1, pages: [1] }]), undefined);
  });
});

describe('xmpTitle', () => {
  it("should read the default language's dc:title and decode its entities", () => {
    const packet =
      '<x:xmpmeta><dc:title><rdf:Alt><rdf:li xml:lang="de">Almanach</rdf:li><rdf:li xml:lang="x-default">Tides &amp; Lamps</rdf:li></rdf:Alt></dc:title></x:xmpmeta>';
    assert.equal(xmpTitle(new TextEncoder().encode(`%PDF-1.7 junk ${packet} more`)), 'Tides & Lamps');
    assert.equal(xmpTitle(new TextEncoder().encode('%PDF-1.7 no packet')), undefined);
  });
});

describe('processDocument: the document title on every chunk', function () {
  this.timeout(60_000);

  it('should title a PDF by its Info Title, on every chunk, each chunk keeping its own heading path', async () => {
    const result = await processDocument(source(await book({ title: 'Almanac for Keepers, Second Edition' }), 'almanac.pdf', 'application/pdf'), {
      engine: 'text',
      maxTokens: 128,
    });
    assert.equal(result.title, 'Almanac for Keepers, Second Edition');
    assert.ok(result.chunks.length >= 3, `${result.chunks.length} chunks`);
    assert.deepEqual([...new Set(result.chunks.map((c) => c.title))], ['Almanac for Keepers, Second Edition']);
    const paths = new Set(result.chunks.map((c) => c.headingPath.join(' › ')));
    assert.ok(paths.size >= 2, `heading paths: ${[...paths].join(' | ')}`);
    const last = result.chunks.at(-1)!;
    assert.deepEqual(last.headingPath.at(-1), 'Chapter 2: Tides and Weather');
  });

  it('should title a PDF without a title by its title page, not by "Front cover"', async () => {
    const result = await processDocument(source(await book(), 'almanac.pdf', 'application/pdf'), { engine: 'text', maxTokens: 128 });
    assert.equal(result.elements.find((e) => e.kind === 'heading')?.text, 'Front cover', 'the first heading is the cover label');
    assert.equal(result.title, ALMANAC);
    assert.ok(result.chunks.every((c) => c.title === ALMANAC));
  });

  it('should pass over a junk Info Title to the XMP title, and both to the title page', async () => {
    const junk = 'Microsoft Word - almanac_final.doc';
    assert.equal(
      (await processDocument(source(await book({ title: junk, xmp: 'Keepers &amp; Lamps' }), 'a.pdf', 'application/pdf'), { engine: 'text' })).title,
      'Keepers & Lamps',
    );
    assert.equal((await processDocument(source(await book({ title: junk }), 'a.pdf', 'application/pdf'), { engine: 'text' })).title, ALMANAC);
    assert.equal((await processDocument(source(await book({ title: 'untitled' }), 'a.pdf', 'application/pdf'), { engine: 'text' })).title, ALMANAC);
  });

  it('should take the title of Office core properties, HTML <title> and an e-mail subject', async () => {
    const core =
      '<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Harbour Rules 2024</dc:title></cp:coreProperties>';
    const docx = makeDocx(`${p('Front cover', { style: 'Heading1' })}${p('Ships enter by the north channel.')}`, {
      parts: [{ name: 'docProps/core.xml', data: core }],
    });
    const word = await processDocument(source(docx, 'rules.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'), {
      engine: 'text',
    });
    assert.equal(word.title, 'Harbour Rules 2024');
    assert.ok(word.chunks.length > 0 && word.chunks.every((c) => c.title === 'Harbour Rules 2024'));
    const html = new TextEncoder().encode('<html><head><title>Tide Tables for May</title></head><body><h1>Welcome</h1><p>High water at six.</p></body></html>');
    assert.equal((await processDocument(source(html, 'tides.html', 'text/html'), { engine: 'text' })).title, 'Tide Tables for May');
    const eml = new TextEncoder().encode(
      'From: keeper@example.org\r\nTo: board@example.org\r\nSubject: Lamp failure on the north light\r\nContent-Type: text/plain\r\n\r\nThe lamp went out at two.\r\n',
    );
    assert.equal((await processDocument(source(eml, 'lamp.eml', 'message/rfc822'), { engine: 'text' })).title, 'Lamp failure on the north light');
  });
});
