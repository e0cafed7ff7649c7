/**
 * The fixed parts of a DOCX package the factory writes: styles (body, Title, Heading 1–3, list,
 * table, header and footer paragraphs), numbering (bullets and nested numbered lists), settings and
 * the content types. WordprocessingML as ECMA-376 describes it, the least LibreOffice needs.
 */
import { esc, type OfficeLayout } from './model.ts';

export const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
export const R_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Millimetres to twentieths of a point. */
export const twips = (mm: number): number => Math.round((mm * 1440) / 25.4);
/** Points to half-points (`w:sz`). */
const half = (pt: number): number => Math.round(pt * 2);

const fonts = (name: string): string => `<w:rFonts w:ascii="${esc(name)}" w:hAnsi="${esc(name)}" w:cs="${esc(name)}" w:eastAsia="${esc(name)}"/>`;

function heading(id: string, name: string, layout: OfficeLayout, sizePt: number, beforePt: number, outline: number | undefined): string {
  const outlineLvl = outline === undefined ? '' : `<w:outlineLvl w:val="${outline}"/>`;
  return (
    `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/>` +
    `<w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="${Math.round(beforePt * 20)}" w:after="${Math.round(layout.afterPt * 20)}" w:line="240" w:lineRule="auto"/><w:jc w:val="left"/>${outlineLvl}</w:pPr>` +
    `<w:rPr>${fonts(layout.headingFont)}<w:b/><w:bCs/><w:color w:val="${layout.headingColor}"/><w:sz w:val="${half(sizePt)}"/><w:szCs w:val="${half(sizePt)}"/></w:rPr></w:style>`
  );
}

/** `word/styles.xml`: the document's fonts, sizes and spacing live here, so the body stays plain. */
export function stylesXml(layout: OfficeLayout): string {
  const s = layout.sizePt;
  const line = Math.round(layout.leading * 240);
  const small = half(s - 1);
  return (
    `${XML_HEAD}<w:styles xmlns:w="${W_NS}">` +
    `<w:docDefaults><w:rPrDefault><w:rPr>${fonts(layout.bodyFont)}<w:sz w:val="${half(s)}"/><w:szCs w:val="${half(s)}"/><w:lang w:val="en-US"/></w:rPr></w:rPrDefault>` +
    `<w:pPrDefault><w:pPr><w:spacing w:after="${Math.round(layout.afterPt * 20)}" w:line="${line}" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>` +
    `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/><w:pPr><w:widowControl/>${layout.justify ? '<w:jc w:val="both"/>' : ''}</w:pPr></w:style>` +
    heading('Title', 'Title', layout, s * 2, 0, 0) +
    heading('Heading1', 'heading 1', layout, Math.round(s * 1.5), s * 1.4, 0) +
    heading('Heading2', 'heading 2', layout, Math.round(s * 1.25), s * 1.1, 1) +
    heading('Heading3', 'heading 3', layout, s + 1, s, 2) +
    `<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:after="${Math.round(layout.afterPt * 8)}"/><w:contextualSpacing/><w:jc w:val="left"/></w:pPr></w:style>` +
    `<w:style w:type="paragraph" w:styleId="Tight"><w:name w:val="Tight"/><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:after="0"/><w:jc w:val="left"/></w:pPr></w:style>` +
    [1, 2, 3]
      .map(
        (n) =>
          `<w:style w:type="paragraph" w:styleId="TOC${n}"><w:name w:val="toc ${n}"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:pPr><w:spacing w:after="60"/><w:ind w:left="${(n - 1) * 440}"/><w:jc w:val="left"/></w:pPr></w:style>`,
      )
      .join('') +
    `<w:style w:type="paragraph" w:styleId="TableText"><w:name w:val="Table Text"/><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:before="40" w:after="40" w:line="240" w:lineRule="auto"/><w:jc w:val="left"/></w:pPr><w:rPr><w:sz w:val="${small}"/><w:szCs w:val="${small}"/></w:rPr></w:style>` +
    `<w:style w:type="paragraph" w:styleId="Caption"><w:name w:val="caption"/><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:before="80" w:after="${Math.round(layout.afterPt * 20)}"/><w:jc w:val="left"/></w:pPr><w:rPr><w:i/><w:sz w:val="${small}"/><w:szCs w:val="${small}"/></w:rPr></w:style>` +
    `<w:style w:type="paragraph" w:styleId="Header"><w:name w:val="header"/><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/><w:jc w:val="left"/></w:pPr><w:rPr><w:sz w:val="${small}"/><w:szCs w:val="${small}"/></w:rPr></w:style>` +
    `<w:style w:type="paragraph" w:styleId="Footer"><w:name w:val="footer"/><w:basedOn w:val="Header"/></w:style>` +
    `<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>` +
    '</w:styles>'
  );
}

