import assert from 'node:assert/strict';
import { sniffMime } from '../../../connector/index.ts';
import { sha256 } from '../../../core/hash.ts';
import type { SourceDocument } from '../../../core/types.ts';
import { CSV_MIME, HTML_MIME, parseRows, sniffDelimiter, TSV_MIME, XML_MIME } from '../../../pipeline/formats/index.ts';
import { processDocument } from '../../../pipeline/run/index.ts';

function source(text: string, name: string, mime: string): SourceDocument {
  const bytes = new TextEncoder().encode(text);
  return { id: sha256(name).slice(0, 16), uri: `file:///test/${name}`, relativePath: name, mime, bytes, contentHash: sha256(bytes) };
}

const PAGE = `<!DOCTYPE html><html><head><title>Guide</title><style>p { color: red }</style><script>var x = "<h1>not this</h1>";</script></head>
<body>
<header><nav><a href="/">Home</a> | <a href="/about">About</a></nav></header>
<main>
  <h1>Install guide</h1>
  <p>Run the <b>installer</b> and read the <a href="https://example.org/docs">docs</a>.</p>
  <h2>Steps</h2>
  <ol start="3"><li>Download<ul><li>Pick a mirror</li></ul></li><li>Verify</li></ol>
  <table>
    <thead><tr><th rowspan="2">Tool</th><th colspan="2">Versions</th></tr><tr><th>old</th><th>new</th></tr></thead>
    <tbody><tr><td>cli</td><td>1.0</td><td>2.0</td></tr></tbody>
  </table>
  <pre><code>npm install folio
npx folio --help</code></pre>
  <img src="diagram.png" alt="Architecture diagram">
  <div hidden>Hidden text</div>
</main>
<footer><nav>Site map</nav> Copyright</footer>
</body></html>`;

describe('readFormat (HTML)', () => {
  it('should keep the main content with headings, emphasis, links, nested lists, spanning tables and code', async () => {
    const result = await processDocument(source(PAGE, 'guide.html', HTML_MIME), { engine: 'text' });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    const kinds = result.elements.map((e) => [e.kind, e.level ?? null]);
    assert.deepEqual(kinds, [
      ['heading', 1],
      ['paragraph', null],
      ['heading', 2],
      ['list', null],
      ['table', null],
      ['code', null],
      ['figure', null],
    ]);
    assert.match(result.markdown, /Run the \*\*installer\*\* and read the \[docs\]\(<https:\/\/example\.org\/docs>\)\./);
    assert.match(result.markdown, /^3\. Download\n {4}- Pick a mirror\n4\. Verify$/m);
    const table = result.elements.find((e) => e.kind === 'table')!.table!;
    assert.equal(table.headerRows, 2);
    assert.match(table.html, /<th rowspan="2">Tool<\/th><th colspan="2">Versions<\/th>/);
    assert.equal(result.elements.find((e) => e.kind === 'code')?.text, 'npm install folio\nnpx folio --help');
    assert.equal(result.elements.find((e) => e.kind === 'figure')?.text, 'Architecture diagram');
    for (const absent of ['Home', 'About', 'Site map', 'not this', 'Hidden text', 'color: red'])
      assert.ok(!result.markdown.includes(absent), `${absent} is boilerplate`);
  });
});

describe('readFormat (HTML math)', () => {
  it('should read MathML as LaTeX: the TeX annotation when there is one, else the presentation elements', async () => {
    const page =
      '<p>Area <math><mi>A</mi><mo>=</mo><mi>π</mi><msup><mi>r</mi><mn>2</mn></msup></math> here.</p>' +
      '<math display="block"><semantics><mfrac><mn>1</mn><mn>2</mn></mfrac><annotation encoding="application/x-tex">\\frac{1}{2}</annotation></semantics></math>';
    const result = await processDocument(source(page, 'math.html', HTML_MIME), { engine: 'text' });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.deepEqual(
      result.elements[0]?.formulas?.map((f) => [f.latex, f.valid]),
      [['A=\\pi {r}^{2}', true]],
    );
    assert.equal(result.elements[1]?.kind, 'formula');
    assert.equal(result.elements[1]?.formulas?.[0]?.latex, '\\frac{1}{2}');
  });
});

