import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { checkTruth, worded } from '../../../bench/factory/check/index.ts';
import { loadCorpus } from '../../../bench/factory/corpus/index.ts';
import { writeDocx } from '../../../bench/factory/families/office/docx.ts';
import { baseLayout, reportFurniture } from '../../../bench/factory/families/office/layout.ts';
import type { OfficeLayout } from '../../../bench/factory/families/office/model.ts';
import { writeOdt } from '../../../bench/factory/families/office/odt.ts';
import { wordFamily } from '../../../bench/factory/families/word.ts';
import { libreOfficeRenderer } from '../../../bench/factory/render/libreoffice.ts';
import { zip } from '../../../bench/factory/render/zip.ts';
import type { PlannedDocument } from '../../../bench/factory/types.ts';
import { seededRandom } from '../../../bench/scans/random.ts';
import { truthHolds } from '../../support/factory-truth.ts';

/** Read a ZIP back from its central directory, as an unzipper would. */
function unzip(bytes: Uint8Array): Map<string, Buffer> {
  const b = Buffer.from(bytes);
  const end = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = b.readUInt16LE(end + 10);
  let at = b.readUInt32LE(end + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    assert.equal(b.readUInt32LE(at), 0x02014b50);
    const method = b.readUInt16LE(at + 10);
    const size = b.readUInt32LE(at + 20);
    const nameLength = b.readUInt16LE(at + 28);
    const local = b.readUInt32LE(at + 42);
    const name = b.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const body = b.subarray(start, start + size);
    out.set(name, method === 0 ? Buffer.from(body) : inflateRawSync(body));
    at += 46 + nameLength;
  }
  return out;
}

const plan = async (variant: string, seed: string): Promise<PlannedDocument> => {
  const id = `word-${variant}-001`;
  return wordFamily.plan(variant, { random: seededRandom(`${seed}/${id}`), corpus: await loadCorpus(), index: 0, id });
};

const truthOf = (d: PlannedDocument): string =>
  JSON.stringify({
    blocks: d.blocks,
    furniture: [1, 2, 3].map((p) => d.furniture(p, 3)),
    source: Buffer.from((d.source as { bytes: Uint8Array }).bytes).toString('base64'),
  });

describe('bench factory: zip', () => {
  it('writes stored and deflated entries that read back byte for byte', () => {
    const text = 'Folio '.repeat(500);
    const files = unzip(
      zip([
        { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', stored: true },
        { name: 'a/b.xml', data: text },
        { name: 'bin', data: new Uint8Array([0, 1, 2, 255]) },
      ]),
    );
    assert.deepEqual([...files.keys()], ['mimetype', 'a/b.xml', 'bin']);
    assert.equal(files.get('mimetype')!.toString(), 'application/vnd.oasis.opendocument.text');
    assert.equal(files.get('a/b.xml')!.toString(), text);
    assert.deepEqual([...files.get('bin')!], [0, 1, 2, 255]);
  });
});

describe('bench factory: writeDocx and writeOdt', () => {
  it('set a two-column body after the title matter: a continuous section in DOCX, a section of two columns in ODT', () => {
    const r = seededRandom('columns');
    const layout: OfficeLayout = { ...baseLayout(r), ...reportFurniture(r, 'A title', 'A firm'), columns: 2 };
    const blocks = [
      { kind: 'heading', level: 1, text: 'A title' },
      { kind: 'paragraph', text: 'By-line' },
      { kind: 'list', ordered: true, items: [{ text: 'one', depth: 0 }] },
    ] as const;
    const docx = unzip(writeDocx({ layout, blocks, title: 'A title', spanning: 2 }))
      .get('word/document.xml')!
      .toString();
    assert.match(docx, /By-line<\/w:t><\/w:r><\/w:p><w:p><w:pPr><w:sectPr>.*<w:cols w:num="1"/);
    assert.match(docx, /<w:type w:val="continuous"\/>.*<w:cols w:num="2"[^>]*\/>.*<\/w:sectPr><\/w:body>/);
    assert.match(docx, /<w:numId w:val="2"\/>/);
    const odt = unzip(writeOdt({ layout, blocks, title: 'A title', spanning: 2 }))
      .get('content.xml')!
      .toString();
    assert.match(odt, /By-line<\/text:p><text:section text:style-name="Sect2"[^>]*><text:list/);
  });
});

describe('bench factory: wordFamily', () => {
  it('plans the same document for the same seed, another for another seed', async () => {
    for (const variant of wordFamily.variants) {
      assert.equal(truthOf(await plan(variant, 's1')), truthOf(await plan(variant, 's1')), variant);
      assert.notEqual(truthOf(await plan(variant, 's1')), truthOf(await plan(variant, 's2')), variant);
    }
  });

  it('never puts furniture in the body', async () => {
    for (const variant of wordFamily.variants) {
      for (const seed of ['s3', 's4', 's5']) {
        const d = await plan(variant, seed);
        const body = JSON.stringify(d.blocks);
        // Page numbers alone ("3", "p. 3") may well occur in prose; worded lines must not.
        const lines = [1, 2, 3, 4].flatMap((p) => [...d.furniture(p, 4).header, ...d.furniture(p, 4).footer]).filter(worded);
        for (const line of lines) assert.ok(!body.includes(line), `${variant}/${seed}: ${line}`);
      }
    }
  });

  it('prints a DOCX with odd/even heads and an ODT with a first page, their truth on the right pages of the text layer', async function () {
    this.timeout(180_000);
    await libreOfficeRenderer.ensure(() => {});
    const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-word-'));
    try {
      const docs = [await plan('manual', 'ci'), await plan('report-odt', 'ci'), await plan('letter', 'ci')];
      const jobs = docs.map((d) => ({ id: d.id, source: d.source, pdf: path.join(dir, `${d.id}.pdf`) }));
      // One broken package in the batch: it alone fails, by id, and the others print.
      const broken = {
        id: 'word-broken-001',
        source: { renderer: 'libreoffice' as const, extension: 'docx' as const, bytes: new TextEncoder().encode('PK\u0003\u0004 not a package') },
        pdf: path.join(dir, 'broken.pdf'),
      };
      const failures = await libreOfficeRenderer.render([...jobs, broken], path.join(dir, 'work'), () => {});
      assert.deepEqual([...failures.keys()], ['word-broken-001']);
      assert.match(failures.get('word-broken-001')!.message, /word-broken-001: LibreOffice did not print it/);
      for (const d of docs) {
        const check = await truthHolds(d, path.join(dir, `${d.id}.pdf`));
        assert.ok(check.furniture.checked > 0, d.id);
      }
      // A manual's even pages carry the company on the left, its odd pages the title.
      const manual = docs[0]!;
      const pages = (await checkTruth(manual, path.join(dir, `${manual.id}.pdf`))).pages;
      assert.ok(pages >= 2, `manual has ${pages} pages`);
      assert.notDeepEqual(manual.furniture(2, pages).header, manual.furniture(3, pages).header);
      assert.deepEqual(manual.furniture(1, pages).header, []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
