/**
 * Makes the small documents in examples/docs, so a fresh clone has something real to ingest:
 * a born-digital PDF (headings, a list, a table, a formula, page headers and footers over three
 * pages), a "scanned" page image for the OCR route, and OCR Markdown as jina-ocr-v1 writes it.
 *
 *   npx node examples/make-docs.ts
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

const OUT = new URL('./docs/', import.meta.url);
const WIDTH = 595;
const HEIGHT = 842;
const MARGIN = 64;

interface Fonts {
  readonly regular: PDFFont;
  readonly bold: PDFFont;
  readonly italic: PDFFont;
}

/** Lays text out top to bottom on pages, starting a new page when one is full. */
class Writer {
  readonly #doc: PDFDocument;
  readonly #fonts: Fonts;
  #page!: PDFPage;
  #y = 0;
  #pages = 0;

  constructor(doc: PDFDocument, fonts: Fonts) {
    this.#doc = doc;
    this.#fonts = fonts;
    this.newPage();
  }

  newPage(): void {
    this.#page = this.#doc.addPage([WIDTH, HEIGHT]);
    this.#pages++;
    const { regular } = this.#fonts;
    this.#page.drawText('Folio Handbook', { x: MARGIN, y: HEIGHT - 36, size: 8, font: regular, color: rgb(0.4, 0.4, 0.4) });
    this.#page.drawText(`Page ${this.#pages}`, { x: WIDTH - MARGIN - 30, y: 30, size: 8, font: regular, color: rgb(0.4, 0.4, 0.4) });
    this.#y = HEIGHT - MARGIN - 10;
  }

  #need(height: number): void {
    if (this.#y - height < MARGIN) this.newPage();
  }

  heading(text: string, size: number): void {
    this.#need(size * 2.5);
    this.#y -= size * 0.8;
    this.#page.drawText(text, { x: MARGIN, y: this.#y, size, font: this.#fonts.bold });
    this.#y -= size * 1.0;
  }

  paragraph(text: string, options: { indent?: number; bullet?: string; size?: number } = {}): void {
    const { indent = 0, bullet, size = 10.5 } = options;
    const font = this.#fonts.regular;
    const width = WIDTH - 2 * MARGIN - indent;
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(/\s+/)) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) > width && line) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    if (line) lines.push(line);
    for (const [i, l] of lines.entries()) {
      this.#need(size * 1.4);
      if (i === 0 && bullet) this.#page.drawText(bullet, { x: MARGIN + indent - 12, y: this.#y, size, font });
      this.#page.drawText(l, { x: MARGIN + indent, y: this.#y, size, font });
      this.#y -= size * 1.4;
    }
    this.#y -= size * 0.6;
  }

  table(rows: readonly (readonly string[])[], widths: readonly number[]): void {
    const size = 9.5;
    const rowHeight = size * 1.9;
    this.#need(rowHeight * rows.length + 10);
    const top = this.#y;
    const totalWidth = widths.reduce((a, b) => a + b, 0);
    for (const [r, row] of rows.entries()) {
      let x = MARGIN;
      const font = r === 0 ? this.#fonts.bold : this.#fonts.regular;
      for (const [c, cell] of row.entries()) {
        this.#page.drawText(cell, { x: x + 4, y: this.#y - size * 1.3, size, font });
        x += widths[c]!;
      }
      this.#y -= rowHeight;
      this.#page.drawLine({ start: { x: MARGIN, y: this.#y }, end: { x: MARGIN + totalWidth, y: this.#y }, thickness: r === 0 ? 1 : 0.4 });
    }
    this.#page.drawLine({ start: { x: MARGIN, y: top }, end: { x: MARGIN + totalWidth, y: top }, thickness: 1 });
    this.#y -= 14;
  }

  formula(text: string): void {
    this.#need(30);
    const size = 12;
    const width = this.#fonts.italic.widthOfTextAtSize(text, size);
    this.#page.drawText(text, { x: (WIDTH - width) / 2, y: this.#y - 6, size, font: this.#fonts.italic });
    this.#y -= 30;
  }
}

