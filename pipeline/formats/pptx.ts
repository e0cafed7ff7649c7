/**
 * PowerPoint (PPTX, PPTM): one page per slide in presentation order; the title placeholder as a
 * heading, body placeholders as lists (unless bullets are turned off), other text boxes as
 * paragraphs (lists where they set bullets), tables with spans, grouped shapes in order, pictures
 * by their description.
 */
import { SourceError } from '../../core/errors.ts';
import type { Block, ListItem, Span, TableCell } from './blocks.ts';
import { isBlank } from './blocks.ts';
import { chartBlocks, drawingCharts } from './chart.ts';
import { mainPart, packageTitle, type Relationship, readPart, relationships } from './ooxml.ts';
import type { FormatDocument, FormatPage } from './types.ts';
import { attr, find, findAll, kid, kids, relId, textOf, type XmlElement } from './xml.ts';
import { openZip, packageMedia, type ZipArchive } from './zip.ts';

export interface PptxOptions {
  /**
   * Most slides read.
   * @default 10000
   */
  readonly maxSlides?: number;
}

function runs(p: XmlElement, rels: ReadonlyMap<string, Relationship>): Span[] {
  const spans: Span[] = [];
  for (const r of kids(p)) {
    if (r.local === 'br') spans.push({ text: ' ' });
    if (r.local !== 'r' && r.local !== 'fld') continue;
    const rPr = kid(r, 'rPr');
    const link = rels.get(relId(kid(rPr, 'hlinkClick')) ?? '');
    spans.push({
      text: textOf(kid(r, 't')),
      bold: attr(rPr, 'b') === '1' || attr(rPr, 'b') === 'true',
      italic: attr(rPr, 'i') === '1' || attr(rPr, 'i') === 'true',
      ...(link?.external ? { href: link.target } : {}),
    });
  }
  return spans;
}

/** The blocks of one text body: paragraphs, and list items where bullets are on. */
function textBody(body: XmlElement, placeholder: string | undefined, rels: ReadonlyMap<string, Relationship>, out: Block[]): void {
  const title = placeholder === 'title' || placeholder === 'ctrTitle';
  if (title) {
    const spans = kids(body, 'p').flatMap((p, i) => [...(i > 0 ? [{ text: ' ' }] : []), ...runs(p, rels)]);
    if (!isBlank(spans)) out.push({ kind: 'heading', level: 1, spans: spans.map((s) => ({ ...s, bold: false })) });
    return;
  }
  let list: ListItem[] | undefined;
  const flush = (): void => {
    if (list) out.push({ kind: 'list', items: list });
    list = undefined;
  };
  for (const p of kids(body, 'p')) {
    const spans = runs(p, rels);
    if (isBlank(spans)) continue;
    const pPr = kid(p, 'pPr');
    const explicit = kid(pPr, 'buChar') !== undefined || kid(pPr, 'buAutoNum') !== undefined;
    // A body placeholder inherits bullets from the master; `buNone` turns them off.
    const bulleted = kid(pPr, 'buNone') === undefined && (explicit || placeholder === 'body');
    if (bulleted) {
      (list ??= []).push({ spans, level: Math.min(8, Number(attr(pPr, 'lvl') ?? 0) || 0), ordered: kid(pPr, 'buAutoNum') !== undefined });
    } else {
      flush();
      out.push({ kind: 'paragraph', spans });
    }
  }
  flush();
}

function table(tbl: XmlElement): Block {
  const rows: TableCell[][] = [];
  kids(tbl, 'tr').forEach((tr, r) => {
    const row: TableCell[] = [];
    for (const tc of kids(tr, 'tc')) {
      // Covered cells of a merge are written but marked; only the origin cell carries the spans.
      if (attr(tc, 'hMerge') === '1' || attr(tc, 'vMerge') === '1') continue;
      const text = kids(kid(tc, 'txBody'), 'p')
        .map((p) => textOf(p).trim())
        .filter((t) => t !== '')
        .join(' ');
      row.push({ text, rowspan: Number(attr(tc, 'rowSpan') ?? 1) || 1, colspan: Number(attr(tc, 'gridSpan') ?? 1) || 1, header: r === 0 });
    }
    rows.push(row);
  });
  return { kind: 'table', rows };
}

/** Where a shape sits (its `a:off`), for reading order; titles first, shapes without a position keep their place. */
function position(shape: XmlElement): { y: number; x: number; title: boolean } {
  const ph = find(kid(shape, 'nvSpPr'), 'ph');
  const title = ph !== undefined && /^(title|ctrTitle)$/.test(attr(ph, 'type') ?? '');
  const off = find(kid(shape, 'spPr') ?? kid(shape, 'xfrm') ?? kid(shape, 'grpSpPr') ?? shape, 'off');
  return { y: Number(attr(off, 'y') ?? Number.NaN), x: Number(attr(off, 'x') ?? Number.NaN), title };
}

