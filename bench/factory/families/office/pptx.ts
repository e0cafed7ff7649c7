/**
 * A deck as a PPTX package: each slide's title, bullets (nested, bulleted or numbered), two
 * columns, a statement or a table (header row, spans by gridSpan/rowSpan and hMerge/vMerge), in
 * text boxes at fixed places, and the furniture (footer text, date, slide number as a `slidenum`
 * field) on every slide but the title slide.
 */
import { zip } from '../../render/zip.ts';
import type { TruthTable } from '../../types.ts';
import { columnWidths, esc } from './model.ts';
import {
  contentTypes,
  layout,
  layoutRels,
  master,
  masterRels,
  NS,
  presentation,
  presentationRels,
  rootRels,
  slideRels,
  theme,
  XML_HEAD,
} from './pptx-parts.ts';

export type Items = readonly { readonly text: string; readonly depth: number }[];

export type Slide =
  | { readonly kind: 'title' | 'closing'; readonly title: string; readonly lines: readonly string[] }
  | { readonly kind: 'bullets'; readonly title: string; readonly items: Items; readonly ordered: boolean }
  | { readonly kind: 'columns'; readonly title: string; readonly columns: readonly { readonly heading: string; readonly items: Items }[] }
  | { readonly kind: 'statement'; readonly title: string; readonly text: string }
  | { readonly kind: 'table'; readonly title: string; readonly table: TruthTable };

export interface DeckLook {
  readonly wide: boolean;
  readonly font: string;
  readonly titleFont: string;
  /** `RRGGBB` colours. */
  readonly background: string;
  readonly text: string;
  readonly accent: string;
  readonly titlePt: number;
  readonly bodyPt: number;
  /** A bar of the accent colour above the title. */
  readonly bar: boolean;
}

/** Furniture of one content slide: a head line at the top right, foot texts at the left and centre, the number at the right. */
export interface SlideFurniture {
  readonly header?: string;
  readonly left?: string;
  readonly center?: string;
  /** The number as printed: `{N}` becomes a slide-number field. */
  readonly number?: string;
}

const EMU_PER_CM = 360_000;
export const slideSize = (wide: boolean): [number, number] => [wide ? 12_192_000 : 9_144_000, 6_858_000];

interface Run {
  readonly text: string;
  readonly sizePt: number;
  readonly bold?: boolean;
  readonly colour: string;
  readonly font: string;
}

function runXml(r: Run): string {
  const rPr = `<a:rPr lang="en-US" sz="${Math.round(r.sizePt * 100)}"${r.bold ? ' b="1"' : ''} dirty="0"><a:solidFill><a:srgbClr val="${r.colour}"/></a:solidFill><a:latin typeface="${esc(r.font)}"/></a:rPr>`;
  // A slide number is a field LibreOffice fills in; the text inside is only PowerPoint's cached value.
  return r.text
    .split(/(\{N\})/)
    .filter((p) => p !== '')
    .map((p) =>
      p === '{N}' ? `<a:fld id="{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}" type="slidenum">${rPr}<a:t>1</a:t></a:fld>` : `<a:r>${rPr}<a:t>${esc(p)}</a:t></a:r>`,
    )
    .join('');
}

type Para = {
  readonly runs: readonly Run[];
  readonly align?: 'l' | 'ctr' | 'r';
  readonly bullet?: { readonly depth: number; readonly ordered: boolean };
  readonly afterPt?: number;
};

function paraXml(p: Para): string {
  const spc = `<a:spcAft><a:spcPts val="${Math.round((p.afterPt ?? 0) * 100)}"/></a:spcAft>`;
  let pPr: string;
  if (p.bullet) {
    const indent = 342_900;
    const mark = p.bullet.ordered
      ? `<a:buAutoNum type="${['arabicPeriod', 'alphaLcParenR', 'romanLcPeriod'][p.bullet.depth] ?? 'arabicPeriod'}"/>`
      : `<a:buChar char="${['\u2022', '\u2013', '\u25aa'][p.bullet.depth] ?? '\u2022'}"/>`;
    pPr = `<a:pPr marL="${indent * (p.bullet.depth + 1)}" indent="-${indent}" lvl="${p.bullet.depth}" algn="l">${spc}<a:buFont typeface="${esc(p.runs[0]!.font)}"/>${mark}</a:pPr>`;
  } else {
    pPr = `<a:pPr marL="0" indent="0" algn="${p.align ?? 'l'}">${spc}<a:buNone/></a:pPr>`;
  }
  return `<a:p>${pPr}${p.runs.map(runXml).join('')}</a:p>`;
}

