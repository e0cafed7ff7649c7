import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { PdfHandle } from '../../../pipeline/pdf/index.ts';
import { openPdf } from '../../../pipeline/pdf/index.ts';
import type { ExtractTextLayerOptions, TextLayerPage } from '../../../pipeline/text-layer/index.ts';
import { extractTextLayer } from '../../../pipeline/text-layer/index.ts';
import type { TextSpec } from './make-pdf.ts';
import { makePdf, paragraph } from './make-pdf.ts';

const DOCLING = '../shared/data/docling-dev/pdf/';
const OLMOCR = '../shared/data/olmocr-bench-dev/pdfs/';
const TAG = /^<\|ref\|>(\w+)<\|\/ref\|><\|det\|>\[\[(\d+), (\d+), (\d+), (\d+)\]\]<\|\/det\|>$/;

async function pagesOf(bytes: Uint8Array, options: ExtractTextLayerOptions = {}, password?: string): Promise<TextLayerPage[]> {
  const pdf = await openPdf(bytes, { source: 'test.pdf', ...(password === undefined ? {} : { password }) });
  try {
    const pages: TextLayerPage[] = [];
    for await (const page of extractTextLayer(pdf, options)) pages.push(page);
    return pages;
  } finally {
    await pdf.close();
  }
}

async function fileMarkdown(path: string, password?: string): Promise<string> {
  const pages = await pagesOf(await readFile(path), {}, password);
  return pages.map((p) => p.markdown).join('\n\n');
}

/** Blocks as `[label, text]`, tags parsed. */
function blocks(markdown: string): [string, string][] {
  return markdown.split('\n\n').map((block) => {
    const [tag = '', ...rest] = block.split('\n');
    return [TAG.exec(tag)?.[1] ?? 'untagged', rest.join('\n')];
  });
}

/** Body text without headers and footers, as `convert` keeps it. */
function body(markdown: string): string {
  return blocks(markdown)
    .filter(([label]) => label !== 'page_header' && label !== 'page_footer')
    .map(([, text]) => text)
    .join('\n')
    .replace(/\s+/g, ' ');
}

function isBefore(text: string, first: string, second: string): boolean {
  const a = text.indexOf(first);
  const b = text.indexOf(second);
  return a >= 0 && b >= 0 && a < b;
}

/** A page of a synthetic report: running head, heading, two columns, a grid, lists, page number. */
function reportPage(n: number): TextSpec[] {
  return [
    { text: 'Annual Report of the Widget Company', x: 72, y: 40, size: 8 },
    { text: `Results for page ${n}`, x: 72, y: 100, size: 16, bold: true },
    ...paragraph(
      [
        'Left column starts here and the text goes on for',
        'a while in the left column of this page until it',
        'reaches the end of the left column text block.',
      ],
      72,
      130,
    ),
    ...paragraph(
      [
        'Right column begins after the left one is done and',
        'continues for some lines in the right column too,',
        'ending the right column here at the last line.',
      ],
      330,
      130,
    ),
    { text: 'Region', x: 72, y: 220, bold: true },
    { text: 'Sales', x: 200, y: 220, bold: true },
    { text: 'Growth', x: 300, y: 220, bold: true },
    { text: 'North', x: 72, y: 234 },
    { text: '120', x: 200, y: 234 },
    { text: '4%', x: 300, y: 234 },
    { text: 'South', x: 72, y: 248 },
    { text: '95', x: 200, y: 248 },
    { text: '-2%', x: 300, y: 248 },
    { text: '\u2022 first point of the list', x: 72, y: 290 },
    { text: '\u2022 second point of the list', x: 72, y: 304 },
    { text: '1. numbered item one', x: 72, y: 330 },
    { text: '2. numbered item two', x: 72, y: 344 },
    ...paragraph(['A closing paragraph whose first line ends in a hyphen-', 'ated word that must be joined again.'], 72, 380),
    { text: `${n}`, x: 300, y: 760, size: 9 },
  ];
}

