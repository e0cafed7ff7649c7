import assert from 'node:assert/strict';
import { sniffMime } from '../../../connector/index.ts';
import { sha256 } from '../../../core/hash.ts';
import type { SourceDocument } from '../../../core/types.ts';
import { DOCX_MIME, ENCRYPTED_OFFICE_MIME, openZip, parseXml } from '../../../pipeline/formats/index.ts';
import { processDocument } from '../../../pipeline/run/index.ts';
import { makeDocx, makeZip, p } from './zip-writer.ts';

function source(bytes: Uint8Array, name: string, mime = sniffMime(bytes, name)): SourceDocument {
  return { id: sha256(name).slice(0, 16), uri: `file:///test/${name}`, relativePath: name, mime, bytes, contentHash: sha256(bytes) };
}

async function failureOf(bytes: Uint8Array, name: string, mime?: string): Promise<{ code: string; reason: string }> {
  const result = await processDocument(source(bytes, name, mime), { engine: 'text' });
  assert.equal(result.ok, false, `${name} should fail`);
  const failure = result.failures[0]!;
  assert.match(failure.reason, new RegExp(name.replace('.', '\\.')), 'the reason names the document');
  return failure;
}

describe('format readers on bad input', () => {
  it('should refuse a zip bomb by its expansion ratio, before inflating it', async () => {
    const zeros = new Uint8Array(64 * 1024 * 1024);
    const bomb = makeDocx(p('x'), { parts: [{ name: 'word/media/zeros.bin', data: zeros }] });
    assert.ok(bomb.length < 200 * 1024, `the bomb is small (${bomb.length} bytes)`);
    const zip = openZip(bomb);
    assert.throws(() => zip.read('word/media/zeros.bin'), { code: 'FOLIO_ZIP_TOO_LARGE' });
  });

  it('should stop inflating an entry that expands past its declared size', async () => {
    const lying = makeDocx(p('x'), {}).slice();
    const bytes = makeZip([{ name: 'word/document.xml', data: 'a'.repeat(200_000), declaredSize: 100 }]);
    assert.ok(lying.length > 0);
    assert.throws(() => openZip(bytes).read('word/document.xml'), { code: 'FOLIO_ZIP_TOO_LARGE' });
  });

  it('should record a truncated DOCX as a corrupt container', async () => {
    const whole = makeDocx(p('Hello'));
    const failure = await failureOf(whole.subarray(0, Math.floor(whole.length * 0.6)), 'cut.docx', DOCX_MIME);
    assert.equal(failure.code, 'FOLIO_ZIP_CORRUPT');
  });

  it('should refuse an XML external entity (XXE) and never read the file it names', async () => {
    const body = p('&xxe;');
    const bytes = makeDocx(body);
    const evil = new TextDecoder()
      .decode(openZip(bytes).read('word/document.xml'))
      .replace('<w:document', '<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><w:document');
    const docx = makeDocx('', { parts: [] });
    const patched = makeZip(
      openZip(docx)
        .names()
        .map((name) => ({ name, data: name === 'word/document.xml' ? evil : openZip(docx).read(name)! })),
    );
    const failure = await failureOf(patched, 'xxe.docx');
    assert.equal(failure.code, 'FOLIO_XML_UNSAFE');
    assert.throws(() => parseXml('<!DOCTYPE a [<!ENTITY b "c">]><a>&b;</a>'), { code: 'FOLIO_XML_UNSAFE' });
  });

  it('should record malformed XML with its own code', async () => {
    const failure = await failureOf(makeDocx('<w:p><w:r><w:t>open</w:r></w:p>'), 'broken.docx');
    assert.equal(failure.code, 'FOLIO_XML_MALFORMED');
  });

  it('should name an encrypted Office file (an OLE container with EncryptedPackage)', async () => {
    const ole = new Uint8Array(4096);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const name = new Uint8Array(Buffer.from('EncryptedPackage', 'utf16le'));
    ole.set(name, 1024);
    assert.equal(sniffMime(ole, 'secret.docx'), ENCRYPTED_OFFICE_MIME);
    const failure = await failureOf(ole, 'secret.docx');
    assert.equal(failure.code, 'FOLIO_OFFICE_ENCRYPTED');
  });

  it('should refuse an encrypted zip entry', () => {
    const bytes = makeZip([{ name: 'word/document.xml', data: '<a/>', encrypted: true }]);
    assert.throws(() => openZip(bytes).read('word/document.xml'), { code: 'FOLIO_OFFICE_ENCRYPTED' });
  });

  it('should refuse a sheet of a million cells with a clear code, before building its tree', async () => {
    const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    const rels = (items: string): string => `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;
    const row = (r: number): string => `<row r="${r}">${Array.from({ length: 1000 }, (_, c) => `<c><v>${c}</v></c>`).join('')}</row>`;
    const sheet = `<worksheet><sheetData>${Array.from({ length: 1000 }, (_, r) => row(r + 1)).join('')}</sheetData></worksheet>`;
    const bytes = makeZip([
      { name: '_rels/.rels', data: rels(`<Relationship Id="r1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/>`) },
      { name: 'xl/workbook.xml', data: `<workbook xmlns:r="${REL}"><sheets><sheet name="Big" sheetId="1" r:id="rS"/></sheets></workbook>` },
      { name: 'xl/_rels/workbook.xml.rels', data: rels(`<Relationship Id="rS" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>`) },
      { name: 'xl/worksheets/sheet1.xml', data: sheet },
    ]);
    const failure = await failureOf(bytes, 'million.xlsx');
    assert.equal(failure.code, 'FOLIO_FORMAT_TOO_LARGE');
    assert.match(failure.reason, /1000000/);
  });
});
