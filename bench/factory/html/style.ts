/**
 * A seeded look for an HTML document: font, size, leading, paper, margins and the running heads and
 * feet as CSS `@page` margin boxes. The furniture truth comes from the same choices, so what is
 * printed and what is recorded cannot drift apart.
 */
import type { Random } from '../../scans/random.ts';
import type { ChromiumPrint, PageFurniture } from '../types.ts';

const FONTS = [
  "'Liberation Serif'",
  "'Liberation Sans'",
  "'DejaVu Serif'",
  "'DejaVu Sans'",
  "'Noto Serif'",
  "'Noto Sans'",
  "'DejaVu Sans Condensed'",
  "'Liberation Sans Narrow'",
] as const;

export type PageNumberStyle = 'plain' | 'page' | 'page-of' | 'dashes' | 'slash' | 'roman';

/** How a page number prints, as CSS content and as the truth's text. */
const NUMBER_FORMS: Record<PageNumberStyle, { css: string; text: (n: number, of: number) => string }> = {
  plain: { css: 'counter(page)', text: (n) => String(n) },
  page: { css: '"Page " counter(page)', text: (n) => `Page ${n}` },
  'page-of': { css: '"Page " counter(page) " of " counter(pages)', text: (n, of) => `Page ${n} of ${of}` },
  dashes: { css: '"– " counter(page) " –"', text: (n) => `– ${n} –` },
  slash: { css: 'counter(page) " / " counter(pages)', text: (n, of) => `${n} / ${of}` },
  roman: { css: 'counter(page, lower-roman)', text: (n) => roman(n) },
};

export function roman(n: number): string {
  const table: [number, string][] = [
    [10, 'x'],
    [9, 'ix'],
    [5, 'v'],
    [4, 'iv'],
    [1, 'i'],
  ];
  let out = '';
  let rest = n;
  for (const [value, letters] of table)
    while (rest >= value) {
      out += letters;
      rest -= value;
    }
  return out;
}

type Slot = 'left' | 'center' | 'right';

/** The running furniture of a document: which text sits where, on which pages. */
export interface FurniturePlan {
  /** Running head text (a short title, an organisation); none when undefined. */
  readonly head?: string;
  /** On left (even) pages a second running head, as books set the title on one side and the chapter on the other. */
  readonly evenHead?: string;
  readonly headSlot: Slot;
  /** A constant line in the foot (a notice, an address). */
  readonly foot?: string;
  readonly footSlot: Slot;
  readonly number?: PageNumberStyle;
  readonly numberAt: 'head' | 'foot';
  readonly numberSlot: Slot;
  /** The first page carries no running head (and no number when `firstBare` is 'all'). */
  readonly firstBare: 'none' | 'head' | 'all';
}

/**
 * Furniture a browser prints itself (Chromium's header and footer templates): a date and the
 * title at the top, an address and the page number at the foot, in small type on every page,
 * as web pages saved to PDF carry them.
 */
export interface TemplatePlan {
  readonly date: string;
  readonly title: string;
  readonly address: string;
  /** `n/m` or `Page n of m`. */
  readonly pageOf: boolean;
}

/** The template furniture of page `page` of `pages`, as printed. */
export function templateFurniture(plan: TemplatePlan, page: number, pages: number): PageFurniture {
  return { header: [plan.date, plan.title], footer: [plan.address, plan.pageOf ? `Page ${page} of ${pages}` : `${page}/${pages}`] };
}

function templates(plan: TemplatePlan): Pick<ChromiumPrint, 'headerTemplate' | 'footerTemplate'> {
  const style = "font-size: 8px; font-family: 'DejaVu Sans', sans-serif; width: 100%; margin: 0 12mm; display: flex; justify-content: space-between;";
  const e = (t: string): string => t.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
  return {
    headerTemplate: `<div style="${style}"><span>${e(plan.date)}</span><span>${e(plan.title)}</span></div>`,
    footerTemplate: `<div style="${style}"><span>${e(plan.address)}</span><span>${plan.pageOf ? 'Page <span class="pageNumber"></span> of <span class="totalPages"></span>' : '<span class="pageNumber"></span>/<span class="totalPages"></span>'}</span></div>`,
  };
}