describe('extractTextLayer', () => {
  let report: TextLayerPage[];
  before(async () => {
    report = await pagesOf(makePdf([1, 2, 3].map((n) => ({ texts: reportPage(n) }))), { lookahead: 2 });
  });

  it('tags every block with a label and a box on the 0–999 grid', () => {
    for (const page of report) {
      for (const block of page.markdown.split('\n\n')) {
        const tag = TAG.exec(block.split('\n')[0] ?? '');
        assert.ok(tag, `untagged block: ${block}`);
        const [x1, y1, x2, y2] = tag.slice(2).map(Number) as [number, number, number, number];
        assert.ok(x1 <= x2 && y1 <= y2 && x2 <= 999 && y2 <= 999, block);
      }
    }
    const title = blocks(report[0]?.markdown ?? '').find(([label]) => label === 'title');
    assert.deepEqual(title, ['title', '# Results for page 1']);
  });

  it('reads the left column before the right one', () => {
    const text = body(report[0]?.markdown ?? '');
    assert.ok(isBefore(text, 'reaches the end of the left column', 'Right column begins'), text);
    assert.match(text, /Left column starts here and the text goes on for a while in the left column/);
  });

  it('writes aligned text as an HTML table', () => {
    const table = blocks(report[0]?.markdown ?? '').find(([label]) => label === 'table');
    assert.deepEqual(table, [
      'table',
      '<table><thead><tr><th>Region</th><th>Sales</th><th>Growth</th></tr></thead><tbody><tr><td>North</td><td>120</td><td>4%</td></tr><tr><td>South</td><td>95</td><td>-2%</td></tr></tbody></table>',
    ]);
  });

  it('writes bullet and numbered lists', () => {
    const lists = blocks(report[0]?.markdown ?? '')
      .filter(([label]) => label === 'list')
      .map(([, text]) => text);
    assert.deepEqual(lists, ['- first point of the list', '- second point of the list', '1. numbered item one', '2. numbered item two']);
  });

  it('joins hyphenated words across lines', () => {
    assert.match(body(report[0]?.markdown ?? ''), /first line ends in a hyphenated word that must be joined again\./);
  });

  it('marks running heads and page numbers as headers and footers, out of the body', () => {
    for (const page of report) {
      const all = blocks(page.markdown);
      assert.deepEqual(
        all.filter(([label]) => label === 'page_header'),
        [['page_header', 'Annual Report of the Widget Company']],
      );
      assert.deepEqual(
        all.filter(([label]) => label === 'page_footer'),
        [['page_footer', String(page.pageNumber)]],
      );
      assert.doesNotMatch(body(page.markdown), /Annual Report/);
    }
  });

  it('streams: the first page comes out after lookahead + 1 pages are read', async () => {
    const bytes = makePdf([1, 2, 3, 4, 5].map((n) => ({ texts: reportPage(n) })));
    const pdf = await openPdf(bytes, { source: 'five.pdf' });
    const requested: number[] = [];
    const counting: PdfHandle = { ...pdf, readPage: (n, read) => (requested.push(n), pdf.readPage(n, read)) };
    try {
      for await (const page of extractTextLayer(counting, { lookahead: 1 })) {
        assert.equal(page.pageNumber, 1);
        assert.deepEqual(requested, [1, 2]);
        break;
      }
    } finally {
      await pdf.close();
    }
  });

  it('extracts only the pages asked for and validates options', async () => {
    const bytes = makePdf([1, 2, 3].map((n) => ({ texts: reportPage(n) })));
    const pages = await pagesOf(bytes, { pages: [3, 1] });
    assert.deepEqual(
      pages.map((p) => p.pageNumber),
      [3, 1],
    );
    await assert.rejects(pagesOf(bytes, { pages: [4] }), /`pages`.*`4`/);
    await assert.rejects(pagesOf(bytes, { lookahead: -1 }), /`lookahead`.*`-1`/);
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    const bytes = makePdf([1, 2, 3].map((n) => ({ texts: reportPage(n) })));
    const pdf = await openPdf(bytes, { source: 'three.pdf' });
    try {
      const seen: number[] = [];
      await assert.rejects(
        (async () => {
          for await (const page of extractTextLayer(pdf, { lookahead: 0, signal: controller.signal })) {
            seen.push(page.pageNumber);
            controller.abort(new Error('cancelled by test'));
          }
        })(),
        /cancelled by test/,
      );
      assert.deepEqual(seen, [1]);
    } finally {
      await pdf.close();
    }
  });

  it('finds section headings in 2305.03393v1-pg9.pdf', async () => {
    const markdown = await fileMarkdown(`${DOCLING}2305.03393v1-pg9.pdf`);
    const headings = blocks(markdown)
      .filter(([label]) => label === 'sub_title')
      .map(([, text]) => text);
    assert.deepEqual(headings, ['### 5.1 Hyper Parameter Optimization', '### 5.2 Quantitative Results']);
    assert.match(body(markdown), /We have chosen the PubTabNet data set to perform HPO, since it includes a highly diverse set of tables\./);
  });

  it('reads a two-column article in order, with its drop cap and without its running head', async () => {
    const text = body(await fileMarkdown(`${OLMOCR}multi_column_miss.pdf`));
    assert.ok(
      isBefore(text, 'Corporate social responsibility and the tobacco industry: hope or hype?', 'The unprecedented expansion of power and influence of TNCs'),
      text,
    );
    assert.match(text, /Over the past three decades increasing pressure from non-governmental organisations/);
    assert.match(text, /The term “corporate social responsibility” is in vogue/);
    assert.doesNotMatch(text, /Downloaded from http:\/\/tobaccocontrol\.bmj\.com/);
  });

  it('detects headers and footers on single pages', async () => {
    const plos = await fileMarkdown(`${OLMOCR}headers_footers/ff0f0b22c55d8b90dd77d153f48e144fc9db_pg2.pdf`);
    const footers = blocks(plos)
      .filter(([label]) => label === 'page_footer')
      .map(([, text]) => text)
      .join(' ');
    assert.match(footers, /PLOS Neglected Tropical Diseases \| www\.plosntds\.org/);
    assert.doesNotMatch(body(plos), /Volume 8 \| Issue 3/);
    const book = body(await fileMarkdown(`${OLMOCR}small_page_size.pdf`));
    assert.doesNotMatch(book, /BRITISH HUSBANDRY/);
  });

  it('keeps a wide table with group rows whole', async () => {
    const tables = blocks(await fileMarkdown(`${OLMOCR}discoverworld_crazy_table4.pdf`))
      .filter(([label]) => label === 'table')
      .map(([, html]) => html);
    const big = tables.find((html) => html.includes('Quadratic regression'));
    assert.ok(big, tables.join('\n'));
    assert.match(big, /<td>12<\/td><td>Challenge<\/td><td>Quadratic regression<\/td><td>0\.43<\/td><td>0\.00<\/td><td>0\.20<\/td>/);
    assert.match(big, /<td>Chemistry<\/td><td>Exploring Combinations and Hill Climbing<\/td>/);
  });

  it('writes monospaced lines as a fenced code block with their indentation', async () => {
    const code = blocks(await fileMarkdown(`${DOCLING}code_and_formula.pdf`)).find(([, text]) => text.startsWith('```'));
    // The listing sets each character on a grid; PDFium still reads a space where the pen jumps
    // between text objects of the last line (the ground truth has `console.log(add(3, 5));`).
    assert.deepEqual(code, ['text', '```\nfunction add(a, b) {\n    return a + b;\n}\nconsole .log (add (3 , 5) ) ;\n```']);
  });

  it('composes TeX accents', async () => {
    assert.match(body(await fileMarkdown(`${OLMOCR}math_2503_04086.pdf`)), /We also thank Ján Mináč for his constant encouragement/);
  });

  it('reads an encrypted PDF opened with its password', async () => {
    const text = body(await fileMarkdown(`${DOCLING}password_protected_2206.01062_pg3.pdf`, '1234'));
    assert.match(text, /## 4 ANNOTATION CAMPAIGN|4 ANNOTATION CAMPAIGN/);
  });

  it('judges an invisible text layer unusable', async () => {
    const [page] = await pagesOf(await readFile(`${DOCLING}invisible_text_layer.pdf`));
    assert.equal(page?.assessment.usable, false);
    assert.equal(page?.assessment.reason, 'invisible-text');
    assert.ok(Number(page?.assessment.details.invisibleGlyphs) > 0);
    // Without the operator-list check the same page passes: the check is what catches it.
    const [unchecked] = await pagesOf(await readFile(`${DOCLING}invisible_text_layer.pdf`), { invisibleText: 'never' });
    assert.equal(unchecked?.assessment.usable, true);
  });

  it('catches an invisible layer set in several fonts, which the pdfjs check let through', async () => {
    const texts = paragraph(['This hidden line is set in the regular font of the', 'page and nobody can see it, but it is searchable.'], 72, 100).map((t) => ({
      ...t,
      mode: 3,
    }));
    texts.push({ text: 'And a hidden bold line follows it here', x: 72, y: 140, size: 10, bold: true, mode: 3 });
    const [page] = await pagesOf(makePdf([{ texts }]));
    assert.equal(page?.assessment.reason, 'invisible-text');
    assert.equal(page?.assessment.details.invisibleGlyphs, page?.assessment.details.glyphs);
  });

  it('leaves never-painted glyphs on a readable page out of its Markdown, and keeps clip-only ones', async () => {
    const texts = paragraph(
      [
        'The visible paragraph of this page is long enough to be read',
        'from the text layer, and a producer parked a font sample in',
        'render mode three underneath it, which nobody can see.',
      ],
      72,
      100,
    );
    texts.push({ text: 'zyxwvutsrqponmlk', x: 72, y: 160, size: 10, mode: 3 });
    texts.push({ text: 'Clipped headline', x: 72, y: 200, size: 10, mode: 7 });
    const bytes = makePdf([{ texts }]);
    const [page] = await pagesOf(bytes);
    assert.equal(page?.assessment.usable, true, JSON.stringify(page?.assessment));
    assert.ok(Number(page?.assessment.details.invisibleGlyphs) >= 'zyxwvutsrqponmlk'.length);
    assert.doesNotMatch(page?.markdown ?? '', /zyxw/);
    assert.match(page?.markdown ?? '', /Clipped headline/);
    assert.match(page?.markdown ?? '', /render mode three underneath/);
    // A caller who takes invisible text as the page's text gets it.
    const [kept] = await pagesOf(bytes, { invisibleText: 'never' });
    assert.match(kept?.markdown ?? '', /zyxwvutsrqponmlk/);
  });

  it('measures image coverage from the page objects', async () => {
    const [scan] = await pagesOf(await readFile(`${OLMOCR}lincoln_letter.pdf`));
    assert.ok(Number(scan?.assessment.details.imageCoverage) > 0.9, JSON.stringify(scan?.assessment.details));
    assert.equal(scan?.assessment.details.images, 1);
    const [paper] = await pagesOf(await readFile(`${DOCLING}2305.03393v1-pg9.pdf`));
    assert.equal(paper?.assessment.details.imageCoverage, 0);
  });

  it('reads rotated pages upright, with the same Markdown and boxes at every /Rotate', async () => {
    const texts = [
      { text: 'Rotated Report Title', x: 72, y: 80, size: 18, bold: true },
      ...paragraph(['First line of the left column text here', 'second line of the left column text'], 72, 120),
      ...paragraph(['Right column first line goes here too', 'and the right column second line'], 340, 120),
    ];
    const pages = await pagesOf(makePdf(([0, 90, 180, 270] as const).map((rotate) => ({ texts, rotate, width: 612, height: 500 }))));
    assert.deepEqual(
      pages.map((p) => [p.width, p.height]),
      [
        [612, 500],
        [612, 500],
        [612, 500],
        [612, 500],
      ],
    );
    const upright = pages[0]?.markdown ?? '';
    assert.match(upright, /^<\|ref\|>title<\|\/ref\|><\|det\|>\[\[118, 1\d\d, 398, 1\d\d\]\]<\|\/det\|>\n# Rotated Report Title\n/);
    assert.ok(isBefore(body(upright), 'second line of the left column', 'Right column first line'), upright);
    for (const page of pages.slice(1)) assert.equal(page.markdown, upright, `page ${page.pageNumber}`);
  });

  it('reads a page whose text runs sideways turned upright, with boxes on the displayed page', async () => {
    const texts = [
      { text: 'Sideways Table Title', x: 72, y: 80, size: 18, bold: true },
      ...paragraph(['First line of the left column text here', 'second line of the left column text'], 72, 120),
      ...paragraph(['Right column first line goes here too', 'and the right column second line'], 340, 120),
    ];
    const [upright] = await pagesOf(makePdf([{ texts, width: 612, height: 500 }]));
    // The same page with its /Rotate taken away: shown as stored, its text runs bottom to top.
    const turned = Buffer.from(makePdf([{ texts, width: 612, height: 500, rotate: 90 }]))
      .toString('latin1')
      .replace(' /Rotate 90', '           ');
    const [sideways] = await pagesOf(new Uint8Array(Buffer.from(turned, 'latin1')));
    assert.deepEqual([sideways?.width, sideways?.height, sideways?.assessment.details.sideways], [500, 612, 270]);
    const strip = (markdown: string): string => markdown.replace(/<\|det\|>.*<\|\/det\|>/g, '');
    assert.equal(strip(sideways?.markdown ?? ''), strip(upright?.markdown ?? ''));
    const box = (markdown: string): number[] => (TAG.exec(markdown.split('\n')[0] ?? '') ?? []).slice(2).map(Number);
    const [x0, y0, x1, y1] = box(upright?.markdown ?? '') as [number, number, number, number];
    // Turned back: the title runs up the left edge of the displayed page.
    const expected = [y0, 999 - x1, y1, 999 - x0];
    box(sideways?.markdown ?? '').forEach((v, i) => assert.ok(Math.abs(v - (expected[i] as number)) <= 1, `${box(sideways?.markdown ?? '')} vs ${expected}`));
  });

  it('a page PDFium cannot load comes out as a page error, the others as usual', async () => {
    const bytes = makePdf([1, 2, 3].map((n) => ({ texts: paragraph([`Page ${n} has a line of text on it for the test`], 72, 100) })));
    const broken = new Uint8Array(
      Buffer.from(Buffer.from(bytes).toString('latin1').replace('/Kids [5 0 R 7 0 R 9 0 R]', '/Kids [5 0 R 99 0 R 9 0 R]'), 'latin1'),
    );
    const pages = await pagesOf(broken);
    assert.deepEqual(
      pages.map((p) => p.assessment.reason),
      ['text-layer-good', 'page-error', 'text-layer-good'],
    );
    assert.equal(pages[1]?.assessment.details.code, 'FOLIO_PDF_CORRUPT');
    assert.match(String(pages[1]?.assessment.details.error), /^test\.pdf: page 2 cannot be read/);
  });

  it('reads right-to-left text in logical order', async () => {
    const markdown = await fileMarkdown(`${OLMOCR}headers_footers/ff3d6e051903fe5ca9bc172ece14964c5632_pg1.pdf`);
    assert.match(markdown, /دانشگاه شیراز/u);
  });

  it('sizes Type 3 text whose font matrix PDFium leaves out from its glyphs', async () => {
    const [page] = await pagesOf(await readFile('../shared/data/gnarly/large_prompt_hint3.pdf'), { pages: [1] });
    assert.match(page?.markdown ?? '', /\n# A Multilingual Platform for Building Spee/);
  });

  it('joins the letters of ligatures PDFium splits', async () => {
    assert.match(await fileMarkdown(`${OLMOCR}discoverworld_crazy_table4.pdf`), /<td>Simplified Clustering<\/td>/);
  });

  it('judges a synthetic invisible layer and a scan', async () => {
    const texts = paragraph(['This line is drawn with text render mode three so', 'nobody can see it on the page but it is searchable.'], 72, 100).map((t) => ({
      ...t,
      mode: 3,
    }));
    const [hidden] = await pagesOf(makePdf([{ texts }]));
    assert.equal(hidden?.assessment.reason, 'invisible-text');
    const [scan] = await pagesOf(await readFile(`${OLMOCR}lincoln_letter.pdf`));
    assert.deepEqual([scan?.assessment.usable, scan?.assessment.reason, scan?.markdown], [false, 'no-text-layer', '']);
  });
});
