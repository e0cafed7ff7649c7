/**
 * The fixed parts of the PPTX decks the factory writes: content types, relationships, the
 * presentation, one blank master and layout and a theme. PresentationML as ECMA-376 describes it,
 * minimal but complete enough that LibreOffice Impress (and PowerPoint) open it.
 */
import { esc } from './model.ts';

export const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
export const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PML = 'application/vnd.openxmlformats-officedocument.presentationml';

const rels = (items: readonly [string, string, string][]): string =>
  `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`).join('')}</Relationships>`;

export function contentTypes(slides: number): string {
  const slideParts = Array.from({ length: slides }, (_, i) => `<Override PartName="/ppt/slides/slide${i + 1}.xml" ContentType="${PML}.slide+xml"/>`).join('');
  return (
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
    `<Override PartName="/ppt/presentation.xml" ContentType="${PML}.presentation.main+xml"/>` +
    `<Override PartName="/ppt/slideMasters/slideMaster1.xml" ContentType="${PML}.slideMaster+xml"/>` +
    `<Override PartName="/ppt/slideLayouts/slideLayout1.xml" ContentType="${PML}.slideLayout+xml"/>` +
    '<Override PartName="/ppt/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>' +
    `${slideParts}</Types>`
  );
}

export const rootRels = (): string => rels([['rId1', 'officeDocument', 'ppt/presentation.xml']]);

export function presentation(slides: number, cx: number, cy: number): string {
  const ids = Array.from({ length: slides }, (_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 10}"/>`).join('');
  return (
    `${XML_HEAD}<p:presentation ${NS} saveSubsetFonts="1"><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>` +
    `<p:sldIdLst>${ids}</p:sldIdLst><p:sldSz cx="${cx}" cy="${cy}"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`
  );
}

export function presentationRels(slides: number): string {
  const items: [string, string, string][] = [
    ['rId1', 'slideMaster', 'slideMasters/slideMaster1.xml'],
    ['rId2', 'theme', 'theme/theme1.xml'],
  ];
  for (let i = 0; i < slides; i++) items.push([`rId${i + 10}`, 'slide', `slides/slide${i + 1}.xml`]);
  return rels(items);
}

const EMPTY_TREE = '<p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/></p:spTree>';

export function master(background: string, font: string): string {
  const level = (size: number): string => `<a:lvl1pPr><a:defRPr sz="${size}"><a:latin typeface="${esc(font)}"/></a:defRPr></a:lvl1pPr>`;
  return (
    `${XML_HEAD}<p:sldMaster ${NS}><p:cSld><p:bg><p:bgPr><a:solidFill><a:srgbClr val="${background}"/></a:solidFill><a:effectLst/></p:bgPr></p:bg>${EMPTY_TREE}</p:cSld>` +
    '<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>' +
    '<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst>' +
    `<p:txStyles><p:titleStyle>${level(3200)}</p:titleStyle><p:bodyStyle>${level(2000)}</p:bodyStyle><p:otherStyle>${level(1800)}</p:otherStyle></p:txStyles></p:sldMaster>`
  );
}

export const masterRels = (): string =>
  rels([
    ['rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml'],
    ['rId2', 'theme', '../theme/theme1.xml'],
  ]);

export const layout = (): string =>
  `${XML_HEAD}<p:sldLayout ${NS} type="blank" preserve="1"><p:cSld name="Blank">${EMPTY_TREE}</p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`;

export const layoutRels = (): string => rels([['rId1', 'slideMaster', '../slideMasters/slideMaster1.xml']]);

export const slideRels = (): string => rels([['rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml']]);

/** A theme with the colour, font and format schemes the schema requires (three of each style). */
export function theme(font: string): string {
  const colours = [
    'dk1',
    '000000',
    'lt1',
    'FFFFFF',
    'dk2',
    '1F2937',
    'lt2',
    'E5E7EB',
    'accent1',
    '2563EB',
    'accent2',
    'DC2626',
    'accent3',
    '16A34A',
    'accent4',
    'CA8A04',
    'accent5',
    '7C3AED',
    'accent6',
    '0891B2',
    'hlink',
    '1D4ED8',
    'folHlink',
    '6D28D9',
  ];
  let scheme = '';
  for (let i = 0; i < colours.length; i += 2) scheme += `<a:${colours[i]}><a:srgbClr val="${colours[i + 1]}"/></a:${colours[i]}>`;
  const fill = '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>';
  const line = `<a:ln w="9525">${fill}</a:ln>`;
  const fonts = `<a:latin typeface="${esc(font)}"/><a:ea typeface=""/><a:cs typeface=""/>`;
  return (
    `${XML_HEAD}<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Factory"><a:themeElements>` +
    `<a:clrScheme name="Factory">${scheme}</a:clrScheme>` +
    `<a:fontScheme name="Factory"><a:majorFont>${fonts}</a:majorFont><a:minorFont>${fonts}</a:minorFont></a:fontScheme>` +
    `<a:fmtScheme name="Factory"><a:fillStyleLst>${fill.repeat(3)}</a:fillStyleLst><a:lnStyleLst>${line.repeat(3)}</a:lnStyleLst>` +
    `<a:effectStyleLst>${'<a:effectStyle><a:effectLst/></a:effectStyle>'.repeat(3)}</a:effectStyleLst><a:bgFillStyleLst>${fill.repeat(3)}</a:bgFillStyleLst></a:fmtScheme>` +
    '</a:themeElements></a:theme>'
  );
}
