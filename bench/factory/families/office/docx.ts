/**
 * An {@link OfficeDocument} as a DOCX package: the body in `word/document.xml`, running heads and
 * feet as header/footer parts (first page and even pages where the layout has them), page numbers
 * as PAGE and NUMPAGES fields, tables with a header row, spans (`gridSpan`, `vMerge`) and rulings.
 */
import { zip } from '../../render/zip.ts';
import type { TruthTable } from '../../types.ts';
import { contentTypesXml, numberingXml, R_NS, ROOT_RELS, settingsXml, stylesXml, twips, W_NS, XML_HEAD } from './docx-parts.ts';
import {
  columnWidths,
  esc,
  type OfficeBlock,
  type OfficeDocument,
  type OfficeLayout,
  PAPER_MM,
  pieces,
  type Ruling,
  type RunningLine,
  type RunningSet,
} from './model.ts';

const run = (text: string, rPr = ''): string => `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;

const para = (style: string, body: string, extra = ''): string => `<w:p><w:pPr><w:pStyle w:val="${style}"/>${extra}</w:pPr>${body}</w:p>`;

/** A field as Word writes it (begin, instruction, separate, a placeholder result, end): LibreOffice computes the result. */
function field(instr: string, rPr: string): string {
  const r = (inner: string): string => `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}${inner}</w:r>`;
  return (
    r('<w:fldChar w:fldCharType="begin"/>') +
    r(`<w:instrText xml:space="preserve"> ${instr} </w:instrText>`) +
    r('<w:fldChar w:fldCharType="separate"/>') +
    r('<w:t>1</w:t>') +
    r('<w:fldChar w:fldCharType="end"/>')
  );
}

function runningPara(line: RunningLine, style: 'Header' | 'Footer'): string {
  const rPr = `${line.bold ? '<w:b/>' : ''}${line.sizePt ? `<w:sz w:val="${line.sizePt * 2}"/><w:szCs w:val="${line.sizePt * 2}"/>` : ''}`;
  const body = pieces(line.text)
    .map((p) => ('literal' in p ? run(p.literal, rPr) : field(p.field === 'PAGE' ? 'PAGE' : 'NUMPAGES', rPr)))
    .join('');
  const rule = line.rule ? `<w:pBdr><w:${style === 'Header' ? 'bottom' : 'top'} w:val="single" w:sz="6" w:space="4" w:color="000000"/></w:pBdr>` : '';
  return para(style, body, `${rule}<w:jc w:val="${line.align === 'center' ? 'center' : line.align === 'right' ? 'right' : 'left'}"/>`);
}

function runningPart(kind: 'hdr' | 'ftr', lines: readonly RunningLine[]): string {
  const style = kind === 'hdr' ? 'Header' : 'Footer';
  const body = lines.length === 0 ? para(style, '') : lines.map((l) => runningPara(l, style)).join('');
  return `${XML_HEAD}<w:${kind} xmlns:w="${W_NS}" xmlns:r="${R_NS}">${body}</w:${kind}>`;
}

const BORDER = (side: string, sz: number): string => `<w:${side} w:val="single" w:sz="${sz}" w:space="0" w:color="000000"/>`;

function tableBorders(ruling: Ruling): string {
  switch (ruling) {
    case 'grid':
      return `<w:tblBorders>${['top', 'left', 'bottom', 'right', 'insideH', 'insideV'].map((s) => BORDER(s, 4)).join('')}</w:tblBorders>`;
    case 'rules':
      return `<w:tblBorders>${BORDER('top', 4)}${BORDER('bottom', 4)}${BORDER('insideH', 4)}</w:tblBorders>`;
    case 'header-rule':
      return `<w:tblBorders>${BORDER('top', 12)}${BORDER('bottom', 12)}</w:tblBorders>`;
    case 'none':
      return '';
  }
}

const numeric = (text: string): boolean => /^[-+$€£]?[\d.,]+%?$/.test(text);

function tableXml(table: TruthTable, layout: OfficeLayout): string {
  const [pageW] = PAPER_MM[layout.paper];
  const width = twips(pageW - layout.margin.left - layout.margin.right);
  const widths = columnWidths(table, width);
  const grid = `<w:tblGrid>${widths.map((w) => `<w:gridCol w:w="${w}"/>`).join('')}</w:tblGrid>`;
  const at = new Map(table.cells.map((c) => [`${c.row},${c.col}`, c]));
  const rows: string[] = [];
  for (let r = 0; r < table.rows; r++) {
    const header = r < table.headerRows;
    const cells: string[] = [];
    for (let c = 0; c < table.cols; ) {
      const own = at.get(`${r},${c}`);
      const above = own ? undefined : table.cells.find((x) => x.col === c && x.row < r && x.row + x.rowspan > r);
      const cell = own ?? above;
      const span = cell?.colspan ?? 1;
      const tcPr: string[] = [`<w:tcW w:w="${widths.slice(c, c + span).reduce((a, b) => a + b, 0)}" w:type="dxa"/>`];
      if (span > 1) tcPr.push(`<w:gridSpan w:val="${span}"/>`);
      if (own && own.rowspan > 1) tcPr.push('<w:vMerge w:val="restart"/>');
      if (above) tcPr.push('<w:vMerge/>');
      if (header && layout.ruling === 'header-rule') tcPr.push(`<w:tcBorders>${BORDER('bottom', 6)}</w:tcBorders>`);
      if (header && layout.ruling === 'grid') tcPr.push('<w:shd w:val="clear" w:color="auto" w:fill="E6E6E6"/>');
      if (own?.rowspan && own.rowspan > 1) tcPr.push('<w:vAlign w:val="center"/>');
      const text = own?.text ?? '';
      const jc = !header && numeric(text) ? '<w:jc w:val="right"/>' : own?.header && span > 1 ? '<w:jc w:val="center"/>' : '';
      cells.push(`<w:tc><w:tcPr>${tcPr.join('')}</w:tcPr>${para('TableText', text ? run(text, own?.header ? '<w:b/>' : '') : '', jc)}</w:tc>`);
      c += span;
    }
    // Rows never split across pages: a reader sees each row whole.
    rows.push(`<w:tr><w:trPr><w:cantSplit/></w:trPr>${cells.join('')}</w:tr>`);
  }
  return `<w:tbl><w:tblPr><w:tblW w:w="${widths.reduce((a, b) => a + b, 0)}" w:type="dxa"/>${tableBorders(layout.ruling)}<w:tblLayout w:type="fixed"/></w:tblPr>${grid}${rows.join('')}</w:tbl>`;
}

const HEADING_STYLE = ['Title', 'Heading1', 'Heading2', 'Heading3'];

/** The body's paragraphs and tables; numbered lists take `w:num` ids from `listsBefore` on. */
function bodyXml(blocks: readonly OfficeBlock[], layout: OfficeLayout, listsBefore = 0): { xml: string; orderedLists: number } {
  const out: string[] = [];
  let orderedLists = listsBefore;
  for (const b of blocks) {
    switch (b.kind) {
      case 'heading':
        out.push(para(HEADING_STYLE[Math.min(b.level, 4) - 1]!, run(b.text)));
        break;
      case 'paragraph':
        out.push(para('Normal', run(b.text)));
        break;
      case 'field':
        out.push(para('Tight', run(b.label, '<w:b/>') + run(` ${b.value}`)));
        break;
      case 'line':
        out.push(para('Tight', run(b.text, b.bold ? '<w:b/>' : '')));
        break;
      case 'toc':
        // The field's stored result is what LibreOffice prints: begin in the first entry, end in the last.
        b.entries.forEach((e, i) => {
          const begin =
            i === 0
              ? '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \\o "1-3" \\n \\h \\z </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
              : '';
          const end = i === b.entries.length - 1 ? '<w:r><w:fldChar w:fldCharType="end"/></w:r>' : '';
          out.push(para(`TOC${e.depth + 1}`, begin + run(e.text) + end));
        });
        break;
      case 'list': {
        const numId = b.ordered ? 2 + orderedLists++ : 1;
        for (const item of b.items) {
          out.push(para('ListParagraph', run(item.text), `<w:numPr><w:ilvl w:val="${item.depth}"/><w:numId w:val="${numId}"/></w:numPr>`));
        }
        break;
      }
      case 'table':
        out.push(tableXml(b.table, layout));
        if (b.caption) out.push(para('Caption', run(b.caption)));
        else out.push(para('Normal', ''));
        break;
      case 'caption':
        out.push(para('Caption', run(b.text)));
        break;
      case 'code':
        for (const line of b.text.split('\n')) out.push(para('Tight', run(line, '<w:rFonts w:ascii="Liberation Mono" w:hAnsi="Liberation Mono"/>')));
        break;
      case 'formula':
        out.push(para('Normal', run(b.latex)));
        break;
    }
  }
  return { xml: out.join(''), orderedLists };
}

/**
 * The DOCX bytes of `doc`.
 *
 * @example
 * const bytes = writeDocx({ layout, blocks, title: 'Annual review' });
 */
export function writeDocx(doc: Readonly<OfficeDocument>): Uint8Array {
  const { layout } = doc;
  const parts: { name: string; data: string }[] = [];
  const rels: string[] = [
    `<Relationship Id="rIdStyles" Type="${R_NS}/styles" Target="styles.xml"/>`,
    `<Relationship Id="rIdNumbering" Type="${R_NS}/numbering" Target="numbering.xml"/>`,
    `<Relationship Id="rIdSettings" Type="${R_NS}/settings" Target="settings.xml"/>`,
  ];
  const refs: string[] = [];
  const titlePg = layout.header.first !== undefined || layout.footer.first !== undefined;
  const evenOdd = layout.header.even !== undefined || layout.footer.even !== undefined;
  const addSet = (kind: 'hdr' | 'ftr', set: RunningSet): void => {
    const word = kind === 'hdr' ? 'header' : 'footer';
    // Word's titlePg and evenAndOddHeaders switch heads and feet together: a side without its own
    // first or even lines repeats its odd ones there, as the truth (linesOf) says.
    const variants: ['default' | 'first' | 'even', readonly RunningLine[] | undefined][] = [
      ['default', set.odd],
      ['first', set.first ?? (titlePg ? set.odd : undefined)],
      ['even', set.even ?? (evenOdd ? set.odd : undefined)],
    ];
    for (const [type, lines] of variants) {
      if (!lines) continue;
      const n = parts.filter((p) => p.name.startsWith(`word/${word}`)).length + 1;
      const id = `rId${word}${n}`;
      parts.push({ name: `word/${word}${n}.xml`, data: runningPart(kind, lines) });
      rels.push(`<Relationship Id="${id}" Type="${R_NS}/${word}" Target="${word}${n}.xml"/>`);
      refs.push(`<w:${word}Reference w:type="${type}" r:id="${id}"/>`);
    }
  };
  addSet('hdr', layout.header);
  addSet('ftr', layout.footer);
  const [w, h] = PAPER_MM[layout.paper];
  const m = layout.margin;
  // Two columns: the title matter closes a one-column section (a sectPr in its last paragraph's
  // properties), the rest is a continuous section of two that goes on numbering the pages. A 12 mm
  // gutter: at 8 mm pdftotext read the two columns' lines as one (its order is the builder's check).
  const sect = (cols: 1 | 2, continuous: boolean): string =>
    `<w:sectPr>${refs.join('')}${continuous ? '<w:type w:val="continuous"/>' : ''}<w:pgSz w:w="${twips(w)}" w:h="${twips(h)}"/>` +
    `<w:pgMar w:top="${twips(m.top)}" w:right="${twips(m.right)}" w:bottom="${twips(m.bottom)}" w:left="${twips(m.left)}" w:header="${twips(m.top / 2.2)}" w:footer="${twips(m.bottom / 2.2)}" w:gutter="0"/>` +
    `<w:cols w:num="${cols}" w:space="${twips(12)}"/>` +
    `<w:pgNumType${layout.pageFormat === 'lowerRoman' ? ' w:fmt="lowerRoman"' : ''}${continuous ? '' : ' w:start="1"'}/>${titlePg ? '<w:titlePg/>' : ''}</w:sectPr>`;
  const twoColumns = layout.columns === 2;
  const spanning = twoColumns ? (doc.spanning ?? 0) : 0;
  const top = bodyXml(doc.blocks.slice(0, spanning), layout);
  const head = spanning > 0 ? `${top.xml}<w:p><w:pPr>${sect(1, false)}</w:pPr></w:p>` : '';
  const body = bodyXml(doc.blocks.slice(spanning), layout, top.orderedLists);
  const last = sect(twoColumns ? 2 : 1, spanning > 0);
  const document = `${XML_HEAD}<w:document xmlns:w="${W_NS}" xmlns:r="${R_NS}"><w:body>${head}${body.xml}${last}</w:body></w:document>`;
  const all = [
    { name: 'word/document.xml', data: document },
    { name: 'word/styles.xml', data: stylesXml(layout) },
    { name: 'word/numbering.xml', data: numberingXml(body.orderedLists, layout.bodyFont) },
    { name: 'word/settings.xml', data: settingsXml(layout) },
    ...parts,
  ];
  return zip([
    { name: '[Content_Types].xml', data: contentTypesXml(all.map((p) => p.name)) },
    { name: '_rels/.rels', data: ROOT_RELS },
    {
      name: 'word/_rels/document.xml.rels',
      data: `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`,
    },
    ...all,
  ]);
}
