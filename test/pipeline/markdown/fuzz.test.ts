import assert from 'node:assert/strict';
import fc from 'fast-check';
import { defaultCorpus, loadCorpus } from '../../../bench/parse/index.ts';
import type { Element } from '../../../core/types.ts';
import { parsePage, renderMarkdown } from '../../../pipeline/markdown/index.ts';

// Words that no markup piece contains, so each one can be looked for in the output.
const words = ['apple', 'river', 'stone', 'cloud', 'maple', 'tiger', 'lemon', '42', '7', '中文', 'ε'];
const markup = [
  ' ',
  ' ',
  ' ',
  '\n',
  '\n\n',
  '\n\n',
  '# ',
  '## ',
  '- ',
  '  - ',
  '1. ',
  '> ',
  '*',
  '**',
  '_',
  '`',
  '```',
  '~~',
  '|',
  '| --- |',
  '---',
  '$',
  '$$',
  '\\(',
  '\\)',
  '\\[',
  '\\]',
  '[',
  ']',
  '!',
  '&',
  '\\',
  '{',
  '}',
  '<b>',
  '</b>',
  '<table>',
  '</table>',
  '<tr>',
  '</tr>',
  '<td>',
  '</td>',
  '<th rowspan="2">',
  '<td colspan="3">',
  '<center>',
  '</center>',
  '<div>',
  '<br>',
  '<pre>',
  '<!--',
  '-->',
  '<|ref|>text<|/ref|>',
  '<|ref|>table<|/ref|>',
  '<|ref|>image<|/ref|>',
  '<|det|>[[1, 2, 300, 400]]<|/det|>',
  '<|det|>[[1, 2',
  '<|/det|>',
  '<|ref|>',
  '\\frac{',
  '\\alpha',
  '\\begin{equation}',
  '\\end{equation}',
  '\f',
  '\t',
  '    ',
  '===',
  '+ ',
  '2) ',
  '* * *',
  '[^1]: ',
  '<img src="x.png">',
];
// What text-layer pages are full of, which the fast path reads without remark (citations, `<`,
// entities, one-line list items, fences). Some hide words by Markdown's own rules (a definition's
// destination, `<apple` read as a tag), so only the fast-path property uses them.
const textLayerMarkup = [
  '[12]',
  '][',
  '](x)',
  '[1]: x',
  '\\$',
  '\\+',
  '\\',
  '&lt;',
  '&quot;',
  '\\&lt;',
  '<',
  '< ',
  '&amp;',
  '&#35;',
  '#',
  ' #',
  '>',
  '\n- ',
  '\n1. ',
  '\n\n  ',
  '3) ',
  '* ',
];

function documentOf(pieces: readonly string[]): fc.Arbitrary<string> {
  const piece = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...words) }, { weight: 4, arbitrary: fc.constantFrom(...pieces) });
  return fc.tuple(fc.array(piece, { maxLength: 80 }), fc.nat()).map(([chosen, cut]) => {
    const text = chosen.join('');
    // Half the documents are cut short, as a decoder stopped by its token budget leaves them.
    return cut % 2 === 0 ? text : text.slice(0, cut % (text.length + 1));
  });
}

const document = documentOf(markup);
const richDocument = documentOf([...markup, ...textLayerMarkup]);

function parse(markdown: string, fastPath = true): Element[] {
  return parsePage({ markdown, pageNumber: 1, width: 612, height: 792 }, { fastPath });
}

// Tag names and their truncations are markup, not page text.
const markupWords = [
  'img',
  'src',
  'x',
  'png',
  'ref',
  'det',
  'text',
  'table',
  'image',
  'b',
  'tr',
  'td',
  'th',
  'rowspan',
  'colspan',
  'center',
  'div',
  'br',
  'pre',
  'frac',
  'alpha',
  'begin',
  'end',
  'equation',
  '1',
  '2',
  '3',
  '300',
  '400',
];

// Comments (`<!-- … -->`) and `<pre>` raw blocks hide words by HTML's own rules; leave those out.
const hiding = /<!--|<pre>/u;

