import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { ConfigurationError } from '../../../core/errors.ts';
import type { Element } from '../../../core/types.ts';
import { parsePage, renderMarkdown, stripGrounding, tableText } from '../../../pipeline/markdown/index.ts';
import { normalisedEditDistance } from './edit-distance.ts';
import { expected, fixtureNames, runFixture } from './fixture-run.ts';

const deepseek = '../shared/data/docling-dev/deepseek-md';
// Docling's ground truth drops the text before the first grounding tag (a paragraph carried over
// from the previous page); Folio keeps it, which is most of the distance left on two files.
const maxDistance: Readonly<Record<string, number>> = { deepseek_example: 0.09, deepseek_simple: 0.13, deepseek_title: 0.04 };

function page(markdown: string, pageNumber = 1): { markdown: string; pageNumber: number; width: number; height: number } {
  return { markdown, pageNumber, width: 612, height: 792 };
}

function byKind(elements: readonly Element[], kind: Element['kind']): Element[] {
  return elements.filter((element) => element.kind === kind);
}

describe('parsePage', () => {
  describe('DeepSeek-OCR Markdown against docling ground truth', () => {
    for (const file of readdirSync(`${deepseek}/sources`)
      .filter((name) => name.endsWith('.md'))
      .sort()) {
      const name = file.replace(/\.md$/u, '');
      it(`should re-render ${file} close to the ground truth and attach every box`, () => {
        const source = readFileSync(`${deepseek}/sources/${file}`, 'utf8');
        const truth = readFileSync(`${deepseek}/groundtruth/${file}.md`, 'utf8');
        const elements = parsePage(page(source));
        const distance = normalisedEditDistance(renderMarkdown(elements, { tables: 'markdown' }), truth);
        assert.ok(distance <= (maxDistance[name] ?? 0.1), `${file}: normalised edit distance ${distance.toFixed(3)}`);
        // Without the untagged carried-over paragraph docling drops, what is left is formatting.
        const tagged = elements.filter((element) => element.label !== undefined);
        const taggedDistance = normalisedEditDistance(renderMarkdown(tagged, { tables: 'markdown' }), truth);
        assert.ok(taggedDistance <= 0.03, `${file}: tagged-only distance ${taggedDistance.toFixed(3)}`);
        const tags = stripGrounding(source).tags;
        const boxes = elements.flatMap((element) => element.bboxes?.map((entry) => entry.bbox) ?? (element.bbox ? [element.bbox] : []));
        assert.equal(boxes.length, tags.length, 'one box per grounding tag');
        for (const box of boxes) {
          assert.ok(box[0] <= box[2] && box[1] <= box[3] && box[2] <= 612 && box[3] <= 792, `box in page units: ${box.join(',')}`);
        }
        const rendered = renderMarkdown(elements);
        assert.ok(!rendered.includes('<|') && !rendered.includes('|>'), 'no grounding tags left');
      });
    }

    it('should map labels to kinds and scale boxes from the 0–999 grid', () => {
      const elements = parsePage(page(readFileSync(`${deepseek}/sources/deepseek_title.md`, 'utf8')));
      const title = elements[0]!;
      assert.equal(title.kind, 'heading');
      assert.equal(title.label, 'title');
      assert.deepEqual(title.bbox, [104.76, 80.07, 505.41, 118.92]);
      assert.equal(byKind(elements, 'figure')[0]?.label, 'image');
      assert.equal(byKind(elements, 'caption')[0]?.text, 'Figure 1: Four examples of complex page layouts across different document categories');
      assert.deepEqual(elements.find((element) => element.text.startsWith('Accurate'))?.headingPath, [
        'DocLayNet: A Large Human-Annotated Dataset for Document-Layout Analysis',
        'ABSTRACT',
      ]);
    });

    it('should give a table the table tag written before its caption', () => {
      const elements = parsePage(page(readFileSync(`${deepseek}/sources/deepseek_example.md`, 'utf8')));
      const table = byKind(elements, 'table')[0]!;
      assert.equal(table.label, 'table');
      assert.equal(byKind(elements, 'caption')[0]?.label, 'table_caption');
      assert.equal(table.table?.headerRows, 2);
      assert.equal(table.table?.cells[0]?.length, 8);
      assert.equal(
        table.table?.rowsText[0],
        '# enc-layers: 6; # dec-layers: 6; Language: OTSL; TEDs simple: 0.965; TEDs complex: 0.934; TEDs all: 0.955; mAP (0.75): 0.88; Inference time (secs): 2.73',
      );
    });
  });

  describe('fixtures', () => {
    for (const name of fixtureNames()) {
      it(`should parse ${name} into the expected elements and Markdown`, () => {
        const result = runFixture(name);
        const want = expected(name, result);
        assert.deepEqual(JSON.parse(JSON.stringify(result.elements)), want.elements);
        assert.equal(result.markdown, want.markdown);
      });
    }

    it('should keep nested list items nested', () => {
      const list = byKind(runFixture('nested-lists').elements, 'list')[0]!;
      assert.deepEqual(
        list.items?.map((item) => item.text),
        ['Hardware', 'Software', 'Network access to the index'],
      );
      assert.equal(list.items?.[0]?.items?.[1]?.items?.[0]?.text, '32 GB for large models');
      assert.equal(list.items?.[1]?.items?.length, 2);
    });

    it('should expand rowspan and colspan and find the two header rows', () => {
      const table = byKind(runFixture('table-spans').elements, 'table')[0]!.table!;
      assert.deepEqual(table.cells, [
        ['Region', '2024', '2024', 'Total'],
        ['Region', 'Q1', 'Q2', 'Total'],
        ['North', '10', '12', '22'],
        ['South', '7', '9', '16'],
        ['South', 'n/a', 'n/a', '0'],
      ]);
      assert.equal(table.headerRows, 2);
      assert.equal(table.markdown, undefined, 'spans are not representable as a pipe table');
      assert.match(table.html, /<th rowspan="2">Region<\/th><th colspan="2">2024<\/th>/u);
      assert.equal(table.rowsText[0], 'Region: North; 2024 Q1: 10; 2024 Q2: 12; Total: 22');
    });

    it('should read inline and display math in every delimiter, but not an escaped citation', () => {
      const elements = runFixture('math').elements;
      const formulas = elements.flatMap((element) => element.formulas ?? []);
      assert.deepEqual(
        formulas.map((formula) => [formula.latex, formula.display, formula.valid]),
        [
          ['E = mc^2', false, true],
          ['a^2 + b^2 = c^2', false, true],
          ['\\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{2}', true, true],
          ['\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}', true, true],
          ['x \\le y', true, true],
        ],
      );
      assert.equal(byKind(elements, 'formula').length, 2);
      assert.match(runFixture('math').markdown, /citation \\\[12\\\] that/u);
    });

    it('should mark broken formulas invalid with the KaTeX error and keep the text after an unclosed one', () => {
      const elements = runFixture('formula-broken').elements;
      const formulas = elements.flatMap((element) => element.formulas ?? []);
      assert.deepEqual(
        formulas.map((formula) => formula.valid),
        [false, true, false, false],
      );
      assert.match(formulas[0]!.error!, /KaTeX parse error/u);
      assert.match(formulas[3]!.error!, /unclosed display math/u);
      assert.equal(elements[elements.length - 1]!.text, 'Text after a display formula that was never closed.');
    });

    it('should collapse a repetition loop to one copy', () => {
      const paragraph = byKind(runFixture('repetition-loop').elements, 'paragraph')[0]!;
      assert.equal(paragraph.text, 'Revenue grew in every region. The board approved the budget for the next year.');
    });

    it('should keep the text of unclosed HTML', () => {
      const result = runFixture('unclosed-html');
      assert.deepEqual(byKind(result.elements, 'table')[0]!.table!.cells, [
        ['Key', 'Value'],
        ['alpha', '1'],
        ['beta', '2'],
        ['gamma', ''],
      ]);
      assert.ok(result.elements.some((element) => element.text === 'An unclosed div with bold'));
    });

    it('should read Chinese text, its formula and its table', () => {
      const elements = runFixture('chinese').elements;
      assert.equal(elements[0]!.text, '文档解析报告');
      assert.equal(elements[0]!.kind, 'heading');
      assert.equal(byKind(elements, 'table')[0]!.table!.rowsText[1], '模块: 分块; 功能: 按标题和长度切分');
    });

    it('should survive malformed grounding tags without losing text', () => {
      const elements = runFixture('grounding-malformed').elements;
      const text = elements.map((element) => element.text).join('\n');
      for (const phrase of [
        'A paragraph whose box has a bad number.',
        'A paragraph after an unclosed ref and det.',
        'Some text that is not a label',
        'Short box, text on the same line.',
        'inside a sentence and an end token',
      ]) {
        assert.ok(text.includes(phrase), phrase);
      }
      assert.equal(elements[2]!.bbox?.[1], 158.56);
      assert.ok(!text.includes('<|') && !text.includes('｜'));
    });
  });

  it('should make a labelled plain line a heading and furniture of page headers', () => {
    const elements = parsePage(
      page(
        '<|ref|>page_header<|/ref|><|det|>[[0,0,999,30]]<|/det|>\nACME annual report\n\n<|ref|>title<|/ref|><|det|>[[0,40,999,80]]<|/det|>\nResults\n\n<|ref|>text<|/ref|><|det|>[[0,90,999,200]]<|/det|>\nBody.',
      ),
    );
    assert.deepEqual(
      elements.map((element) => element.kind),
      ['pageHeader', 'heading', 'paragraph'],
    );
    assert.equal(elements[1]!.level, 1);
    assert.deepEqual(elements[2]!.headingPath, ['Results']);
    assert.equal(renderMarkdown(elements), '# Results\n\nBody.');
    assert.equal(renderMarkdown(elements, { furniture: true }), 'ACME annual report\n\n# Results\n\nBody.');
  });

  it('should continue the heading path of earlier pages and keep source positions', () => {
    const markdown = 'Some text.\n\n## Part';
    const elements = parsePage(page(markdown, 2), { headingPath: ['Book'] });
    assert.deepEqual(
      elements.map((element) => element.headingPath),
      [['Book'], ['Book']],
    );
    assert.deepEqual(
      elements.map((element) => element.position && markdown.slice(...element.position)),
      ['Some text.', '## Part'],
    );
  });

  it('should keep labels but leave boxes out when the page size is unknown', () => {
    const elements = parsePage({ markdown: '<|ref|>text<|/ref|><|det|>[[1, 2, 3, 4]]<|/det|>\nHello', pageNumber: 1, width: 0, height: Number.NaN });
    assert.equal(elements[0]!.label, 'text');
    assert.equal(elements[0]!.bbox, undefined);
  });

  it('should read a text-layer page (citations, escapes, one-line list items, code) as remark does', () => {
    const tag = (label: string, y: number): string => `<|ref|>${label}<|/ref|><|det|>[[100, ${y}, 900, ${y + 20}]]<|/det|>`;
    const markdown = [
      `${tag('text', 10)}\nAs shown in [12] and [3, 4], costs fell from \\$5 to \\$3 when a < b &lt;c&gt; holds.`,
      `${tag('list', 40)}\n- first point of the list`,
      `${tag('list', 60)}\n- second point [7] of the list`,
      `${tag('list', 80)}\n3. numbered item`,
      `${tag('list', 100)}\n4. next numbered item`,
      `${tag('text', 120)}\n\`\`\`\nfunction add(a, b) {\n    return a + b;\n}\n\`\`\``,
    ].join('\n\n');
    const fast = parsePage(page(markdown));
    assert.deepEqual(fast, parsePage(page(markdown), { fastPath: false }));
    assert.deepEqual(
      fast.map((e) => e.kind),
      ['paragraph', 'list', 'list', 'code'],
    );
    assert.equal(fast[0]!.text, 'As shown in [12] and [3, 4], costs fell from $5 to $3 when a < b <c> holds.');
    assert.deepEqual(fast[1]!.items, [{ text: 'first point of the list' }, { text: 'second point [7] of the list' }]);
    assert.equal(fast[1]!.bboxes?.length, 2, 'each item keeps its box');
    assert.deepEqual(fast[2]!.items, [{ text: '3. numbered item' }, { text: '4. next numbered item' }]);
    assert.equal(fast[3]!.text, 'function add(a, b) {\n    return a + b;\n}');
  });

  it('should return nothing for an empty page and reject a bad option', () => {
    assert.deepEqual(parsePage(page('  \n\n ')), []);
    assert.throws(
      () => parsePage(page('x'), { gridSize: 0 }),
      (error: unknown) => error instanceof ConfigurationError && /gridSize/u.test(error.message),
    );
  });
});

describe('tableText', () => {
  it('should put the column headers on the first line and a line per body row', () => {
    const table = byKind(parsePage(page('| Name | Age |\n|---|---|\n| Ada | 36 |\n| Alan |  |')), 'table')[0]!.table!;
    assert.equal(tableText(table), 'Name | Age\nName: Ada; Age: 36\nName: Alan');
  });
});
