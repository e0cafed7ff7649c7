/**
 * Helpers of the Word reader: table rows and cells through content controls, the modern choice of
 * `mc:AlternateContent`, heading levels settled once the whole document is read, and the parts
 * beside the body (headers, footers, notes).
 */
import type { Block } from './blocks.ts';
import { blockText } from './blocks.ts';
import { isOn } from './docx-styles.ts';
import { type Relationship, readPart } from './ooxml.ts';
import { attr, kid, kids, textOf, type XmlElement } from './xml.ts';
import type { ZipArchive } from './zip.ts';

/** Raw heading level of a Title paragraph, placed above every `Heading N` until levels are settled. */
export const TITLE = 0.5;

/** What the helpers need of the reader: blocks of a container. */
export interface BlockWalker {
  walk(container: XmlElement | undefined): Block[];
}

export function rowsOf(tbl: XmlElement): XmlElement[] {
  return kids(tbl).flatMap((c) => (c.local === 'tr' ? [c] : c.local === 'sdt' || c.local === 'customXml' ? rowsOf(kid(c, 'sdtContent') ?? c) : []));
}

export function cellsOf(tr: XmlElement): XmlElement[] {
  return kids(tr).flatMap((c) => (c.local === 'tc' ? [c] : c.local === 'sdt' || c.local === 'customXml' ? cellsOf(kid(c, 'sdtContent') ?? c) : []));
}

/** `mc:AlternateContent`: the modern choice when there is one, else the fallback. */
export function choice(node: XmlElement): XmlElement | undefined {
  return kid(node, 'Choice') ?? kid(node, 'Fallback');
}

/** Title above `Heading 1` only when the document has a Title: levels become 1–6. */
export function settleLevels(blocks: Block[]): Block[] {
  const hasTitle = blocks.some((b) => b.kind === 'heading' && b.level === TITLE);
  return blocks.map((b) =>
    b.kind === 'heading' ? { ...b, level: Math.min(6, b.level === TITLE ? 1 : hasTitle ? Math.floor(b.level) + 1 : Math.floor(b.level)) } : b,
  );
}

export function partTexts(zip: ZipArchive, reader: BlockWalker, rels: ReadonlyMap<string, Relationship>, type: string): string[] {
  const out = new Set<string>();
  for (const rel of rels.values()) {
    if (rel.external || !rel.type.endsWith(type)) continue;
    const part = readPart(zip, rel.target);
    const text = reader.walk(part).map(blockText).join(' ').replace(/\s+/g, ' ').trim();
    if (text !== '') out.add(text);
  }
  return [...out];
}

export function notes(zip: ZipArchive, reader: BlockWalker, path: string | undefined, prefix: string): { id: string; text: string }[] {
  if (path === undefined) return [];
  return kids(readPart(zip, path))
    .filter((note) => (note.local === 'footnote' || note.local === 'endnote' || note.local === 'comment') && (attr(note, 'type') ?? 'normal') === 'normal')
    .map((note) => ({
      id: `${prefix}${attr(note, 'id') ?? ''}`,
      text: reader.walk(note).map(blockText).join(' ').replace(/\s+/g, ' ').trim(),
    }))
    .filter((note) => note.text !== '');
}

/**
 * Where a body paragraph meets a page: it begins one (`pageBreakBefore`, a rendered break, a hard
 * break before its text) or ends one (a hard break after its text).
 */
export function pageBreaks(p: XmlElement): { before: boolean; after: boolean } {
  let before = isOn(kid(kid(p, 'pPr'), 'pageBreakBefore'));
  let after = false;
  let text = false;
  const visit = (node: XmlElement): void => {
    for (const c of kids(node)) {
      if (c.local === 't' && textOf(c).trim() !== '') {
        text = true;
        after = false;
      } else if (c.local === 'lastRenderedPageBreak' && !text) before = true;
      else if (c.local === 'br' && attr(c, 'type') === 'page') {
        if (text) after = true;
        else before = true;
      } else if (c.local !== 'txbxContent') visit(c);
    }
  };
  visit(p);
  return { before, after };
}
