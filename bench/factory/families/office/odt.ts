/**
 * An {@link OfficeDocument} as an ODT package (OpenDocument text): the body in `content.xml`
 * (headings, paragraphs, nested lists, tables with spans and covered cells), the page and its
 * running heads in `styles.xml` (see odt-styles.ts). The first paragraph opens the `First Page`
 * master where the layout has one.
 */
import { zip } from '../../render/zip.ts';
import type { TruthTable } from '../../types.ts';
import { columnWidths, esc, type OfficeBlock, type OfficeDocument, type OfficeLayout, PAPER_MM, type Ruling } from './model.ts';
import { hasFirstPage, ODF_NS, odtStylesXml } from './odt-styles.ts';

const MIME = 'application/vnd.oasis.opendocument.text';

/** Text with runs of spaces kept (ODF collapses them otherwise). */
const t = (text: string): string => esc(text).replace(/ {2,}/g, (s) => ` <text:s text:c="${s.length - 1}"/>`);

type Items = readonly { readonly text: string; readonly depth: number }[];

/** A nested `text:list`: items deeper than their predecessor open a list inside its list item. */
function list(items: Items, style: string, from: number, depth: number): { xml: string; next: number } {
  let xml = `<text:list${depth === 0 ? ` text:style-name="${style}"` : ''}>`;
  let i = from;
  while (i < items.length && items[i]!.depth >= depth) {
    const item = items[i]!;
    xml += `<text:list-item><text:p text:style-name="List">${t(item.text)}</text:p>`;
    i++;
    if (i < items.length && items[i]!.depth > depth) {
      const inner = list(items, style, i, depth + 1);
      xml += inner.xml;
      i = inner.next;
    }
    xml += '</text:list-item>';
  }
  return { xml: `${xml}</text:list>`, next: i };
}

/** Cell borders of each ruling: named automatic cell styles, made on first use. */
class CellStyles {
  readonly styles = new Map<string, string>();
  name(ruling: Ruling, header: boolean, top: boolean, bottom: boolean, lastHeader: boolean): string {
    const line = (pt: number): string => `${pt}pt solid #000000`;
    const props: string[] = ['fo:padding="1.2mm"'];
    if (ruling === 'grid') props.push(`fo:border="${line(0.5)}"`);
    if (ruling === 'rules') props.push(`fo:border-bottom="${line(0.5)}"`, ...(top ? [`fo:border-top="${line(0.5)}"`] : []));
    if (ruling === 'header-rule') {
      if (top) props.push(`fo:border-top="${line(1.5)}"`);
      if (bottom) props.push(`fo:border-bottom="${line(1.5)}"`);
      else if (lastHeader) props.push(`fo:border-bottom="${line(0.75)}"`);
    }
    if (header && ruling === 'grid') props.push('fo:background-color="#e6e6e6"');
    const key = props.join(' ');
    let name = this.styles.get(key);
    if (!name) {
      name = `Cell${this.styles.size + 1}`;
      this.styles.set(key, name);
    }
    return name;
  }
  xml(): string {
    return [...this.styles]
      .map(
        ([props, name]) =>
          `<style:style style:name="${name}" style:family="table-cell"><style:table-cell-properties ${props} style:vertical-align="middle"/></style:style>`,
      )
      .join('');
  }
}

function tableXml(table: TruthTable, layout: OfficeLayout, cells: CellStyles, n: number): string {
  const at = new Map(table.cells.map((c) => [`${c.row},${c.col}`, c]));
  let xml = `<table:table table:name="Table${n}" table:style-name="Tbl">${columnWidths(table, 1000)
    .map((w) => `<table:table-column table:style-name="TblCol${w}"/>`)
    .join('')}`;
  for (let r = 0; r < table.rows; r++) {
    xml += '<table:table-row table:style-name="Row">';
    for (let c = 0; c < table.cols; c++) {
      const own = at.get(`${r},${c}`);
      if (!own) {
        xml += '<table:covered-table-cell/>';
        continue;
      }
      const header = own.header;
      const bottom = own.row + own.rowspan === table.rows;
      const lastHeader = own.row + own.rowspan === table.headerRows;
      const style = cells.name(layout.ruling, r < table.headerRows, r === 0, bottom, lastHeader);
      const spans = `${own.colspan > 1 ? ` table:number-columns-spanned="${own.colspan}"` : ''}${own.rowspan > 1 ? ` table:number-rows-spanned="${own.rowspan}"` : ''}`;
      const body = header ? `<text:span text:style-name="B">${t(own.text)}</text:span>` : t(own.text);
      xml += `<table:table-cell table:style-name="${style}" office:value-type="string"${spans}><text:p text:style-name="Table_20_Contents">${body}</text:p></table:table-cell>`;
    }
    xml += '</table:table-row>';
  }
  return `${xml}</table:table>`;
}

const HEADINGS = ['Title', 'Heading_20_1', 'Heading_20_2', 'Heading_20_3'];

/**
 * The ODT bytes of `doc`.
 *
 * @example
 * const bytes = writeOdt({ layout, blocks, title: 'Annual review' });
 */