const BULLETS = ['\u2022', '\u2013', '\u25aa'];
const ORDERED: readonly { fmt: string; text: (n: number) => string }[] = [
  { fmt: 'decimal', text: (n) => `%${n}.` },
  { fmt: 'lowerLetter', text: (n) => `%${n})` },
  { fmt: 'lowerRoman', text: (n) => `%${n}.` },
];

function level(ilvl: number, fmt: string, text: string, font?: string): string {
  const indent = 360 + ilvl * 360;
  const rPr = font ? `<w:rPr>${fonts(font)}</w:rPr>` : '';
  return `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="${fmt}"/><w:lvlText w:val="${esc(text)}"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="${indent}" w:hanging="360"/></w:pPr>${rPr}</w:lvl>`;
}

/**
 * `word/numbering.xml`: abstract 0 bullets, abstract 1 numbers (1. a) i.); `w:num` 1 is the bullets,
 * `w:num` 2 + k the k-th numbered list, each restarting at 1.
 */
export function numberingXml(orderedLists: number, bodyFont: string): string {
  const bullets = BULLETS.map((b, i) => level(i, 'bullet', b, bodyFont)).join('');
  const numbers = ORDERED.map((o, i) => level(i, o.fmt, o.text(i + 1))).join('');
  let nums = '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>';
  for (let k = 0; k < orderedLists; k++) {
    nums += `<w:num w:numId="${k + 2}"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>`;
  }
  return (
    `${XML_HEAD}<w:numbering xmlns:w="${W_NS}">` +
    `<w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="hybridMultilevel"/>${bullets}</w:abstractNum>` +
    `<w:abstractNum w:abstractNumId="1"><w:multiLevelType w:val="multilevel"/>${numbers}</w:abstractNum>${nums}</w:numbering>`
  );
}

/** `word/settings.xml`: odd and even heads where the layout has even ones; no hyphenation. */
export function settingsXml(layout: OfficeLayout): string {
  const evenOdd = layout.header.even || layout.footer.even ? '<w:evenAndOddHeaders/>' : '';
  return `${XML_HEAD}<w:settings xmlns:w="${W_NS}"><w:autoHyphenation w:val="false"/>${evenOdd}<w:defaultTabStop w:val="720"/><w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat></w:settings>`;
}

export function contentTypesXml(parts: readonly string[]): string {
  const main = 'application/vnd.openxmlformats-officedocument.wordprocessingml';
  const type = (p: string): string =>
    p.startsWith('word/header')
      ? `${main}.header+xml`
      : p.startsWith('word/footer')
        ? `${main}.footer+xml`
        : `${main}.${{ 'word/document.xml': 'document.main', 'word/styles.xml': 'styles', 'word/numbering.xml': 'numbering', 'word/settings.xml': 'settings' }[p]}+xml`;
  return (
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
    parts.map((p) => `<Override PartName="/${p}" ContentType="${type(p)}"/>`).join('') +
    '</Types>'
  );
}

export const ROOT_RELS = `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R_NS}/officeDocument" Target="word/document.xml"/></Relationships>`;