describe('readFormat (CSV and TSV)', () => {
  it('should sniff the delimiter and keep quoted delimiters, quotes and line breaks inside fields', () => {
    assert.equal(sniffDelimiter('a;b;c\n1;2,5;3\n'), ';');
    assert.equal(sniffDelimiter('a\tb\n1\t2\n'), '\t');
    assert.equal(sniffDelimiter('name,note\nx,"a, b"\n'), ',');
    assert.deepEqual(parseRows('a,"b ""q"", c",d\n1,"two\nlines",3', ','), [
      ['a', 'b "q", c', 'd'],
      ['1', 'two\nlines', '3'],
    ]);
  });

  it('should read a ragged CSV as one table padded to its widest row, the first row as header', async () => {
    const result = await processDocument(source('id;name\n1;Ada;extra\n2;Grace\n', 'people.csv', CSV_MIME), { engine: 'text' });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    const table = result.elements.find((e) => e.kind === 'table')!.table!;
    assert.deepEqual(table.cells, [
      ['id', 'name', ''],
      ['1', 'Ada', 'extra'],
      ['2', 'Grace', ''],
    ]);
    assert.equal(table.headerRows, 1);
    const literal = await processDocument(source('item,price\nduck,"$5 and $10"\ngoose,\\[x\\]\n', 'prices.csv', CSV_MIME), { engine: 'text' });
    assert.deepEqual(literal.elements[0]?.table?.cells.slice(1), [
      ['duck', '$5 and $10'],
      ['goose', '\\[x\\]'],
    ]);
    const tsv = await processDocument(source('a\tb\n1\t2\n', 'x.tsv', TSV_MIME), { engine: 'text' });
    assert.deepEqual(tsv.elements[0]?.table?.cells, [
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it("should keep a sheet of repeated rows: repetition in a file is its author's, not a decoding loop", async () => {
    const result = await processDocument(source(`a,b,c\n${'0,0,0\n'.repeat(3000)}`, 'zeros.csv', CSV_MIME), { engine: 'text' });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.deepEqual(result.failures, []);
    assert.equal(result.elements[0]?.table?.cells.length, 3001);
  });
});

describe('readFormat (other XML)', () => {
  it('should read a JATS-like article by its titles, sections, lists and tables, and refuse entities', async () => {
    const xml =
      '<?xml version="1.0"?><article><front><article-title>Ducks of Europe</article-title></front><body><sec><title>Introduction</title><p>Ducks are <italic>common</italic>.</p>' +
      '<sec><title>Species</title><list><list-item><p>Mallard</p></list-item><list-item><p>Teal</p></list-item></list>' +
      '<table><thead><tr><th>Bird</th><th>Count</th></tr></thead><tbody><tr><td>Mallard</td><td>3</td></tr></tbody></table></sec></sec></body></article>';
    const bytes = new TextEncoder().encode(xml);
    assert.equal(sniffMime(bytes, 'paper.xml'), XML_MIME);
    const result = await processDocument(source(xml, 'paper.xml', XML_MIME), { engine: 'text' });
    assert.equal(result.ok, true, JSON.stringify(result.failures));
    assert.deepEqual(
      result.elements.map((e) => [e.kind, e.level ?? null, e.kind === 'table' ? e.table?.cells : e.text]),
      [
        ['heading', 1, 'Ducks of Europe'],
        ['heading', 2, 'Introduction'],
        ['paragraph', null, 'Ducks are common.'],
        ['heading', 3, 'Species'],
        ['list', null, 'Mallard\nTeal'],
        [
          'table',
          null,
          [
            ['Bird', 'Count'],
            ['Mallard', '3'],
          ],
        ],
      ],
    );
    const evil = await processDocument(source('<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>', 'evil.xml', XML_MIME), {
      engine: 'text',
    });
    assert.equal(evil.failures[0]?.code, 'FOLIO_XML_UNSAFE');
  });
});
