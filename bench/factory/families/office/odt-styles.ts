/**
 * `styles.xml` of the ODT the factory writes: fonts, paragraph styles (body, Title, Heading 1–3,
 * table text, header, footer), bullet and number list styles, and the page: a `Standard` master
 * with its heads, feet and left-page (even) variants, and a `First Page` master that hands over to it.
 */
import { esc, type OfficeLayout, PAPER_MM, pieces, type RunningLine } from './model.ts';

export const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ' +
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3"';

const text = (font: string, sizePt: number, extra = ''): string => `<style:text-properties style:font-name="${esc(font)}" fo:font-size="${sizePt}pt"${extra}/>`;

function heading(name: string, display: string, layout: OfficeLayout, sizePt: number, beforePt: number, level: number): string {
  return (
    `<style:style style:name="${name}" style:display-name="${display}" style:family="paragraph" style:parent-style-name="Standard" style:next-style-name="Standard" style:default-outline-level="${level}" style:class="text">` +
    `<style:paragraph-properties fo:margin-top="${beforePt}pt" fo:margin-bottom="${layout.afterPt}pt" fo:line-height="100%" fo:text-align="start" fo:keep-with-next="always"/>` +
    `${text(layout.headingFont, sizePt, ` fo:font-weight="bold" fo:color="#${layout.headingColor}"`)}</style:style>`
  );
}

const LABEL = (level: number): string =>
  `<style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="${6 + level * 6}mm" fo:text-indent="-6mm" fo:margin-left="${6 + level * 6}mm"/></style:list-level-properties>`;

function listStyles(): string {
  const bullets = ['\u2022', '\u2013', '\u25aa']
    .map((b, i) => `<text:list-level-style-bullet text:level="${i + 1}" text:bullet-char="${b}">${LABEL(i)}</text:list-level-style-bullet>`)
    .join('');
  const numbers = [
    ['1', '.'],
    ['a', ')'],
    ['i', '.'],
  ]
    .map(
      ([format, suffix], i) =>
        `<text:list-level-style-number text:level="${i + 1}" style:num-format="${format}" style:num-suffix="${suffix}">${LABEL(i)}</text:list-level-style-number>`,
    )
    .join('');
  return `<text:list-style style:name="Bullets">${bullets}</text:list-style><text:list-style style:name="Numbers">${numbers}</text:list-style>`;
}

/** A running line as a paragraph, page numbers as fields LibreOffice fills in. */
function runningPara(line: RunningLine, style: 'Header' | 'Footer', index: number): string {
  const body = pieces(line.text)
    .map((p) =>
      'literal' in p
        ? esc(p.literal).replace(/ {2,}/g, (s) => ` <text:s text:c="${s.length - 1}"/>`)
        : p.field === 'PAGE'
          ? '<text:page-number text:select-page="current">1</text:page-number>'
          : '<text:page-count>1</text:page-count>',
    )
    .join('');
  const styled = line.bold || line.sizePt ? `<text:span text:style-name="R${style}${index}">${body}</text:span>` : body;
  return `<text:p text:style-name="${style}${line.align === 'left' ? 'L' : line.align === 'center' ? 'C' : 'R'}${line.rule ? 'Rule' : ''}">${styled}</text:p>`;
}

/** Character styles for bold or resized running lines (`R<Header|Footer><n>`). */
function runningSpans(lines: readonly RunningLine[], style: 'Header' | 'Footer', seen: Set<string>): string {
  return lines
    .map((l, i) => {
      const name = `R${style}${i}`;
      if (!(l.bold || l.sizePt) || seen.has(name)) return '';
      seen.add(name);
      return `<style:style style:name="${name}" style:family="text"><style:text-properties${l.bold ? ' fo:font-weight="bold"' : ''}${l.sizePt ? ` fo:font-size="${l.sizePt}pt"` : ''}/></style:style>`;
    })
    .join('');
}

const block = (tag: string, lines: readonly RunningLine[] | undefined, style: 'Header' | 'Footer'): string =>
  lines && lines.length > 0 ? `<style:${tag}>${lines.map((l, i) => runningPara(l, style, i)).join('')}</style:${tag}>` : '';

/** Whether the layout needs a first-page master. */
export const hasFirstPage = (layout: OfficeLayout): boolean => layout.header.first !== undefined || layout.footer.first !== undefined;

