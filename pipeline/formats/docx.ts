/**
 * Word (DOCX, DOCM, Strict OOXML): paragraphs with their styles' heading levels, numbering as
 * nested and numbered lists, tables with `gridSpan`/`vMerge` as colspan/rowspan, text boxes in
 * reading order, equations as LaTeX, hyperlinks, emphasis, footnotes, headers and footers as
 * furniture. Tracked changes read as accepted (insertions kept, deletions dropped).
 */
import type { Block, ListItem, Span, TableCell } from './blocks.ts';
import { blockText, isBlank, spansText } from './blocks.ts';
import { cellsOf, choice, notes, pageBreaks, partTexts, rowsOf, settleLevels } from './docx-parts.ts';
import { isOn, WordNumbering, WordStyles } from './docx-styles.ts';
import { ommlToLatex } from './omml.ts';
import { mainPart, packageTitle, type Relationship, readPart, relatedPart, relationships } from './ooxml.ts';
import type { FormatDocument, FormatPage } from './types.ts';
import { attr, find, findAll, kid, kids, relId, textOf, type XmlElement } from './xml.ts';
import { openZip, packageMedia } from './zip.ts';

interface Format {
  readonly bold: boolean;
  readonly italic: boolean;
  readonly href?: string;
  /** Inside a tracked deletion that is shown. */
  readonly strike?: boolean;
}

export interface DocxOptions {
  /**
   * `accept` reads tracked changes as accepted and leaves comments out; `show` keeps deletions
   * struck through and comments as footnotes at their anchors.
   * @default 'accept'
   */
  readonly revisions?: 'accept' | 'show';
}

class WordReader {
  readonly #counters = new Map<string, number[]>();
  #depth = 0;
  /** Indexes of body blocks that start a new page (where Word last rendered a break, or a hard break). */
  readonly pageStarts: number[] = [];
  /** A hard page break ended the last body paragraph: the next one starts a page. */
  #breakPending = false;

  readonly styles: WordStyles;
  readonly numbering: WordNumbering;
  readonly rels: ReadonlyMap<string, Relationship>;
  readonly show: boolean;
  /** Comment texts by id (read only when revisions are shown), and those cited so far. */
  comments = new Map<string, string>();
  readonly cited: { id: string; text: string }[] = [];

  constructor(styles: WordStyles, numbering: WordNumbering, rels: ReadonlyMap<string, Relationship>, show = false) {
    this.styles = styles;
    this.numbering = numbering;
    this.rels = rels;
    this.show = show;
  }

