/**
 * HTML for the `scripts` family, written beside its truth: headings, paragraphs, label/value
 * pairs, tables with a header row and a spanning total, and the page around them (direction,
 * language, Noto fonts, sizes and rulings drawn per document) with Chromium's header and footer
 * templates for running heads and page numbers.
 */
import type { Random } from '../../scans/random.ts';
import type { ChromiumPrint, PageFurniture, TruthBlock, TruthCell } from '../types.ts';

export const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A document being written: its HTML body and its truth, in the same order. */
export interface HtmlDraft {
  readonly html: string[];
  readonly blocks: TruthBlock[];
}

export function heading(d: HtmlDraft, text: string, level: 1 | 2 | 3): void {
  d.html.push(`<h${level}>${escapeHtml(text)}</h${level}>`);
  d.blocks.push({ kind: 'heading', level, text });
}

export function paragraph(d: HtmlDraft, text: string): void {
  d.html.push(`<p>${escapeHtml(text)}</p>`);
  d.blocks.push({ kind: 'paragraph', text });
}

/** A bulleted list (numbered lists are left to left-to-right pages: an RTL list number prints beside the item's first number and reorders with it). */
export function list(d: HtmlDraft, items: readonly string[], ordered: boolean): void {
  const tag = ordered ? 'ol' : 'ul';
  d.html.push(`<${tag}>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</${tag}>`);
  d.blocks.push({ kind: 'list', ordered, items: items.map((text) => ({ text, depth: 0 })) });
}

/** Label/value pairs, one a line (`label: value`): the truth is a paragraph per line. */
export function pairLines(d: HtmlDraft, pairs: readonly (readonly [string, string])[], colon: string): void {
  for (const [label, value] of pairs) {
    // `colon` carries its own space (`: `), or none (Chinese `：`).
    const space = colon.endsWith(' ') ? ' ' : '';
    d.html.push(`<p class="pair"><b>${escapeHtml(label)}${colon.trim()}</b>${space}${escapeHtml(value)}</p>`);
    d.blocks.push({ kind: 'paragraph', text: `${label}${colon}${value}` });
  }
}

/** Label/value pairs in a table, `perRow` pairs to a row; labels are header cells. */
export function pairTable(d: HtmlDraft, pairs: readonly (readonly [string, string])[], perRow: 1 | 2): void {
  const cells: TruthCell[] = [];
  const rows: string[] = [];
  for (let r = 0; r * perRow < pairs.length; r++) {
    const row = pairs.slice(r * perRow, (r + 1) * perRow);
    rows.push(`<tr>${row.map(([l, v]) => `<th>${escapeHtml(l)}</th><td>${escapeHtml(v)}</td>`).join('')}</tr>`);
    row.forEach(([l, v], i) => {
      cells.push({ row: r, col: i * 2, rowspan: 1, colspan: 1, text: l, header: true });
      cells.push({ row: r, col: i * 2 + 1, rowspan: 1, colspan: 1, text: v, header: false });
    });
  }
  // A last row with one pair of two leaves its slots empty: they are not cells.
  d.html.push(`<table class="form">${rows.join('')}</table>`);
  d.blocks.push({ kind: 'table', table: { rows: rows.length, cols: perRow * 2, headerRows: 0, cells } });
}

/**
 * A data table with one header row, and optionally a total row whose label spans all columns but
 * the last.
 */