/** One shape's blocks. */
function shapeBlocks(shape: XmlElement, rels: ReadonlyMap<string, Relationship>, depth: number, zip?: ZipArchive): Block[] {
  const out: Block[] = [];
  switch (shape.local) {
    case 'sp': {
      const ph = find(kid(shape, 'nvSpPr'), 'ph');
      const type = ph === undefined ? undefined : (attr(ph, 'type') ?? 'body');
      const body = kid(shape, 'txBody');
      if (body) textBody(body, type, rels, out);
      break;
    }
    case 'graphicFrame': {
      const tbl = find(shape, 'tbl');
      if (tbl) out.push(table(tbl));
      else if (zip) for (const chart of drawingCharts(shape, rels)) out.push(...chartBlocks(zip, chart));
      break;
    }
    case 'grpSp':
      shapes(shape, rels, out, depth + 1, zip);
      break;
    case 'pic': {
      const cNvPr = find(shape, 'cNvPr');
      const rel = rels.get(attr(find(shape, 'blip'), 'embed') ?? '');
      out.push({ kind: 'figure', alt: attr(cNvPr, 'descr') ?? '', ...(rel && !rel.external ? { src: rel.target } : {}) });
      break;
    }
    case 'AlternateContent':
      shapes(kid(shape, 'Choice') ?? kid(shape, 'Fallback'), rels, out, depth + 1, zip);
      break;
    default:
      break;
  }
  return out;
}

/** A shape tree in reading order: the title, then top to bottom, left to right where positions are known. */
function shapes(tree: XmlElement | undefined, rels: ReadonlyMap<string, Relationship>, out: Block[], depth = 0, zip?: ZipArchive): void {
  if (!tree || depth > 32) return;
  const placed = kids(tree)
    .map((shape, index) => ({ shape, index, ...position(shape) }))
    .filter((s) => s.shape.local !== 'nvGrpSpPr' && s.shape.local !== 'grpSpPr');
  const sorted = [...placed].sort((a, b) => {
    if (a.title !== b.title) return a.title ? -1 : 1;
    if (Number.isNaN(a.y) || Number.isNaN(b.y)) return a.index - b.index;
    // Shapes whose tops are within a small band read left to right.
    return Math.abs(a.y - b.y) > 100_000 ? a.y - b.y : a.x - b.x || a.index - b.index;
  });
  for (const { shape } of sorted) out.push(...shapeBlocks(shape, rels, depth, zip));
}

/** The speaker notes of a slide: the body placeholder of its notes slide. */
function notesOf(zip: ZipArchive, slideRels: ReadonlyMap<string, Relationship>): string[] {
  const out: string[] = [];
  for (const rel of slideRels.values()) {
    if (rel.external || !rel.type.endsWith('/notesSlide')) continue;
    for (const shape of findAll(readPart(zip, rel.target), 'sp')) {
      const ph = find(kid(shape, 'nvSpPr'), 'ph');
      if (attr(ph, 'type') !== 'body') continue;
      const text = kids(kid(shape, 'txBody'), 'p')
        .map((p) => textOf(p).trim())
        .filter((t) => t !== '')
        .join(' ');
      if (text !== '') out.push(text);
    }
  }
  return out;
}

/**
 * Read a PPTX deck: one page per slide.
 *
 * @example
 * readPptx(bytes).pages[0].blocks[0] // { kind: 'heading', level: 1, … } (the slide title)
 */
export function readPptx(bytes: Uint8Array, options: Readonly<PptxOptions> = {}): FormatDocument {
  const { maxSlides = 10000 } = options;
  const zip = openZip(bytes);
  const main = mainPart(zip, 'ppt/presentation.xml');
  const rels = relationships(zip, main);
  const ids = kids(kid(readPart(zip, main), 'sldIdLst'), 'sldId');
  if (ids.length > maxSlides) throw new SourceError('FOLIO_FORMAT_TOO_LARGE', `the deck has ${ids.length} slides, more than ${maxSlides}`);
  const pages: FormatPage[] = [];
  for (const [i, id] of ids.entries()) {
    const rel = rels.get(relId(id) ?? '');
    if (!rel || rel.external) continue;
    const slideRels = relationships(zip, rel.target);
    const blocks: Block[] = [];
    shapes(find(readPart(zip, rel.target), 'spTree'), slideRels, blocks, 0, zip);
    const title = blocks.find((b) => b.kind === 'heading');
    const notes = notesOf(zip, slideRels);
    pages.push({
      blocks,
      slide: i + 1,
      ...(notes.length > 0 ? { notes } : {}),
      ...(title?.kind === 'heading' ? { label: title.spans.map((s) => s.text).join('') } : {}),
    });
  }
  return { format: 'pptx', pages, media: packageMedia(zip), ...packageTitle(zip) };
}