  /** The blocks of a body, a table cell or a text box, in order. */
  walk(container: XmlElement | undefined, out: Block[] = []): Block[] {
    // Text boxes inside tables inside text boxes: bounded, so a crafted file cannot recurse forever.
    if (!container || this.#depth > 32) return out;
    this.#depth++;
    let list: ListItem[] | undefined;
    let code: string[] | undefined;
    const flush = (): void => {
      if (list) out.push({ kind: 'list', items: list });
      if (code) out.push({ kind: 'code', text: code.join('\n') });
      list = undefined;
      code = undefined;
    };
    for (const node of kids(container)) {
      if (node.local === 'p') {
        const breaks = this.#depth === 1 ? pageBreaks(node) : { before: false, after: false };
        if ((breaks.before || this.#breakPending) && (out.length > 0 || list || code)) {
          flush();
          this.pageStarts.push(out.length);
        }
        if (this.#depth === 1) this.#breakPending = breaks.after;
        const { block, item, codeLine, extras } = this.#paragraph(node);
        if (item) {
          if (code) flush();
          (list ??= []).push(item);
        } else if (codeLine !== undefined) {
          if (list) flush();
          (code ??= []).push(codeLine);
        } else if (block) {
          flush();
          out.push(block);
        }
        if (extras.length > 0) {
          flush();
          out.push(...extras);
        }
      } else if (node.local === 'tbl') {
        flush();
        out.push(...this.#table(node));
      } else if (node.local === 'sdt') {
        flush();
        this.walk(kid(node, 'sdtContent'), out);
      } else if (node.local === 'customXml' || node.local === 'ins' || node.local === 'moveTo' || node.local === 'txbxContent') {
        flush();
        this.walk(node, out);
      } else if (node.local === 'AlternateContent') {
        flush();
        this.walk(choice(node), out);
      }
    }
    flush();
    this.#depth--;
    return out;
  }

  #paragraph(p: XmlElement): { block?: Block; item?: ListItem; codeLine?: string; extras: Block[] } {
    const pPr = kid(p, 'pPr');
    const styleId = attr(kid(pPr, 'pStyle'), 'val');
    const base = this.styles.emphasis(styleId);
    const spans: Span[] = [];
    const extras: Block[] = [];
    this.#inline(p, { bold: base.bold, italic: base.italic }, spans, extras);
    if (isBlank(spans)) return { extras };
    const outline = attr(kid(pPr, 'outlineLvl'), 'val');
    const level = outline !== undefined && Number(outline) < 9 ? Number(outline) + 1 : this.styles.headingLevel(styleId);
    if (level > 0) return { block: { kind: 'heading', level, spans: spans.map((s) => ({ ...s, bold: false })) }, extras };
    const numPr = kid(pPr, 'numPr');
    const direct = attr(kid(numPr, 'numId'), 'val');
    const numbered = direct !== undefined ? { numId: direct, ilvl: Number(attr(kid(numPr, 'ilvl'), 'val') ?? 0) } : this.styles.numbering(styleId);
    if (numbered && numbered.numId !== '0') {
      const ilvl = Math.max(0, Math.min(8, Number(attr(kid(numPr, 'ilvl'), 'val') ?? numbered.ilvl) || 0));
      const def = this.numbering.level(numbered.numId, ilvl);
      if (def && def.format !== 'none') {
        const ordered = def.format !== 'bullet';
        const key = this.numbering.abstractOf(numbered.numId);
        const counters = this.#counters.get(key) ?? [];
        counters[ilvl] = (counters[ilvl] ?? def.start - 1) + 1;
        counters.length = ilvl + 1;
        this.#counters.set(key, counters);
        // An outline number (`1.2.`) is part of what the reader sees: kept as text on a bullet item.
        const outline = ordered ? this.numbering.outlineNumber(numbered.numId, ilvl, counters) : undefined;
        if (outline !== undefined) return { item: { spans: [{ text: `${outline} ` }, ...spans], level: ilvl, ordered: false }, extras };
        return { item: { spans, level: ilvl, ordered, ...(ordered ? { number: counters[ilvl]! } : {}) }, extras };
      }
    }
    if (this.styles.isCode(styleId)) return { codeLine: spansText(spans), extras };
    return { block: { kind: 'paragraph', spans }, extras };
  }

  #inline(node: XmlElement, format: Format, spans: Span[], extras: Block[]): void {
    for (const child of kids(node)) {
      switch (child.local) {
        case 'r':
          this.#run(child, format, spans, extras);
          break;
        case 'hyperlink': {
          const rel = this.rels.get(relId(child) ?? '');
          const anchor = attr(child, 'anchor');
          const href = rel?.external ? rel.target : anchor !== undefined ? `#${anchor}` : format.href;
          this.#inline(child, { ...format, ...(href === undefined ? {} : { href }) }, spans, extras);
          break;
        }
        case 'ins':
        case 'moveTo':
        case 'smartTag':
        case 'customXml':
        case 'fldSimple':
        case 'sdtContent':
        case 'bdo':
        case 'dir':
          this.#inline(child, format, spans, extras);
          break;
        case 'sdt':
          this.#inline(kid(child, 'sdtContent') ?? child, format, spans, extras);
          break;
        case 'del':
        case 'moveFrom':
          if (this.show) this.#inline(child, { ...format, strike: true }, spans, extras);
          break;
        case 'AlternateContent': {
          const picked = choice(child);
          if (picked) this.#inline(picked, format, spans, extras);
          break;
        }
        case 'oMath':
          spans.push({ text: ommlToLatex(child), math: true });
          break;
        case 'oMathPara':
          extras.push({ kind: 'formula', latex: ommlToLatex(child) });
          break;
        default:
          break;
      }
    }
  }

  #run(r: XmlElement, format: Format, spans: Span[], extras: Block[]): void {
    const rPr = kid(r, 'rPr');
    const style = attr(kid(rPr, 'rStyle'), 'val');
    const styled = style === undefined ? undefined : this.styles.emphasis(style);
    const bold = kid(rPr, 'b') ? isOn(kid(rPr, 'b')) : styled?.bold || format.bold;
    const italic = kid(rPr, 'i') ? isOn(kid(rPr, 'i')) : styled?.italic || format.italic;
    const hidden = kid(rPr, 'vanish') !== undefined && isOn(kid(rPr, 'vanish'));
    const push = (text: string): void => {
      if (!hidden) spans.push({ text, bold, italic, ...(format.strike ? { strike: true } : {}), ...(format.href === undefined ? {} : { href: format.href }) });
    };
    for (const child of kids(r)) {
      switch (child.local) {
        case 't':
          push(textOf(child));
          break;
        case 'delText':
          if (format.strike) push(textOf(child));
          break;
        case 'commentReference': {
          const id = attr(child, 'id') ?? '';
          const text = this.comments.get(id);
          if (this.show && text !== undefined) {
            if (!this.cited.some((c) => c.id === `c${id}`)) this.cited.push({ id: `c${id}`, text });
            spans.push({ text: `[^c${id}]`, raw: true });
          }
          break;
        }
        case 'tab':
        case 'br':
        case 'cr':
          push(' ');
          break;
        case 'noBreakHyphen':
          push('-');
          break;
        case 'footnoteReference':
        case 'endnoteReference': {
          const id = attr(child, 'id');
          if (id !== undefined) spans.push({ text: `[^${child.local === 'endnoteReference' ? 'e' : ''}${id}]`, raw: true });
          break;
        }
        case 'drawing':
        case 'pict':
        case 'object':
          this.#drawing(child, extras);
          break;
        case 'AlternateContent': {
          const picked = choice(child);
          if (picked) this.#run({ ...r, children: picked.children }, format, spans, extras);
          break;
        }
        default:
          break;
      }
    }
  }

  /** Text boxes (DrawingML or VML) become blocks after their paragraph; pictures become figures. */
  #drawing(node: XmlElement, extras: Block[]): void {
    const boxes = findAll(node, 'txbxContent');
    for (const box of boxes) this.walk(box, extras);
    const blip = find(node, 'blip');
    const imagedata = find(node, 'imagedata');
    if (boxes.length === 0 && (blip || imagedata)) {
      const docPr = find(node, 'docPr');
      const rel = this.rels.get((blip ? attr(blip, 'embed') : relId(imagedata)) ?? '');
      extras.push({ kind: 'figure', alt: attr(docPr, 'descr') ?? attr(docPr, 'title') ?? '', ...(rel && !rel.external ? { src: rel.target } : {}) });
    }
  }