export function dataTable(
  d: HtmlDraft,
  header: readonly string[],
  body: readonly (readonly string[])[],
  total?: readonly [string, string],
  caption?: string,
): void {
  const cols = header.length;
  const cells: TruthCell[] = header.map((text, col) => ({ row: 0, col, rowspan: 1, colspan: 1, text, header: true }));
  body.forEach((row, r) => row.forEach((text, col) => cells.push({ row: r + 1, col, rowspan: 1, colspan: 1, text, header: false })));
  const rows = [
    `<thead><tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead>`,
    `<tbody>${body.map((row) => `<tr>${row.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('')}`,
  ];
  if (total) {
    const r = body.length + 1;
    cells.push(
      { row: r, col: 0, rowspan: 1, colspan: cols - 1, text: total[0], header: true },
      { row: r, col: cols - 1, rowspan: 1, colspan: 1, text: total[1], header: false },
    );
    rows.push(`<tr class="total"><th colspan="${cols - 1}">${escapeHtml(total[0])}</th><td>${escapeHtml(total[1])}</td></tr>`);
  }
  rows.push('</tbody>');
  const cap = caption ? `<caption>${escapeHtml(caption)}</caption>` : '';
  d.html.push(`<table class="data">${cap}${rows.join('')}</table>`);
  d.blocks.push({ kind: 'table', table: { rows: body.length + 1 + (total ? 1 : 0), cols, headerRows: 1, cells }, ...(caption ? { caption } : {}) });
}

/** The look of a page, drawn per document. */
export interface PageLook {
  readonly lang: string;
  readonly dir: 'rtl' | 'ltr';
  /** CSS font-family stacks, one drawn per document. */
  readonly fonts: readonly string[];
}

/** The whole HTML page: fonts, size, leading, colours and table rulings from `random`. */
export function pageHtml(random: Random, look: PageLook, title: string, body: readonly string[]): string {
  const font = random.pick(look.fonts);
  const size = random.pick([12, 13, 14, 15]);
  const leading = random.pick([1.4, 1.6, 1.8]);
  const accent = random.pick(['#000', '#1a3c6e', '#5b1a1a', '#0f4d3a', '#333']);
  const ruling = random.pick([
    'table.data td,table.data th{border:1px solid #888}',
    'table.data{border-top:2px solid #000;border-bottom:2px solid #000}table.data thead th{border-bottom:1px solid #000}',
    'table.data tbody tr:nth-child(even){background:#eef2f7}table.data thead th{background:#dde4ee}',
  ]);
  const form = random.pick(['table.form th,table.form td{border:1px solid #999}', 'table.form td{border-bottom:1px dotted #666}']);
  const css = [
    `body{font-family:${font};font-size:${size}px;line-height:${leading};color:#111;margin:0}`,
    `h1{font-size:1.7em;color:${accent};margin:0 0 .6em}`,
    `h2{font-size:1.3em;color:${accent};margin:1.2em 0 .4em;break-after:avoid}`,
    'table{border-collapse:collapse;margin:.8em 0;width:100%}',
    // Chinese names in cells break at spaces only: a name wrapped mid-word reads, line by line
    // across the row, interleaved with its neighbour's.
    'td,th{padding:.3em .6em;text-align:start;vertical-align:top;word-break:keep-all}',
    'caption{caption-side:top;font-weight:bold;padding:.3em;text-align:start}',
    'tr{break-inside:avoid}',
    'p.pair{margin:.3em 0}',
    ruling,
    form,
  ].join('\n');
  return `<!doctype html><html lang="${look.lang}" dir="${look.dir}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${css}</style></head><body>${body.join('\n')}</body></html>`;
}

/** Running head and page number, printed by Chromium's templates (which do not move the body). */
export interface PageTemplates {
  readonly print: ChromiumPrint;
  furniture(page: number, pages: number): PageFurniture;
}

/**
 * The print settings and per-page furniture: a head of fixed text (or none) and a page number in
 * the language's own words or a neutral form, on every page. `wide` pages (tables of six
 * columns) are never A5 and half of them landscape.
 */
export function pageTemplates(random: Random, look: PageLook, head: string, pageLabel: string, wide = false): PageTemplates {
  const font = random.pick(look.fonts);
  const format = random.pick(wide ? (['A4', 'Letter'] as const) : (['A4', 'A4', 'Letter', 'A5'] as const));
  const landscape = wide && random.next() < 0.5;
  const side = format === 'A5' ? random.pick([12, 15]) : random.pick([15, 18, 22, 25]);
  const withHead = random.next() < 0.65;
  // `1 / 2` in a right-to-left line prints as `2 / 1` (the slash between numbers takes the line's
  // direction): right-to-left pages number in words or with one number.
  const label = random.pick(look.dir === 'rtl' ? [pageLabel, pageLabel, '- N -', 'N'] : [pageLabel, pageLabel, 'N / M', '- N -', 'N']);
  const style = (align: string): string =>
    `style="font-family:${font.replace(/"/g, "'")};font-size:9px;width:100%;padding:0 ${side}mm;text-align:${align};color:#444" dir="${look.dir}" lang="${look.lang}"`;
  const spans = escapeHtml(label).replace('N', '<span class="pageNumber"></span>').replace('M', '<span class="totalPages"></span>');
  const footAlign = random.pick(['center', 'start', 'end']);
  const print: ChromiumPrint = {
    format,
    ...(landscape ? { landscape } : {}),
    margin: { top: `${withHead ? 22 : 16}mm`, bottom: '20mm', left: `${side}mm`, right: `${side}mm` },
    // An empty head is explicit: with a footer template alone Chromium prints its default head (date, title).
    headerTemplate: withHead ? `<div ${style(random.pick(['start', 'end', 'center']))}>${escapeHtml(head)}</div>` : '<span></span>',
    footerTemplate: `<div ${style(footAlign)}>${spans}</div>`,
  };
  return {
    print,
    furniture: (n, m) => ({ header: withHead ? [head] : [], footer: [label.replace('N', `${n}`).replace('M', `${m}`)] }),
  };
}