async function handbook(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Folio Handbook');
  doc.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  doc.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    italic: await doc.embedFont(StandardFonts.HelveticaOblique),
  };
  const w = new Writer(doc, fonts);
  w.heading('Folio Handbook', 22);
  w.paragraph(
    'Folio turns documents into structured knowledge that a search engine and a language model can trust. This handbook describes how a page travels through the pipeline, how each page is routed, and how the results are indexed.',
  );
  w.heading('1. How a page travels', 15);
  w.paragraph(
    'A connector finds the documents. The pipeline opens each one, reads the text layer of born-digital pages and renders scanned pages for an OCR engine. Markdown from either route is parsed into typed elements: headings, paragraphs, lists, tables and formulas.',
  );
  w.paragraph('Every element keeps its page number and its box on the page, so a search hit can always be traced back to the place it came from.');
  w.heading('1.1 Routing rules', 12.5);
  w.paragraph('The text layer is used when it is present and readable.', { indent: 16, bullet: '•' });
  w.paragraph('Pages without a text layer, or with an invisible or garbled one, go to OCR.', { indent: 16, bullet: '•' });
  w.paragraph('Each decision is recorded with its reason, page by page.', { indent: 16, bullet: '•' });
  w.heading('2. Engines compared', 15);
  w.paragraph('The table below lists the engines Folio can use for a page and what each one needs.');
  w.table(
    [
      ['Engine', 'Input', 'Needs a GPU', 'Typical use'],
      ['text', 'PDF text layer', 'no', 'born-digital reports'],
      ['paddle', 'page image', 'no', 'scans on a laptop'],
      ['onnx', 'page image', 'optional', 'tables and formulas'],
      ['remote', 'page image', 'server side', 'a shared GPU server'],
    ],
    [90, 110, 90, 170],
  );
  w.newPage();
  w.heading('3. Speculative decoding', 15);
  w.paragraph(
    'The OCR model drafts several tokens with a small head and the decoder verifies them in one pass. When k draft tokens are proposed and a of them are accepted, the step commits a + 1 tokens, so the mean number of tokens committed per step is',
  );
  w.formula('tau = E[a] + 1,   speed-up = tau / (1 + k c)');
  w.paragraph(
    'where c is the cost of one draft step relative to one decoder step. Verification keeps the output identical to greedy decoding: only the speed changes.',
  );
  w.heading('4. Indexing', 15);
  w.paragraph(
    'Chunks are written to Elasticsearch with deterministic identifiers, so running the same input twice changes nothing. A chunk that cannot be indexed is recorded in a dead-letter index together with the reason, and the run goes on.',
  );
  w.paragraph('Search combines BM25 over the text with nearest-neighbour search over the vectors and fuses both rankings.');
  w.heading('5. Glossary', 15);
  w.paragraph('Chunk: a piece of a document small enough to embed, carrying its heading path and pages.', { indent: 16, bullet: '•' });
  w.paragraph('Grounding: the box of an element on its page, on a 0 to 999 grid.', { indent: 16, bullet: '•' });
  w.paragraph('Dead letter: the record of an input that did not make it, with the reason.', { indent: 16, bullet: '•' });
  w.newPage();
  w.heading('6. Frequently asked questions', 15);
  w.paragraph('Does Folio need a GPU? No. The text layer and the embedded OCR engine run on a plain CPU; a GPU only makes the vision-language model faster.');
  w.paragraph('What happens to a password-protected PDF? It is reported with a clear error unless the password is given with the --password option.');
  w.paragraph('Can Folio read Markdown from another OCR service? Yes: Markdown files with grounding tags are parsed into the same elements as any other page.');
  return doc.save({ useObjectStreams: false });
}

/** A page of text drawn into pixels: the OCR route's input when no scanner is at hand. */
function scannedMemo(): Buffer {
  const canvas = createCanvas(1240, 1754);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fbfaf6';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#111';
  ctx.font = 'bold 56px sans-serif';
  ctx.fillText('Memo: Quarterly Archive Review', 120, 200);
  ctx.font = '34px sans-serif';
  const lines = [
    'The archive team scanned 1,240 boxes of invoices this quarter.',
    'Every page was read by the embedded OCR engine and indexed',
    'with its page number, so auditors can search the scans by',
    'supplier name, invoice number or amount.',
    '',
    'Next steps: review the pages flagged by the quality gate and',
    'rescan the faded carbon copies at a higher resolution.',
  ];
  lines.forEach((line, i) => ctx.fillText(line, 120, 320 + i * 56));
  return canvas.toBuffer('image/png');
}

const OCR_MARKDOWN = `<|ref|>title<|/ref|><|det|>[[80, 40, 920, 90]]<|/det|>
# Invoice Summary 2026

<|ref|>text<|/ref|><|det|>[[80, 110, 920, 180]]<|/det|>
This page was transcribed by a vision-language OCR model. Folio keeps the box of every block and turns the table below into rows that search and language models can use.

<|ref|>table<|/ref|><|det|>[[80, 200, 920, 420]]<|/det|>
<table><tr><th rowspan="2">Supplier</th><th colspan="2">Amount (EUR)</th></tr><tr><th>Q1</th><th>Q2</th></tr><tr><td>Northwind Paper</td><td>1,200</td><td>1,450</td></tr><tr><td>Atlas Print</td><td>830</td><td>910</td></tr></table>

<|ref|>equation<|/ref|><|det|>[[300, 440, 700, 490]]<|/det|>
$$\\text{total} = \\sum_{i=1}^{n} a_i$$
\f<|ref|>title<|/ref|><|det|>[[80, 40, 920, 90]]<|/det|>
## Notes

<|ref|>text<|/ref|><|det|>[[80, 110, 920, 200]]<|/det|>
Amounts are net of VAT. The second quarter includes the paper price increase of $4\\%$ announced in March.
`;

await mkdir(OUT, { recursive: true });
await writeFile(new URL('folio-handbook.pdf', OUT), await handbook());
await writeFile(new URL('scanned-memo.png', OUT), scannedMemo());
await writeFile(new URL('invoice-ocr.md', OUT), OCR_MARKDOWN);
console.log('wrote examples/docs/folio-handbook.pdf, scanned-memo.png, invoice-ocr.md');