  /** A table's block; a table of one cell is a layout frame, so its content is read as blocks. */
  #table(tbl: XmlElement): Block[] {
    const rowElements = rowsOf(tbl);
    const only = rowElements.length === 1 ? cellsOf(rowElements[0]!) : [];
    if (only.length === 1) return this.walk(only[0]);
    const rows: TableCell[][] = [];
    const owners: (TableCell & { rowspan: number })[][] = [];
    let flagged = false;
    for (const tr of rowElements) {
      const r = rows.length;
      const trPr = kid(tr, 'trPr');
      const header = isOn(kid(trPr, 'tblHeader'));
      flagged ||= header;
      let col = Number(attr(kid(trPr, 'gridBefore'), 'val') ?? 0) || 0;
      const row: TableCell[] = [];
      owners[r] = [];
      for (const tc of cellsOf(tr)) {
        const tcPr = kid(tc, 'tcPr');
        const span = Math.max(1, Math.min(1000, Number(attr(kid(tcPr, 'gridSpan'), 'val') ?? 1) || 1));
        const vMerge = kid(tcPr, 'vMerge');
        const above = r > 0 ? owners[r - 1]![col] : undefined;
        if (vMerge && attr(vMerge, 'val') !== 'restart' && above) {
          above.rowspan++;
          for (let c = col; c < col + span; c++) owners[r]![c] = above;
          col += span;
          continue;
        }
        const text = this.walk(tc)
          .map(blockText)
          .filter((t) => t !== '')
          .join(' ');
        const cell = { text, rowspan: 1, colspan: span, header };
        row.push(cell);
        for (let c = col; c < col + span; c++) owners[r]![c] = cell;
        col += span;
      }
      rows.push(row);
    }
    // Without a flagged header row, the first row is taken as the header, as Word's table styles draw it.
    if (!flagged && rows.length > 1) rows[0] = rows[0]!.map((cell) => ({ ...cell, header: true }));
    return [{ kind: 'table', rows }];
  }
}

/**
 * Read a DOCX package into one flowing page of blocks.
 *
 * @example
 * const doc = readDocx(bytes);
 * doc.pages[0].blocks // [{ kind: 'heading', level: 1, … }, …]
 */
export function readDocx(bytes: Uint8Array, options: Readonly<DocxOptions> = {}): FormatDocument {
  const { revisions = 'accept' } = options;
  const zip = openZip(bytes);
  const main = mainPart(zip, 'word/document.xml');
  const rels = relationships(zip, main);
  const part = (suffix: string, fallback: string): XmlElement | undefined => readPart(zip, relatedPart(rels, suffix) ?? fallback);
  const reader = new WordReader(
    new WordStyles(part('/styles', 'word/styles.xml')),
    new WordNumbering(part('/numbering', 'word/numbering.xml')),
    rels,
    revisions === 'show',
  );
  if (revisions === 'show') reader.comments = new Map(notes(zip, reader, relatedPart(rels, '/comments'), '').map((c) => [c.id, c.text]));
  const document = readPart(zip, main);
  const blocks = settleLevels(reader.walk(kid(document, 'body')));
  const headers = partTexts(zip, reader, rels, '/header');
  const footers = partTexts(zip, reader, rels, '/footer');
  const footnotes = [...notes(zip, reader, relatedPart(rels, '/footnotes'), ''), ...notes(zip, reader, relatedPart(rels, '/endnotes'), 'e')];
  // Pages as Word last laid them out: citations can name a page; notes go with the last page.
  const starts = [0, ...new Set(reader.pageStarts.filter((i) => i > 0 && i < blocks.length))].sort((a, b) => a - b);
  const pages: FormatPage[] = starts.map((start, i) => ({ blocks: blocks.slice(start, starts[i + 1] ?? blocks.length), headers, footers }));
  pages[pages.length - 1] = { ...pages[pages.length - 1]!, footnotes: [...footnotes, ...reader.cited] };
  return { format: 'docx', pages, media: packageMedia(zip), ...packageTitle(zip) };
}