export function odtStylesXml(layout: OfficeLayout): string {
  const s = layout.sizePt;
  const [w, h] = PAPER_MM[layout.paper];
  const m = layout.margin;
  const fonts = [...new Set([layout.bodyFont, layout.headingFont, 'Liberation Mono'])];
  const faces = fonts.map((f) => `<style:font-face style:name="${esc(f)}" svg:font-family="'${esc(f)}'"/>`).join('');
  const align = (name: string, a: string, parent: string): string =>
    `<style:style style:name="${name}" style:family="paragraph" style:parent-style-name="${parent}"><style:paragraph-properties fo:text-align="${a}"/></style:style>`;
  const seen = new Set<string>();
  const { header: hd, footer: ft } = layout;
  const spans =
    [hd.first, hd.odd, hd.even].map((l) => runningSpans(l ?? [], 'Header', seen)).join('') +
    [ft.first, ft.odd, ft.even].map((l) => runningSpans(l ?? [], 'Footer', seen)).join('');
  // ODF measures the page margin to the head; the head's own height and gap then push the body down.
  const headGap = `<style:header-footer-properties fo:min-height="0mm" fo:margin-bottom="${(m.top * 0.4).toFixed(1)}mm"/>`;
  const footGap = `<style:header-footer-properties fo:min-height="0mm" fo:margin-top="${(m.bottom * 0.4).toFixed(1)}mm"/>`;
  const pageLayout =
    `<style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="${w}mm" fo:page-height="${h}mm" style:num-format="${layout.pageFormat === 'lowerRoman' ? 'i' : '1'}" style:print-orientation="portrait" ` +
    `fo:margin-top="${(m.top * 0.5).toFixed(1)}mm" fo:margin-bottom="${(m.bottom * 0.5).toFixed(1)}mm" fo:margin-left="${m.left}mm" fo:margin-right="${m.right}mm"/>` +
    `<style:header-style>${headGap}</style:header-style><style:footer-style>${footGap}</style:footer-style></style:page-layout>`;
  const standard =
    `<style:master-page style:name="Standard" style:page-layout-name="pm1">${block('header', hd.odd, 'Header')}${hd.even ? block('header-left', hd.even, 'Header') : ''}` +
    `${block('footer', ft.odd, 'Footer')}${ft.even ? block('footer-left', ft.even, 'Footer') : ''}</style:master-page>`;
  const first = hasFirstPage(layout)
    ? `<style:master-page style:name="First_20_Page" style:display-name="First Page" style:page-layout-name="pm1" style:next-style-name="Standard">${block('header', hd.first ?? hd.odd, 'Header')}${block('footer', ft.first ?? ft.odd, 'Footer')}</style:master-page>`
    : '';
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles ${ODF_NS}><office:font-face-decls>${faces}</office:font-face-decls><office:styles>` +
    `<style:default-style style:family="paragraph"><style:paragraph-properties fo:hyphenation-ladder-count="no-limit"/>${text(layout.bodyFont, s, ' fo:language="en" fo:country="US" fo:hyphenate="false"')}</style:default-style>` +
    `<style:style style:name="Standard" style:family="paragraph" style:class="text"><style:paragraph-properties fo:margin-top="0pt" fo:margin-bottom="${layout.afterPt}pt" fo:line-height="${Math.round(layout.leading * 100)}%" fo:text-align="${layout.justify ? 'justify' : 'start'}" fo:orphans="2" fo:widows="2"/></style:style>` +
    heading('Title', 'Title', layout, s * 2, 0, 1) +
    heading('Heading_20_1', 'Heading 1', layout, Math.round(s * 1.5), s * 1.4, 2) +
    heading('Heading_20_2', 'Heading 2', layout, Math.round(s * 1.25), s * 1.1, 3) +
    heading('Heading_20_3', 'Heading 3', layout, s + 1, s, 4) +
    `<style:style style:name="Tight" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-bottom="0pt" fo:text-align="start"/></style:style>` +
    `<style:style style:name="List" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-bottom="${(layout.afterPt * 0.4).toFixed(1)}pt" fo:text-align="start"/></style:style>` +
    [1, 2, 3]
      .map(
        (n) =>
          `<style:style style:name="Contents${n}" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-left="${(n - 1) * 8}mm" fo:margin-bottom="3pt" fo:text-align="start"/></style:style>`,
      )
      .join('') +
    `<style:style style:name="Table_20_Contents" style:display-name="Table Contents" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-top="2pt" fo:margin-bottom="2pt" fo:line-height="100%" fo:text-align="start"/><style:text-properties fo:font-size="${s - 1}pt"/></style:style>` +
    `<style:style style:name="Caption" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-top="4pt" fo:text-align="start"/><style:text-properties fo:font-size="${s - 1}pt" fo:font-style="italic"/></style:style>` +
    `<style:style style:name="Header" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-bottom="0pt" fo:line-height="100%"/><style:text-properties fo:font-size="${s - 1}pt"/></style:style>` +
    `<style:style style:name="Footer" style:family="paragraph" style:parent-style-name="Header"/>` +
    ['L', 'C', 'R']
      .map((k, i) => align(`Header${k}`, ['start', 'center', 'end'][i]!, 'Header') + align(`Footer${k}`, ['start', 'center', 'end'][i]!, 'Footer'))
      .join('') +
    // Ruled variants: a line under a head, over a foot.
    ['L', 'C', 'R']
      .map(
        (k) =>
          `<style:style style:name="Header${k}Rule" style:family="paragraph" style:parent-style-name="Header${k}"><style:paragraph-properties fo:border-bottom="0.5pt solid #000000" fo:padding-bottom="1.5mm"/></style:style>` +
          `<style:style style:name="Footer${k}Rule" style:family="paragraph" style:parent-style-name="Footer${k}"><style:paragraph-properties fo:border-top="0.5pt solid #000000" fo:padding-top="1.5mm"/></style:style>`,
      )
      .join('') +
    `<style:style style:name="B" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>` +
    `<style:style style:name="Mono" style:family="text"><style:text-properties style:font-name="Liberation Mono"/></style:style>` +
    spans +
    listStyles() +
    `<text:outline-style style:name="Outline">${[1, 2, 3, 4].map((l) => `<text:outline-level-style text:level="${l}" style:num-format=""/>`).join('')}</text:outline-style>` +
    `</office:styles><office:automatic-styles>${pageLayout}</office:automatic-styles><office:master-styles>${standard}${first}</office:master-styles></office:document-styles>`
  );
}
