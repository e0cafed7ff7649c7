import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sniffMime } from '../../../connector/index.ts';
import { sha256 } from '../../../core/hash.ts';
import type { SourceDocument } from '../../../core/types.ts';
import { DOC_MIME, MSG_MIME, RTF_MIME } from '../../../pipeline/formats/index.ts';
import { processDocument } from '../../../pipeline/run/index.ts';
import { makeDocx, p } from './zip-writer.ts';

const DATA = '../shared/data/formats-dev/email';

function source(bytes: Uint8Array, name: string): SourceDocument {
  return { id: sha256(name).slice(0, 16), uri: `file:///test/${name}`, relativePath: name, mime: sniffMime(bytes, name), bytes, contentHash: sha256(bytes) };
}

const read = async (bytes: Uint8Array, name: string) => processDocument(source(bytes, name), { engine: 'text' });

describe('readFormat (e-mail, RTF, legacy Office)', () => {
  it('should read an EML with its headers, and its attachment as a child document', async () => {
    const result = await read(new Uint8Array(await readFile(join(DATA, 'eml_with_attachment.eml'))), 'mail.eml');
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.equal(result.elements[0]?.kind, 'heading');
    assert.equal(result.elements[0]?.text, 'Email with Attachment');
    assert.ok(result.elements.some((e) => e.text === 'From: Alice Example <alice@example.com>'));
    assert.ok(result.elements.some((e) => e.text === 'Attachments: test.txt'));
    assert.doesNotMatch(result.markdown, /This is a test attachment file\./, 'the attachment is a document of its own');
    const [child, ...more] = result.children ?? [];
    assert.equal(more.length, 0);
    assert.deepEqual(child?.doc.parent, { id: result.doc.id, uri: result.doc.uri, depth: 1 });
    assert.equal(child?.doc.uri, 'file:///test/mail.eml#attachment=test.txt');
    assert.notEqual(child?.doc.id, result.doc.id);
    assert.match(child?.markdown ?? '', /This is a test attachment file\./);
    assert.ok((child?.chunks.length ?? 0) > 0);
    assert.ok(child?.chunks.every((c) => c.parentId === result.doc.id && c.docId === child.doc.id));
    assert.ok(result.chunks.every((c) => c.parentId === undefined));
  });

  it('should read a PDF attached to an EML through the text layer, as a child document of its own pages', async () => {
    const pdf = await readFile('examples/docs/folio-handbook.pdf');
    const wrapped = pdf.toString('base64').replace(/.{76}/g, '$&\n');
    const message = `From: a@example.org\nSubject: Handbook\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="x"\n\n--x\nContent-Type: text/plain\n\nSee attached.\n--x\nContent-Type: application/pdf; name="handbook.pdf"\nContent-Disposition: attachment; filename="handbook.pdf"\nContent-Transfer-Encoding: base64\n\n${wrapped}\n--x--\n`;
    const result = await read(new TextEncoder().encode(message), 'handbook.eml');
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.deepEqual(
      result.pages.map((p) => [p.pageNumber, p.engine]),
      [[1, 'eml']],
    );
    const child = result.children?.[0];
    assert.equal(child?.doc.mime, 'application/pdf');
    assert.deepEqual(
      child?.pages.map((p) => [p.pageNumber, p.engine]),
      [
        [1, 'text'],
        [2, 'text'],
        [3, 'text'],
      ],
    );
    assert.ok(child?.elements.some((e) => e.pageNumber === 1 && e.text.includes('Folio Handbook')));
    assert.ok(child?.chunks.some((c) => c.pages.includes(2) && c.parentId === result.doc.id));
  });

  it('should read an Outlook MSG (OLE) with its attachment as a child document', async () => {
    const bytes = new Uint8Array(await readFile(join(DATA, 'msg_with_attachment.msg')));
    assert.equal(sniffMime(bytes, 'x'), MSG_MIME);
    const result = await read(bytes, 'mail.msg');
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.equal(result.elements[0]?.text, 'Email with Attachment');
    assert.ok(result.elements.some((e) => e.text === 'Attachments: test.txt, report.pdf'));
    assert.deepEqual(
      result.children?.map((child) => [child.doc.uri, child.ok]),
      [
        ['file:///test/mail.msg#attachment=test.txt', true],
        // The fixture's PDF is a stub (`%PDF-1.4 fake report bytes`): that child fails, alone.
        ['file:///test/mail.msg#attachment=report.pdf', false],
      ],
    );
    assert.equal(result.children?.[1]?.failures[0]?.docId, result.children?.[1]?.doc.id);
    assert.match(result.children?.[0]?.markdown ?? '', /This is a test attachment file\./);
  });

  it('should read a message nested twelve deep down to the nesting bound, and say where it stopped', async () => {
    let message = 'Subject: innermost\n\nThe bottom.';
    for (let i = 0; i < 12; i++) {
      message = `Subject: level ${i}\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="b${i}"\n\n--b${i}\nContent-Type: text/plain\n\nBody ${i}\n--b${i}\nContent-Type: message/rfc822\nContent-Disposition: attachment; filename="m${i}.eml"\n\n${message}\n--b${i}--\n`;
    }
    const result = await read(new TextEncoder().encode(message), 'deep.eml');
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.match(result.markdown, /# level 11/);
    const chain = [result];
    while (chain.at(-1)?.children?.[0] !== undefined) chain.push(chain.at(-1)!.children![0]!);
    assert.equal(chain.length, 11, 'the message and ten levels of attachments');
    assert.match(chain[10]!.markdown, /# level 1\b/);
    assert.equal(chain[10]!.doc.parent?.depth, 10);
    assert.deepEqual(
      chain[10]!.failures.map((f) => f.code),
      ['FOLIO_NESTING_TOO_DEEP'],
    );
    assert.ok(
      chain.every((doc) => !/The bottom/.test(doc.markdown)),
      'nesting past the bound is not read',
    );
  });

  it('should read RTF paragraphs, headings from the style sheet, emphasis and tables', async () => {
    const rtf =
      '{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}{\\stylesheet{\\s0 Normal;}{\\s1\\sbasedon0 heading 1;}}' +
      "\\pard\\plain\\s1 Overview\\par\\pard\\plain Caf\\'e9 with {\\b bold} text\\u8212? done.\\par" +
      '\\trowd\\cellx1000\\cellx2000\\pard\\intbl A\\cell B\\cell\\row\\trowd\\cellx1000\\cellx2000\\pard\\intbl 1\\cell 2\\cell\\row\\pard After.\\par}';
    const bytes = new TextEncoder().encode(rtf);
    assert.equal(sniffMime(bytes, 'x'), RTF_MIME);
    const result = await read(bytes, 'doc.rtf');
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.deepEqual(
      result.elements.map((e) => [e.kind, e.kind === 'table' ? e.table?.cells : e.text]),
      [
        ['heading', 'Overview'],
        ['paragraph', 'Café with bold text— done.'],
        [
          'table',
          [
            ['A', 'B'],
            ['1', '2'],
          ],
        ],
        ['paragraph', 'After.'],
      ],
    );
    assert.match(result.markdown, /\*\*bold\*\*/);
  });

  it('should read a legacy .doc through LibreOffice, or name the missing converter', async function () {
    this.timeout(180_000);
    const dir = mkdtempSync(join(tmpdir(), 'folio-doc-test-'));
    try {
      const docx = makeDocx(`${p('Legacy heading', { style: 'Heading1' })}${p('Old but readable.')}`, {
        styles: '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>',
      });
      writeFileSync(join(dir, 'old.docx'), docx);
      let installed = true;
      try {
        execFileSync('soffice', ['--headless', `-env:UserInstallation=file://${dir}/profile`, '--convert-to', 'doc', '--outdir', dir, join(dir, 'old.docx')], {
          stdio: 'ignore',
          timeout: 120_000,
        });
      } catch {
        installed = false;
      }
      if (installed) {
        const bytes = new Uint8Array(readFileSync(join(dir, 'old.doc')));
        assert.equal(sniffMime(bytes, 'old.doc'), DOC_MIME);
        const result = await read(bytes, 'old.doc');
        assert.equal(result.ok, true, JSON.stringify(result.failures));
        assert.deepEqual(
          result.elements.map((e) => [e.kind, e.text]),
          [
            ['heading', 'Legacy heading'],
            ['paragraph', 'Old but readable.'],
          ],
        );
      }
      // Without the converter, the same document fails with a code naming it.
      const ole = new Uint8Array(2048);
      ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
      ole.set(new Uint8Array(Buffer.from('WordDocument', 'utf16le')), 1024);
      const saved = process.env['FOLIO_SOFFICE'];
      process.env['FOLIO_SOFFICE'] = join(dir, 'no-such-soffice');
      try {
        const result = await read(ole, 'missing.doc');
        assert.equal(result.failures[0]?.code, 'FOLIO_CONVERTER_MISSING');
      } finally {
        if (saved === undefined) delete process.env['FOLIO_SOFFICE'];
        else process.env['FOLIO_SOFFICE'] = saved;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
