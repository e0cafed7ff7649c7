/**
 * Reports and manuals printed by Chromium from HTML with CSS paged media: running heads and feet in
 * `@page` margin boxes, one to three columns, tables in five rulings with spanning headers, figures
 * with captions, code and lists.
 */
import type { Random } from '../../scans/random.ts';
import type { Corpus } from '../corpus/index.ts';
import { blocksHtml } from '../html/body.ts';
import { drawLook } from '../html/style.ts';
import { figuresTable, wordsTable } from '../html/tables.ts';
import type { Family, PlannedDocument, TruthBlock } from '../types.ts';

const ORGANISATIONS = [
  'Northwind Research Group',
  'Harbor Valley Council',
  'Meridian Systems Ltd',
  'Office of Technical Standards',
  'Alder & Finch Consulting',
  'Riverside Health Trust',
  'Institute for Applied Computing',
  'Cobalt Logistics',
  'Greenfield University Press',
  'Atlas Infrastructure Board',
];

const KINDS = ['Annual Report', 'Technical Manual', 'Project Review', 'User Guide', 'Design Notes', 'Status Report', 'Handbook'];

/** A section: a heading, paragraphs, maybe a list, a table, a figure or code, maybe subsections. */
function section(
  random: Random,
  corpus: Corpus,
  options: { number?: string; tables: number[]; figures: number[]; variant: string; level: number },
  out: TruthBlock[],
  figureAt: Set<number>,
): void {
  const heading = corpus.draw(random, corpus.headings, 1)[0]!;
  out.push({ kind: 'heading', level: options.level, text: options.number ? `${options.number} ${heading}` : heading });
  const paragraphs = 2 + Math.floor(random.next() * 3);
  for (const p of corpus.draw(random, corpus.paragraphs, paragraphs)) out.push({ kind: 'paragraph', text: p });
  const roll = random.next();
  if (roll < 0.25) {
    const ordered = random.next() < 0.4;
    const items = corpus.draw(random, corpus.items, 3 + Math.floor(random.next() * 4)).map((text) => ({ text, depth: 0 }));
    // Some lists nest a level under their second item.
    if (items.length >= 4 && random.next() < 0.4) items[2] = { ...items[2]!, depth: 1 };
    out.push({ kind: 'list', ordered, items });
  } else if (roll < 0.5 && options.variant !== 'three-column') {
    const n = options.tables.length + 1;
    options.tables.push(n);
    const table = random.next() < 0.7 ? figuresTable(random, corpus) : wordsTable(random, corpus);
    out.push({ kind: 'table', table, caption: `Table ${n}: ${corpus.draw(random, corpus.headings, 1)[0]}` });
  } else if (roll < 0.65) {
    const n = options.figures.length + 1;
    options.figures.push(n);
    figureAt.add(out.length);
    out.push({ kind: 'caption', text: `Figure ${n}. ${corpus.draw(random, corpus.headings, 1)[0]}` });
  } else if (roll < 0.8 && options.variant === 'manual') {
    out.push({ kind: 'code', text: corpus.draw(random, corpus.code, 1)[0]! });
  }
  for (const p of corpus.draw(random, corpus.paragraphs, Math.floor(random.next() * 2))) out.push({ kind: 'paragraph', text: p });
}

export const reportFamily: Family = {
  name: 'report',
  description:
    'reports and manuals printed by Chromium: @page running heads and feet, 1–3 columns, ruled/unruled/spanning tables, figures with captions, code, lists',
  variants: ['report', 'manual', 'two-column', 'three-column', 'brief'],
  weight: 1.4,
  plan(variant, { random, corpus, id }): PlannedDocument {
    const organisation = random.pick(ORGANISATIONS);
    const subject = corpus.draw(random, corpus.headings, 1)[0]!;
    const title = `${subject}: ${random.pick(KINDS)}`;
    const look = drawLook(random, { title, organisation, furniture: variant !== 'brief' || random.next() < 0.5 });
    const blocks: TruthBlock[] = [{ kind: 'heading', level: 1, text: title }];
    const figureAt = new Set<number>();
    if (random.next() < 0.6)
      blocks.push({
        kind: 'paragraph',
        text: `${organisation}, ${random.pick(['January', 'March', 'June', 'September', 'November'])} ${2016 + Math.floor(random.next() * 10)}`,
      });
    const sections = variant === 'brief' ? 1 + Math.floor(random.next() * 2) : 3 + Math.floor(random.next() * 5);
    const numbered = variant === 'manual' || random.next() < 0.3;
    const state = { tables: [] as number[], figures: [] as number[], variant };
    for (let s = 0; s < sections; s++) {
      section(random, corpus, { ...state, number: numbered ? `${s + 1}.` : undefined, level: 2 }, blocks, figureAt);
      if (variant === 'manual' && random.next() < 0.5)
        section(random, corpus, { ...state, number: numbered ? `${s + 1}.1` : undefined, level: 3 }, blocks, figureAt);
    }
    const body = blocksHtml(blocks, random, figureAt);
    const columns = variant === 'two-column' ? 2 : variant === 'three-column' ? 3 : 1;
    const columnCss =
      columns > 1 ? `.columns { column-count: ${columns}; column-gap: ${random.pick(['6mm', '8mm', '10mm'])}; } .columns table { font-size: 0.8em; }` : '';
    // The title spans the columns; the rest flows through them.
    const [first, ...rest] = body.html.split('\n');
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><style>${look.pageCss}\n${look.css}\n${columnCss}\n${body.css}</style></head><body>${
      columns > 1 ? `${first}<div class="columns">${rest.join('\n')}</div>` : body.html
    }</body></html>`;
    return {
      id,
      family: 'report',
      variant,
      source: { renderer: 'chromium', html, print: look.print },
      blocks,
      title,
      furniture: (page, pages) => look.furnitureOf(page, pages),
    };
  },
};
