import assert from 'node:assert/strict';
import { sniffMime } from '../../../connector/index.ts';
import { CSV_MIME, DOCX_MIME, EML_MIME, EPUB_MIME, HTML_MIME, ODT_MIME, PPTX_MIME, TSV_MIME, XLS_MIME, XLSX_MIME } from '../../../pipeline/formats/index.ts';
import { makeDocx, makeZip, p } from './zip-writer.ts';

const enc = new TextEncoder();

describe('sniffMime (declarative formats)', () => {
  it('should tell Office packages apart by their parts, whatever the name', () => {
    assert.equal(sniffMime(makeDocx(p('x')), 'file.bin'), DOCX_MIME);
    assert.equal(
      sniffMime(
        makeZip([
          { name: '[Content_Types].xml', data: '<Types/>' },
          { name: 'xl/workbook.xml', data: '<workbook/>' },
        ]),
        'a.docx',
      ),
      XLSX_MIME,
    );
    assert.equal(sniffMime(makeZip([{ name: 'ppt/presentation.xml', data: '<p/>' }]), 'a'), PPTX_MIME);
  });

  it('should read the mimetype entry of OpenDocument and EPUB containers', () => {
    assert.equal(
      sniffMime(
        makeZip([
          { name: 'mimetype', data: ODT_MIME, deflate: false },
          { name: 'content.xml', data: '<a/>' },
        ]),
        'x.zip',
      ),
      ODT_MIME,
    );
    assert.equal(sniffMime(makeZip([{ name: 'mimetype', data: EPUB_MIME, deflate: false }]), 'book'), EPUB_MIME);
  });

  it('should read a .docx that is really a PDF as a PDF', () => {
    assert.equal(sniffMime(enc.encode('%PDF-1.7\n%...'), 'report.docx'), 'application/pdf');
  });

  it('should sniff HTML, e-mail, CSV and TSV from text', () => {
    assert.equal(sniffMime(enc.encode('<!DOCTYPE html><html><body>x</body></html>'), 'page'), HTML_MIME);
    assert.equal(sniffMime(enc.encode('From: a@example.org\nTo: b@example.org\nSubject: Hi\n\nBody'), 'mail'), EML_MIME);
    assert.equal(sniffMime(enc.encode('a,b\n1,2\n'), 'data.csv'), CSV_MIME);
    assert.equal(sniffMime(enc.encode('a\tb\n1\t2\n'), 'data.tsv'), TSV_MIME);
    assert.equal(sniffMime(enc.encode('# Title\n'), 'notes.md'), 'text/markdown');
    assert.equal(sniffMime(enc.encode('<?xml version="1.0"?>\n<?mso-application progid="Excel.Sheet"?>\n<Workbook/>'), 'book.xml'), XLS_MIME);
  });
});