describe('parsePage (property)', () => {
  it('should never throw and never lose a word on random and truncated Markdown and HTML', () => {
    fc.assert(
      fc.property(document, (markdown) => {
        const page = markdown.split('\f')[0]!;
        const elements = parse(page);
        // Numbers right after a box opening are the box, even cut short or malformed.
        const visible = page.replace(/<\|det\|>[\s\d.,\-+eE[\]]*(?:<\|\/det\|>)?/gu, ' ');
        if (hiding.test(page)) return;
        const output = elements.map((element) => `${element.text} ${element.markdown ?? ''}`).join(' ') + renderMarkdown(elements);
        const letters = output.replace(/[^\p{L}\p{N}]/gu, '');
        // Digits glued to a word may be the end of a cut box (`[[1, 2apple`): look for the letters.
        for (const word of (visible.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.replace(/^\d+(?=\p{L})/u, ''))) {
          if (markupWords.some((name) => name.startsWith(word))) continue;
          assert.ok(letters.includes(word), `lost ${JSON.stringify(word)} from ${JSON.stringify(page)}`);
        }
      }),
      { numRuns: Number(process.env['FOLIO_FUZZ_RUNS'] ?? 400) },
    );
  });

  it('should read random HTML tables the same with and without the fast table reader', () => {
    const cellText = fc.constantFrom(
      'apple',
      ' river ',
      '42',
      '&amp;',
      '&lt;b&gt;',
      '&copy;',
      '&',
      '<b>stone</b>',
      '<br>',
      '<br/>',
      '<i>',
      '</i>',
      '<p>x</p>',
      '',
    );
    const open = fc.constantFrom(
      '<td>',
      '<th>',
      '<td rowspan="2">',
      '<td colspan="3">',
      '<th colspan="2" class="h">',
      '<td rowspan="x">',
      '<td rowspan=2>',
      '<td colspan="0">',
    );
    const cell = fc
      .tuple(open, fc.array(cellText, { maxLength: 3 }), fc.constantFrom('</td>', '</th>', ''))
      .map(([o, t, c]) => `${o}${t.join('')}${o.startsWith('<th') && c === '</td>' ? '</th>' : c}`);
    const row = fc
      .tuple(fc.constantFrom('<tr>', '<tr class="r">', ''), fc.array(cell, { maxLength: 4 }), fc.constantFrom('</tr>', '</tr>', ''))
      .map(([o, cs, c]) => `${o}${cs.join('')}${c}`);
    const table = fc
      .tuple(fc.constantFrom('<table>', '<table border="1">'), fc.boolean(), fc.array(row, { maxLength: 5 }), fc.constantFrom('</table>', '</table>', ''))
      .map(
        ([o, thead, rows, c]) => `${o}${thead && rows.length > 0 ? `<thead>${rows[0]}</thead><tbody>${rows.slice(1).join('')}</tbody>` : rows.join('')}${c}`,
      );
    fc.assert(
      fc.property(table, (html) => {
        const strip = (elements: Element[]) =>
          elements.map(({ kind, text, table: data }) => ({
            kind,
            text,
            cells: data?.cells,
            headerRows: data?.headerRows,
            html: data?.html,
            issues: data?.issues,
          }));
        assert.deepEqual(strip(parse(html, true)), strip(parse(html, false)), html);
      }),
      { numRuns: Number(process.env['FOLIO_FUZZ_RUNS'] ?? 400) },
    );
  });

  it('should read every corpus page the same with and without the fast path', () => {
    const pages = loadCorpus(defaultCorpus).flatMap((document) => document.pages);
    assert.ok(pages.length > 10);
    for (const markdown of pages) assert.deepEqual(parse(markdown, true), parse(markdown, false), markdown.slice(0, 80));
  });

  it('should read every page the same with and without the fast path', () => {
    fc.assert(
      fc.property(richDocument, (markdown) => {
        const strip = (elements: Element[]) =>
          elements.map(({ kind, text, markdown: md, formulas, level, table }) => ({ kind, text, md, formulas, level, cells: table?.cells }));
        assert.deepEqual(strip(parse(markdown, true)), strip(parse(markdown, false)), JSON.stringify(markdown));
      }),
      { numRuns: Number(process.env['FOLIO_FUZZ_RUNS'] ?? 400) },
    );
  });
});
