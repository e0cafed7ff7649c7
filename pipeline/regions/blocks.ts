/**
 * Tagged page Markdown as blocks (each starts with its grounding line), and back: regions read by
 * an engine are put in among them by position, and tags read on a crop are moved onto the page.
 */
type Box = readonly [number, number, number, number];

export interface TaggedBlock {
  readonly markdown: string;
  readonly label: string;
  /** On the page's 0–999 grid; undefined for text before the first tag. */
  readonly box?: Box;
  /** Engine and confidence of a block read from the page's pixels. */
  readonly engine?: string;
  readonly confidence?: number;
  /** For a figure whose words are labels (a chart, a map): the words, as the figure element's text. */
  readonly figureText?: string;
}

const TAG = /^<\|ref\|>([^<]*)<\|\/ref\|><\|det\|>\[\[\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*\]\]<\|\/det\|>/;

/** Split at each grounding line that starts a block. */
export function splitBlocks(markdown: string): TaggedBlock[] {
  return markdown
    .split(/\n\n(?=<\|ref\|>)/)
    .filter((part) => part.trim() !== '')
    .map((part) => {
      const m = TAG.exec(part);
      if (m === null) return { markdown: part, label: '' };
      return { markdown: part, label: m[1]!, box: [Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])] };
    });
}

export function joinBlocks(blocks: readonly TaggedBlock[]): string {
  return blocks.map((b) => b.markdown.replace(/\n+$/, '')).join('\n\n');
}

/**
 * Tags of Markdown read from a crop (on the crop's grid) → tags on the page's grid, relabelled
 * when `label` is given.
 */
export function moveTags(markdown: string, crop: Box, pageWidth: number, pageHeight: number, label?: string): string {
  const cw = crop[2] - crop[0];
  const ch = crop[3] - crop[1];
  const gx = (v: number): number => Math.max(0, Math.min(999, Math.round(((crop[0] + (v / 999) * cw) / pageWidth) * 999)));
  const gy = (v: number): number => Math.max(0, Math.min(999, Math.round(((crop[1] + (v / 999) * ch) / pageHeight) * 999)));
  return markdown.replace(
    /<\|ref\|>([^<]*)<\|\/ref\|><\|det\|>\[\[\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*\]\]<\|\/det\|>/g,
    (_all, own: string, x0: string, y0: string, x1: string, y1: string) =>
      `<|ref|>${label ?? own}<|/ref|><|det|>[[${gx(Number(x0))}, ${gy(Number(y0))}, ${gx(Number(x1))}, ${gy(Number(y1))}]]<|/det|>`,
  );
}

/** A box in points → the 0–999 grid. */
export function toGrid(box: Box, pageWidth: number, pageHeight: number): Box {
  const g = (v: number, size: number): number => Math.max(0, Math.min(999, Math.round((v / size) * 999)));
  return [g(box[0], pageWidth), g(box[1], pageHeight), g(box[2], pageWidth), g(box[3], pageHeight)];
}

/**
 * Put `added` (read from a region at `box`, page grid) among `blocks` in reading order: before
 * the first block of the region's column (one overlapping it across) that starts below the
 * region's top; after the column's last block when none does; page footers stay last.
 */
export function insertInOrder(blocks: readonly TaggedBlock[], added: readonly TaggedBlock[], box: Box): TaggedBlock[] {
  const across = (b: TaggedBlock): boolean => b.box !== undefined && Math.min(b.box[2], box[2]) - Math.max(b.box[0], box[0]) > 0;
  const body = (b: TaggedBlock): boolean => b.label !== 'page_header' && b.label !== 'page_footer';
  let at = blocks.findIndex((b) => body(b) && across(b) && (b.box as Box)[1] >= box[1]);
  if (at === -1) {
    let last = -1;
    blocks.forEach((b, i) => {
      if (body(b) && across(b)) last = i;
    });
    if (last !== -1) at = last + 1;
  }
  if (at === -1) {
    // No block of the column: before the footers, after the headers and body.
    const footer = blocks.findIndex((b) => b.label === 'page_footer');
    at = footer === -1 ? blocks.length : footer;
  }
  return [...blocks.slice(0, at), ...added, ...blocks.slice(at)];
}

/**
 * Blocks read from one region in reading order, top to bottom and left to right, the blocks of one
 * row joined into one: a line of large, widely spaced words (a wordmark, a banner) can come back
 * as a block per word, in the order of a frame the engine turned.
 */
export function regionRows(blocks: readonly TaggedBlock[]): TaggedBlock[] {
  const placed = blocks.filter((b) => b.box !== undefined).sort((a, b) => (a.box as Box)[1] - (b.box as Box)[1]);
  const rows: TaggedBlock[][] = [];
  for (const block of placed) {
    const [, y0, , y1] = block.box as Box;
    const row = rows.find((r) => {
      const [, ry0, , ry1] = r[0]!.box as Box;
      return Math.min(y1, ry1) - Math.max(y0, ry0) > 0.5 * Math.min(y1 - y0, ry1 - ry0);
    });
    if (row !== undefined && block.label !== 'table' && row[0]!.label !== 'table') row.push(block);
    else rows.push([block]);
  }
  return rows.map((row) => {
    if (row.length === 1) return row[0]!;
    row.sort((a, b) => (a.box as Box)[0] - (b.box as Box)[0]);
    const first = row[0]!;
    const box: Box = [
      Math.min(...row.map((b) => (b.box as Box)[0])),
      Math.min(...row.map((b) => (b.box as Box)[1])),
      Math.max(...row.map((b) => (b.box as Box)[2])),
      Math.max(...row.map((b) => (b.box as Box)[3])),
    ];
    const bodyOf = (b: TaggedBlock): string => b.markdown.slice(b.markdown.indexOf('\n') + 1).trim();
    const text = [bodyOf(first), ...row.slice(1).map((b) => bodyOf(b).replace(/^#+\s+/, ''))].join(' ');
    const line = `<|ref|>${first.label}<|/ref|><|det|>[[${box.join(', ')}]]<|/det|>`;
    return { ...first, box, markdown: `${line}\n${text}` };
  });
}