export function writeOdt(doc: Readonly<OfficeDocument>): Uint8Array {
  const { layout } = doc;
  const cells = new CellStyles();
  const body: string[] = [];
  let tables = 0;
  const first = hasFirstPage(layout);
  // The first paragraph's style carries the first page's master; the heading styles get a twin that does.
  const style = (name: string): string => (first && body.length === 0 ? `First_${name}` : name);
  const spanning = layout.columns === 2 ? (doc.spanning ?? 0) : -1;
  for (const [i, b] of (doc.blocks as readonly OfficeBlock[]).entries()) {
    // Two columns: the blocks after the title matter go in a section of two columns.
    if (i === spanning) body.push('<text:section text:style-name="Sect2" text:name="Columns">');
    switch (b.kind) {
      case 'heading': {
        const level = Math.min(b.level, 4);
        body.push(`<text:h text:style-name="${style(HEADINGS[level - 1]!)}" text:outline-level="${level}">${t(b.text)}</text:h>`);
        break;
      }
      case 'paragraph':
        body.push(`<text:p text:style-name="${style('Standard')}">${t(b.text)}</text:p>`);
        break;
      case 'field':
        body.push(`<text:p text:style-name="${style('Tight')}"><text:span text:style-name="B">${t(b.label)}</text:span><text:s/>${t(b.value)}</text:p>`);
        break;
      case 'line':
        body.push(`<text:p text:style-name="${style('Tight')}">${b.bold ? `<text:span text:style-name="B">${t(b.text)}</text:span>` : t(b.text)}</text:p>`);
        break;
      case 'toc':
        for (const e of b.entries) body.push(`<text:p text:style-name="${style(`Contents${e.depth + 1}`)}">${t(e.text)}</text:p>`);
        break;
      case 'list':
        if (body.length === 0 && first) body.push(`<text:p text:style-name="First_Tight"/>`);
        body.push(list(b.items, b.ordered ? 'Numbers' : 'Bullets', 0, 0).xml);
        break;
      case 'table':
        if (body.length === 0 && first) body.push(`<text:p text:style-name="First_Tight"/>`);
        body.push(tableXml(b.table, layout, cells, ++tables));
        body.push(b.caption ? `<text:p text:style-name="Caption">${t(b.caption)}</text:p>` : '<text:p text:style-name="Standard"/>');
        break;
      case 'caption':
        body.push(`<text:p text:style-name="${style('Caption')}">${t(b.text)}</text:p>`);
        break;
      case 'code':
        for (const line of b.text.split('\n'))
          body.push(`<text:p text:style-name="${style('Tight')}"><text:span text:style-name="Mono">${t(line)}</text:span></text:p>`);
        break;
      case 'formula':
        body.push(`<text:p text:style-name="${style('Standard')}">${t(b.latex)}</text:p>`);
        break;
    }
  }
  if (spanning >= 0) body.push('</text:section>');
  const [w] = PAPER_MM[layout.paper];
  const width = w - layout.margin.left - layout.margin.right;
  const firsts = first
    ? [...HEADINGS, 'Standard', 'Tight', 'Caption', 'Contents1']
        .map((n) => `<style:style style:name="First_${n}" style:family="paragraph" style:parent-style-name="${n}" style:master-page-name="First_20_Page"/>`)
        .join('')
    : '';
  // Column styles by width in thousandths of the text width (columnWidths(table, 1000)).
  const cols = [...new Set(doc.blocks.flatMap((b) => (b.kind === 'table' ? columnWidths(b.table, 1000) : [])))]
    .map(
      (k) =>
        `<style:style style:name="TblCol${k}" style:family="table-column"><style:table-column-properties style:column-width="${((width * k) / 1000).toFixed(2)}mm"/></style:style>`,
    )
    .join('');
  const automatic =
    `<office:automatic-styles>${firsts}<style:style style:name="Tbl" style:family="table"><style:table-properties style:width="${width}mm" table:align="margins" fo:margin-top="2mm" fo:margin-bottom="1mm"/></style:style>` +
    `${cols}<style:style style:name="Sect2" style:family="section"><style:section-properties><style:columns fo:column-count="2" fo:column-gap="12mm"/></style:section-properties></style:style><style:style style:name="Row" style:family="table-row"><style:table-row-properties fo:keep-together="always"/></style:style>${cells.xml()}</office:automatic-styles>`;
  const content = `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content ${ODF_NS}>${automatic}<office:body><office:text>${body.join('')}</office:text></office:body></office:document-content>`;
  const manifest =
    '<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">' +
    `<manifest:file-entry manifest:full-path="/" manifest:media-type="${MIME}" manifest:version="1.3"/>` +
    '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/></manifest:manifest>';
  return zip([
    { name: 'mimetype', data: MIME, stored: true },
    { name: 'META-INF/manifest.xml', data: manifest },
    { name: 'content.xml', data: content },
    { name: 'styles.xml', data: odtStylesXml(layout) },
  ]);
}