class Shapes {
  private id = 2;
  readonly xml: string[] = [];
  text(name: string, x: number, y: number, w: number, h: number, paras: readonly Para[], anchor: 't' | 'ctr' | 'b' = 't'): void {
    const box = `<a:xfrm><a:off x="${Math.round(x)}" y="${Math.round(y)}"/><a:ext cx="${Math.round(w)}" cy="${Math.round(h)}"/></a:xfrm>`;
    this.xml.push(
      `<p:sp><p:nvSpPr><p:cNvPr id="${this.id++}" name="${name}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr>${box}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/></p:spPr>` +
        `<p:txBody><a:bodyPr wrap="square" lIns="91440" tIns="45720" rIns="91440" bIns="45720" anchor="${anchor}"><a:noAutofit/></a:bodyPr><a:lstStyle/>${paras.map(paraXml).join('')}</p:txBody></p:sp>`,
    );
  }
  rect(x: number, y: number, w: number, h: number, colour: string): void {
    this.xml.push(
      `<p:sp><p:nvSpPr><p:cNvPr id="${this.id++}" name="Bar"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="${w}" cy="${h}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="${colour}"/></a:solidFill><a:ln><a:noFill/></a:ln></p:spPr></p:sp>`,
    );
  }
  table(x: number, y: number, w: number, table: TruthTable, look: DeckLook, sizePt: number): void {
    const widths = columnWidths(table, w);
    const rowH = Math.round(sizePt * 2.1 * 12_700);
    const at = new Map(table.cells.map((c) => [`${c.row},${c.col}`, c]));
    const line = (side: string): string => `<a:${side} w="9525"><a:solidFill><a:srgbClr val="${look.text}"/></a:solidFill></a:${side}>`;
    let rows = '';
    for (let r = 0; r < table.rows; r++) {
      let cells = '';
      for (let c = 0; c < table.cols; c++) {
        const own = at.get(`${r},${c}`);
        const owner = own ?? table.cells.find((o) => o.row <= r && r < o.row + o.rowspan && o.col <= c && c < o.col + o.colspan)!;
        const merge = own
          ? `${own.colspan > 1 ? ` gridSpan="${own.colspan}"` : ''}${own.rowspan > 1 ? ` rowSpan="${own.rowspan}"` : ''}`
          : `${owner.col < c ? ' hMerge="1"' : ''}${owner.row < r ? ' vMerge="1"' : ''}`;
        const header = r < table.headerRows;
        const fill = header ? `<a:solidFill><a:srgbClr val="${look.accent}"/></a:solidFill>` : '<a:noFill/>';
        const colour = header ? 'FFFFFF' : look.text;
        const body = paraXml({ runs: own ? [{ text: own.text, sizePt, bold: own.header, colour, font: look.font }] : [] });
        cells += `<a:tc${merge}><a:txBody><a:bodyPr/><a:lstStyle/>${body}</a:txBody><a:tcPr anchor="ctr">${line('lnL')}${line('lnR')}${line('lnT')}${line('lnB')}${fill}</a:tcPr></a:tc>`;
      }
      rows += `<a:tr h="${rowH}">${cells}</a:tr>`;
    }
    const grid = `<a:tblGrid>${widths.map((cw) => `<a:gridCol w="${cw}"/>`).join('')}</a:tblGrid>`;
    this.xml.push(
      `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${this.id++}" name="Table"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>` +
        `<p:xfrm><a:off x="${Math.round(x)}" y="${Math.round(y)}"/><a:ext cx="${widths.reduce((a, b) => a + b, 0)}" cy="${rowH * table.rows}"/></p:xfrm>` +
        `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1"/>${grid}${rows}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`,
    );
  }
}

const itemParas = (items: Items, ordered: boolean, look: DeckLook, sizePt: number): Para[] =>
  items.map((i) => ({
    runs: [{ text: i.text, sizePt: sizePt - i.depth * 2, colour: look.text, font: look.font }],
    bullet: { depth: i.depth, ordered },
    afterPt: sizePt * 0.45,
  }));