export interface HtmlLook {
  readonly font: string;
  readonly sizePt: number;
  readonly leading: number;
  readonly print: ChromiumPrint;
  readonly furniture: FurniturePlan;
  /** Set when the browser's own templates print the furniture instead of `@page` margin boxes. */
  readonly templates?: TemplatePlan;
  /** The furniture of page `page` of `pages`, whichever way it is printed. */
  furnitureOf(page: number, pages: number): PageFurniture;
  /** CSS for the body (fonts, headings, tables), without the `@page` rules. */
  readonly css: string;
  /** `@page` rules with the margin boxes. */
  readonly pageCss: string;
}

const esc = (s: string): string => s.replaceAll('\\', '\\\\').replaceAll('"', '\\"');

/** `@page` margin boxes for the plan: CSS paged media as a report designer writes it. */
function pageRules(plan: FurniturePlan, sizePt: number): string {
  const boxes = (page: 'first' | 'left' | 'right'): string => {
    const rules: string[] = [];
    const bare = page === 'first' ? plan.firstBare : 'none';
    const head = page === 'left' && plan.evenHead !== undefined ? plan.evenHead : plan.head;
    const put = (at: 'top' | 'bottom', slot: Slot, content: string): void => {
      rules.push(`@${at}-${slot} { content: ${content}; font-size: ${(sizePt * 0.8).toFixed(1)}pt; }`);
    };
    const empty = new Set<string>();
    if (head !== undefined && bare === 'none') {
      put('top', plan.headSlot, `"${esc(head)}"`);
      empty.add(`top-${plan.headSlot}`);
    }
    if (plan.foot !== undefined) {
      put('bottom', plan.footSlot, `"${esc(plan.foot)}"`);
      empty.add(`bottom-${plan.footSlot}`);
    }
    if (plan.number !== undefined && bare !== 'all') {
      const at = plan.numberAt === 'head' ? 'top' : 'bottom';
      if (!empty.has(`${at}-${plan.numberSlot}`)) put(at, plan.numberSlot, NUMBER_FORMS[plan.number].css);
    }
    // What the first page leaves out must be cleared explicitly: `@page :first` inherits the rest.
    if (page === 'first')
      for (const slot of ['left', 'center', 'right'] as const)
        for (const at of ['top', 'bottom'] as const) if (!rules.some((r) => r.startsWith(`@${at}-${slot} `))) rules.push(`@${at}-${slot} { content: none; }`);
    return rules.join(' ');
  };
  return `@page { ${boxes('right')} } @page :left { ${boxes('left')} } @page :right { ${boxes('right')} } @page :first { ${boxes('first')} }`;
}

/** The furniture lines of page `page` of `pages` under the plan, as printed. */
export function furnitureOf(plan: FurniturePlan, page: number, pages: number): PageFurniture {
  const header: string[] = [];
  const footer: string[] = [];
  const first = page === 1;
  const bare = first ? plan.firstBare : 'none';
  // Chromium starts on a right-hand page: even pages are left pages.
  const head = page % 2 === 0 && plan.evenHead !== undefined ? plan.evenHead : plan.head;
  let headOccupies: Slot | undefined;
  if (head !== undefined && bare === 'none') {
    header.push(head);
    headOccupies = plan.headSlot;
  }
  if (plan.foot !== undefined) footer.push(plan.foot);
  if (plan.number !== undefined && bare !== 'all') {
    const taken = plan.numberAt === 'head' ? headOccupies === plan.numberSlot : plan.foot !== undefined && plan.footSlot === plan.numberSlot;
    if (!taken) (plan.numberAt === 'head' ? header : footer).push(NUMBER_FORMS[plan.number].text(page, pages));
  }
  return { header, footer };
}

export interface LookOptions {
  readonly title: string;
  readonly organisation: string;
  /** The document has running furniture at all. @default true */
  readonly furniture?: boolean;
}

