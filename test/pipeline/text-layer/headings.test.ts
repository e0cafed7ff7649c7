import assert from 'node:assert/strict';
import { openPdf } from '../../../pipeline/pdf/index.ts';
import { extractTextLayer } from '../../../pipeline/text-layer/index.ts';
import type { TextSpec } from './make-pdf.ts';
import { makePdf } from './make-pdf.ts';

const TAG = /^<\|ref\|>(\w+)<\|\/ref\|><\|det\|>\[\[[\d, ]+\]\]<\|\/det\|>$/;

/** Lines of body text at 10.5 pt with 14.7 pt leading, as the example handbook sets them. */
function body(lines: readonly string[], y: number, x = 72): TextSpec[] {
  return lines.map((text, i) => ({ text, x, y: y + i * 14.7, size: 10.5 }));
}

/** Two pages shaped like `examples/docs/folio-handbook.pdf`. */
function handbook(): Uint8Array {
  const header: TextSpec = { text: 'Folio Handbook', x: 72, y: 36, size: 8 };
  const footer = (n: number): TextSpec => ({ text: `Page ${n}`, x: 510, y: 762, size: 8 });
  return makePdf([
    {
      texts: [
        header,
        { text: 'Folio Handbook', x: 72, y: 88, size: 22, bold: true },
        ...body(
          [
            'Folio turns documents into structured knowledge that a search engine and a',
            'language model can trust. This handbook describes how a page travels.',
          ],
          112,
        ),
        { text: '1. How a page travels', x: 72, y: 166, size: 15, bold: true },
        ...body(
          ['A connector finds the documents. The pipeline opens each one and reads the', 'text layer of born-digital pages, or renders scanned pages for OCR.'],
          188,
        ),
        { text: '1.1 Routing rules', x: 72, y: 240, size: 12.5, bold: true },
        { text: '\u2022', x: 66, y: 258, size: 10.5 },
        ...body(['The text layer is used when it is present and readable.'], 258, 78),
        { text: '\u2022', x: 66, y: 279, size: 10.5 },
        ...body(['Pages without a text layer go to OCR.'], 279, 78),
        ...body(['When k draft tokens are proposed and a of them are accepted, the mean number', 'of tokens committed per step is'], 300),
        { text: 'tau = E[a] + 1, speed-up = tau / (1 + k c)', x: 210, y: 346, size: 12 },
        ...body(['where c is the cost of one draft step relative to one decoder step.'], 372),
        footer(1),
      ],
    },
    {
      texts: [
        header,
        { text: '2. Glossary', x: 72, y: 88, size: 15, bold: true },
        ...body(
          ['Chunk: a piece of a document small enough to embed, with its heading path.', 'Grounding: the box of an element on its page, on a 0 to 999 grid.'],
          110,
        ),
        footer(2),
      ],
    },
  ]);
}

async function blocksOf(bytes: Uint8Array): Promise<[string, string][][]> {
  const pdf = await openPdf(bytes, { source: 'handbook.pdf' });
  try {
    const pages: [string, string][][] = [];
    for await (const page of extractTextLayer(pdf)) {
      pages.push(
        page.markdown.split('\n\n').map((block) => {
          const [tag = '', ...rest] = block.split('\n');
          return [TAG.exec(tag)?.[1] ?? 'untagged', rest.join('\n')];
        }),
      );
    }
    return pages;
  } finally {
    await pdf.close();
  }
}

describe('extractTextLayer headings', () => {
  let pages: [string, string][][];
  before(async () => {
    pages = await blocksOf(handbook());
  });

  it('reads big numbered section titles as headings, not list items', () => {
    const [first = [], second = []] = pages;
    assert.ok(
      first.some(([label, text]) => label === 'sub_title' && text === '## 1. How a page travels'),
      JSON.stringify(first),
    );
    assert.ok(first.some(([label, text]) => label === 'sub_title' && text === '### 1.1 Routing rules'));
    assert.ok(
      second.some(([label, text]) => label === 'sub_title' && text === '## 2. Glossary'),
      JSON.stringify(second),
    );
    assert.ok(!first.some(([label, text]) => label === 'list' && text.includes('How a page travels')));
  });

  it('keeps bullets under a heading as list items', () => {
    const lists = (pages[0] ?? []).filter(([label]) => label === 'list').map(([, text]) => text);
    assert.deepEqual(lists, ['- The text layer is used when it is present and readable.', '- Pages without a text layer go to OCR.']);
  });

  it('labels a centred line with `=` as an equation, not a heading', () => {
    const formula = (pages[0] ?? []).find(([, text]) => text.includes('tau = E[a] + 1'));
    assert.deepEqual(formula, ['equation', 'tau = E[a] + 1, speed-up = tau / (1 + k c)']);
  });

  it('keeps the big title while its small running repeat is a page header', () => {
    const [first = [], second = []] = pages;
    assert.deepEqual(first[0], ['page_header', 'Folio Handbook']);
    assert.deepEqual(first[1], ['title', '# Folio Handbook']);
    assert.deepEqual(second[0], ['page_header', 'Folio Handbook']);
    assert.ok(!second.some(([label, text]) => label !== 'page_header' && text.includes('Folio Handbook')));
  });
});