function slideXml(slide: Slide, look: DeckLook, furniture: SlideFurniture | undefined): string {
  const [cx, cy] = slideSize(look.wide);
  const margin = 1.2 * EMU_PER_CM;
  const width = cx - 2 * margin;
  const s = new Shapes();
  const body = look.bodyPt;
  const title = (text: string, y: number, h: number, sizePt: number, align: 'l' | 'ctr' = 'l'): void =>
    s.text('Title', margin, y, width, h, [{ runs: [{ text, sizePt, bold: true, colour: look.accent, font: look.titleFont }], align }], 'b');
  const top = 1.0 * EMU_PER_CM;
  const titleH = 2.4 * EMU_PER_CM;
  const bodyY = top + titleH + 0.5 * EMU_PER_CM;
  const bodyH = cy - bodyY - 2.0 * EMU_PER_CM;
  if (look.bar) s.rect(0, 0, cx, Math.round(0.45 * EMU_PER_CM), look.accent);
  switch (slide.kind) {
    case 'title':
    case 'closing':
      title(slide.title, cy * 0.22, cy * 0.3, look.titlePt * (slide.kind === 'title' ? 1.3 : 1.1), 'ctr');
      s.text(
        'Subtitle',
        margin,
        cy * 0.56,
        width,
        cy * 0.3,
        slide.lines.map((text) => ({ runs: [{ text, sizePt: body, colour: look.text, font: look.font }], align: 'ctr', afterPt: 6 })),
      );
      break;
    case 'bullets':
      title(slide.title, top, titleH, look.titlePt);
      s.text('Body', margin, bodyY, width, bodyH, itemParas(slide.items, slide.ordered, look, body));
      break;
    case 'columns': {
      title(slide.title, top, titleH, look.titlePt);
      const gap = 0.8 * EMU_PER_CM;
      const colW = (width - gap) / 2;
      slide.columns.forEach((col, i) => {
        const head: Para = { runs: [{ text: col.heading, sizePt: body + 2, bold: true, colour: look.text, font: look.titleFont }], afterPt: 8 };
        s.text(`Column ${i + 1}`, margin + i * (colW + gap), bodyY, colW, bodyH, [head, ...itemParas(col.items, false, look, body - 2)]);
      });
      break;
    }
    case 'statement':
      title(slide.title, top, titleH, look.titlePt);
      s.text('Body', margin * 2, bodyY + EMU_PER_CM, width - 2 * margin, bodyH - EMU_PER_CM, [
        { runs: [{ text: slide.text, sizePt: body + 2, colour: look.text, font: look.font }], align: 'l' },
      ]);
      break;
    case 'table':
      title(slide.title, top, titleH, look.titlePt);
      s.table(margin, bodyY, width, slide.table, look, look.wide ? 14 : 12);
      break;
  }
  if (furniture) {
    const footY = cy - 1.5 * EMU_PER_CM;
    const footH = 1.0 * EMU_PER_CM;
    const small = (text: string, align: 'l' | 'ctr' | 'r'): Para[] => [{ runs: [{ text, sizePt: 12, colour: look.text, font: look.font }], align }];
    if (furniture.header) s.text('Header', cx / 2, 0.55 * EMU_PER_CM, cx / 2 - margin, 0.9 * EMU_PER_CM, small(furniture.header, 'r'));
    if (furniture.left) s.text('Footer', margin, footY, width * 0.45, footH, small(furniture.left, 'l'), 'ctr');
    if (furniture.center) s.text('Date', margin + width * 0.5, footY, width * 0.3, footH, small(furniture.center, 'ctr'), 'ctr');
    if (furniture.number) s.text('Slide Number', margin + width * 0.8, footY, width * 0.2, footH, small(furniture.number, 'r'), 'ctr');
  }
  return (
    `${XML_HEAD}<p:sld ${NS}><p:cSld><p:bg><p:bgPr><a:solidFill><a:srgbClr val="${look.background}"/></a:solidFill><a:effectLst/></p:bgPr></p:bg>` +
    `<p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${s.xml.join('')}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`
  );
}

/**
 * The PPTX bytes of a deck: `furniture(i)` is slide i's (1-based), undefined for none.
 *
 * @example
 * const bytes = writePptx(slides, look, (n) => (n === 1 ? undefined : { number: '{N}' }));
 */
export function writePptx(slides: readonly Slide[], look: DeckLook, furniture: (slide: number) => SlideFurniture | undefined): Uint8Array {
  const [cx, cy] = slideSize(look.wide);
  return zip([
    { name: '[Content_Types].xml', data: contentTypes(slides.length) },
    { name: '_rels/.rels', data: rootRels() },
    { name: 'ppt/presentation.xml', data: presentation(slides.length, cx, cy) },
    { name: 'ppt/_rels/presentation.xml.rels', data: presentationRels(slides.length) },
    { name: 'ppt/slideMasters/slideMaster1.xml', data: master(look.background, look.font) },
    { name: 'ppt/slideMasters/_rels/slideMaster1.xml.rels', data: masterRels() },
    { name: 'ppt/slideLayouts/slideLayout1.xml', data: layout() },
    { name: 'ppt/slideLayouts/_rels/slideLayout1.xml.rels', data: layoutRels() },
    { name: 'ppt/theme/theme1.xml', data: theme(look.font) },
    ...slides.flatMap((slide, i) => [
      { name: `ppt/slides/slide${i + 1}.xml`, data: slideXml(slide, look, furniture(i + 1)) },
      { name: `ppt/slides/_rels/slide${i + 1}.xml.rels`, data: slideRels() },
    ]),
  ]);
}