/** Draw a look. */
export function drawLook(random: Random, { title, organisation, furniture = true }: Readonly<LookOptions>): HtmlLook {
  const font = random.pick(FONTS);
  const sizePt = Math.round(random.uniform(9.5, 12) * 2) / 2;
  const leading = Math.round(random.uniform(1.2, 1.6) * 100) / 100;
  const margin = (lo: number, hi: number): string => `${Math.round(random.uniform(lo, hi))}mm`;
  const print: ChromiumPrint = {
    format: random.pick(['A4', 'A4', 'Letter', 'A5'] as const),
    margin: { top: margin(18, 30), bottom: margin(18, 30), left: margin(14, 28), right: margin(14, 28) },
  };
  const slot = (): Slot => random.pick(['left', 'center', 'right'] as const);
  const shortTitle = title.length > 40 ? `${title.slice(0, title.lastIndexOf(' ', 40))}` : title;
  const plan: FurniturePlan = furniture
    ? {
        head: random.next() < 0.75 ? random.pick([shortTitle, organisation, `${organisation} — ${shortTitle}`]) : undefined,
        evenHead: random.next() < 0.25 ? organisation : undefined,
        headSlot: slot(),
        foot:
          random.next() < 0.4
            ? random.pick([
                `${organisation} · Internal`,
                `© ${organisation}`,
                'Confidential — do not distribute',
                `${organisation}, ${2015 + Math.floor(random.next() * 11)}`,
              ])
            : undefined,
        footSlot: slot(),
        number: random.next() < 0.9 ? random.pick(['plain', 'page', 'page-of', 'dashes', 'slash', 'roman'] as const) : undefined,
        numberAt: random.next() < 0.8 ? 'foot' : 'head',
        numberSlot: slot(),
        firstBare: random.pick(['none', 'head', 'head', 'all'] as const),
      }
    : { headSlot: 'center', footSlot: 'center', numberAt: 'foot', numberSlot: 'center', firstBare: 'none' };
  const heading = random.pick(['inherit', "'DejaVu Sans'", "'Liberation Sans'", "'Noto Sans'"]);
  const css = [
    `body { font-family: ${font}, 'DejaVu Sans', sans-serif; font-size: ${sizePt}pt; line-height: ${leading}; margin: 0; color: #111; }`,
    `h1, h2, h3 { font-family: ${heading === 'inherit' ? font : heading}, sans-serif; line-height: 1.2; break-after: avoid; }`,
    `h1 { font-size: ${(sizePt * random.uniform(1.6, 2.2)).toFixed(1)}pt; margin: 0 0 0.6em; }`,
    `h2 { font-size: ${(sizePt * random.uniform(1.25, 1.5)).toFixed(1)}pt; margin: 1.1em 0 0.4em; }`,
    `h3 { font-size: ${(sizePt * random.uniform(1.05, 1.2)).toFixed(1)}pt; margin: 0.9em 0 0.3em; font-style: ${random.pick(['normal', 'italic'])}; }`,
    `p { margin: 0 0 ${random.pick(['0.6em', '0.8em', '0'])}; text-align: ${random.pick(['left', 'justify'])}; ${random.next() < 0.3 ? 'text-indent: 1.2em;' : ''} }`,
    'table { border-collapse: collapse; margin: 0.8em 0; break-inside: avoid; font-size: 0.92em; }',
    'th, td { padding: 2pt 6pt; vertical-align: top; text-align: left; }',
    'td.num { text-align: right; }',
    'figure { margin: 0.8em 0; break-inside: avoid; } figcaption, .caption { font-size: 0.9em; font-style: italic; margin: 0.3em 0; }',
    "pre { font-family: 'DejaVu Sans Mono', 'Liberation Mono', monospace; font-size: 0.85em; background: #f3f3f3; padding: 6pt; white-space: pre; break-inside: avoid; }",
    'ul, ol { margin: 0.3em 0 0.7em; } li { margin: 0.1em 0; }',
    '.columns h1 { column-span: all; }',
  ].join('\n');
  if (furniture && random.next() < 0.25) {
    const slug = title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    const tpl: TemplatePlan = {
      date: `${1 + Math.floor(random.next() * 28)}/${1 + Math.floor(random.next() * 12)}/${2018 + Math.floor(random.next() * 8)}, ${1 + Math.floor(random.next() * 12)}:${String(Math.floor(random.next() * 60)).padStart(2, '0')} ${random.pick(['AM', 'PM'])}`,
      title: shortTitle,
      address: `https://${random.pick(['docs', 'intranet', 'wiki', 'kb'])}.${organisation
        .split(' ')[0]!
        .toLowerCase()
        .replace(/[^a-z]/g, '')}.example/${slug.slice(0, 40)}`,
      pageOf: random.next() < 0.5,
    };
    return {
      font,
      sizePt,
      leading,
      print: { ...print, margin: { ...print.margin, top: '22mm', bottom: '22mm' }, ...templates(tpl) },
      furniture: plan,
      templates: tpl,
      furnitureOf: (page, pages) => templateFurniture(tpl, page, pages),
      css,
      pageCss: '',
    };
  }
  return { font, sizePt, leading, print, furniture: plan, furnitureOf: (page, pages) => furnitureOf(plan, page, pages), css, pageCss: pageRules(plan, sizePt) };
}
