/**
 * Generated documents with known page furniture: seeded pages of body text (a heading now and
 * then, paragraphs, a footnote at the foot of some pages) with running heads, footers and page
 * numbers in one of several house styles, drawn with pdf-lib so every line's text and role is
 * known. The styles are kinds seen in books, journals, reports and slides, not copies of any
 * one dev page; a share of the documents has no furniture at all, so precision is measured too.
 */
import type { PDFFont, PDFPage } from 'pdf-lib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Random } from '../scans/index.ts';

/** What a generated page holds: its furniture lines and its body text, in reading order. */
export interface FurniturePageTruth {
  readonly furniture: readonly string[];
  readonly body: string;
}

export interface GeneratedDocument {
  readonly name: string;
  readonly style: string;
  readonly pdf: Uint8Array;
  readonly pages: readonly FurniturePageTruth[];
}

const WORDS = (
  'the of and to in that is was for on are with as by this be at from or an which have not they were all ' +
  'soil water crop field yield season farm land grain root seed market price trade river road town county ' +
  'method result sample measure value table figure report study model system process growth rate change ' +
  'school student teacher course lesson library reading public service council budget policy member record ' +
  'engine power energy cell heat battery supply design test unit panel station network signal control ' +
  'early later often usually between under after before during within across among against around several ' +
  'important general common simple small large higher lower greater annual local national regional'
).split(' ');

const TITLES = ['British Husbandry', 'Journal of Applied Studies', 'Annual Report', 'Rural Economy', 'The Practical Engineer', 'Proceedings of the Society'];
const COMPANIES = ['NORTHFIELD ENERGY SYSTEMS, INC.', 'ALDER & GREY LLP', 'MERIDIAN INSTRUMENTS LTD', 'HARBOUR COUNTY COUNCIL'];
const ROMAN = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', 'xi', 'xii'];

/** House styles: how a document places its furniture. */
export const FURNITURE_STYLES = ['book', 'journal', 'report', 'roman', 'letterhead', 'chapter', 'slide', 'none'] as const;
export type FurnitureStyle = (typeof FURNITURE_STYLES)[number];

interface Sizes {
  readonly width: number;
  readonly height: number;
  readonly margin: number;
  readonly body: number;
}

function sentence(random: Random): string {
  const n = 8 + Math.floor(random.next() * 12);
  const words = Array.from({ length: n }, () => random.pick(WORDS));
  const text = words.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** Greedy line breaking at the given width. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`;
    if (line !== '' && font.widthOfTextAtSize(next, size) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * One document of `pageCount` pages in a house style.
 *
 * @example
 * const doc = await generateDocument('book-1', 'book', 3, seededRandom('x'));
 */
export async function generateDocument(name: string, style: FurnitureStyle, pageCount: number, random: Random): Promise<GeneratedDocument> {
  const pdf = await PDFDocument.create();
  const family = random.pick([
    [StandardFonts.TimesRoman, StandardFonts.TimesRomanBold],
    [StandardFonts.Helvetica, StandardFonts.HelveticaBold],
  ] as const);
  const font = await pdf.embedFont(family[0]);
  const bold = await pdf.embedFont(family[1]);
  const format =
    style === 'slide'
      ? { width: 720, height: 540 }
      : random.pick([
          { width: 595, height: 842 },
          { width: 612, height: 792 },
          { width: 396, height: 612 },
        ]);
  const body = style === 'slide' ? 16 + random.next() * 4 : format.width < 500 ? 9.5 + random.next() : 10 + random.next() * 1.5;
  const sizes: Sizes = { ...format, margin: format.width < 500 ? 42 : 64, body };
  const title = random.pick(TITLES);
  const company = random.pick(COMPANIES);
  const firstNumber = style === 'roman' ? 1 : 1 + Math.floor(random.next() * 400);
  const pages: FurniturePageTruth[] = [];
  for (let p = 0; p < pageCount; p++) {
    const page = pdf.addPage([sizes.width, sizes.height]);
    const number = firstNumber + p;
    const furniture = drawFurniture(page, style, { font, bold, sizes, title, company, number, pageCount, index: p, random });
    const body = drawBody(page, { font, bold, sizes, random, first: p === 0, style });
    pages.push({ furniture, body });
  }
  return { name, style, pdf: await pdf.save(), pages };
}

interface FurnitureContext {
  readonly font: PDFFont;
  readonly bold: PDFFont;
  readonly sizes: Sizes;
  readonly title: string;
  readonly company: string;
  readonly number: number;
  readonly pageCount: number;
  readonly index: number;
  readonly random: Random;
}

/** Draw the page's furniture; returns its lines as a reader sees them (left to right). */
function drawFurniture(page: PDFPage, style: FurnitureStyle, c: FurnitureContext): string[] {
  const { font, sizes, title, company, number, pageCount, index } = c;
  const { width, height, margin, body } = sizes;
  const small = body * 0.85;
  const top = height - margin * 0.6;
  const bottom = margin * 0.55;
  const at = (text: string, x: number, y: number, size: number, f: PDFFont = font): void => page.drawText(text, { x, y, size, font: f });
  const centre = (text: string, y: number, size: number, f: PDFFont = font): void => at(text, (width - f.widthOfTextAtSize(text, size)) / 2, y, size, f);
  const right = (text: string, y: number, size: number): void => at(text, width - margin - font.widthOfTextAtSize(text, size), y, size);
  switch (style) {
    case 'book': {
      // Running head in capitals with the page number at the outer edge, as old books set it.
      const head = `${title.toUpperCase()}.`;
      const even = number % 2 === 0;
      if (even) at(String(number), margin, top, body);
      else right(String(number), top, body);
      centre(head, top, small);
      return even ? [`${number} ${head}`] : [`${head} ${number}`];
    }
    case 'journal': {
      // Journal name left, volume right at the top; a centred `Page n of N` at the foot.
      const volume = `Vol. ${3 + (number % 9)}, No. ${1 + (number % 4)}`;
      at(title, margin, top, small);
      right(volume, top, small);
      const foot = `Page ${index + 1} of ${pageCount}`;
      centre(foot, bottom, small);
      return [`${title} ${volume}`, foot];
    }
    case 'report': {
      // A footer line with the site and date, the page number at the right of the same line.
      const foot = `www.${title.toLowerCase().replace(/[^a-z]+/g, '')}.org | March 2014`;
      at(foot, margin, bottom, small);
      right(String(number), bottom, small);
      return [`${foot} ${number}`];
    }
    case 'roman': {
      // Front matter: a centred roman page number at the foot, nothing at the top.
      const roman = ROMAN[(number - 1) % ROMAN.length]!;
      centre(roman, bottom, body);
      return [roman];
    }
    case 'letterhead': {
      // A company's name and tagline at the bottom left, a date line at the right.
      const tagline = 'A member of the Alder Group';
      at(company, margin, bottom + small * 1.3, small, c.bold);
      at(tagline, margin, bottom, small * 0.9);
      const date = `Issued ${1 + (index % 28)} June 2015`;
      right(date, bottom, small * 0.9);
      return [company, tagline, date];
    }
    case 'chapter': {
      // The chapter's title at the top right in body size, only repetition tells it from text;
      // a dashed page number centred at the foot.
      const head = `Chapter ${(title.length % 9) + 1}: ${title}`;
      right(head, top, body);
      const foot = `- ${number} -`;
      centre(foot, bottom, small);
      return [head, foot];
    }
    case 'slide': {
      // A slide's foot: the event at the left, the slide number at the right.
      const event = `${title.split(' ')[0]!.toUpperCase()} MEETING 2015`;
      at(event, margin * 0.6, bottom * 0.7, small * 0.7);
      right(String(index + 1), bottom * 0.7, small * 0.7);
      return [event, String(index + 1)];
    }
    case 'none':
      return [];
  }
}

interface BodyContext {
  readonly font: PDFFont;
  readonly bold: PDFFont;
  readonly sizes: Sizes;
  readonly random: Random;
  readonly first: boolean;
  readonly style: FurnitureStyle;
}

/** Fill the text block: a heading on first pages, paragraphs, sometimes a footnote at its foot. */
function drawBody(page: PDFPage, c: BodyContext): string {
  const { font, bold, sizes, random } = c;
  const { width, height, margin, body } = sizes;
  const lead = body * 1.3;
  const textWidth = width - 2 * margin;
  const parts: string[] = [];
  let y = height - margin * 1.5;
  const footnote = random.next() < 0.35 ? `1 ${sentence(random)}` : undefined;
  const floor = margin * 1.6 + (footnote === undefined ? 0 : lead * 3);
  if (c.first || random.next() < 0.25) {
    const heading = sentence(random).replace(/\.$/, '').split(' ').slice(0, 6).join(' ');
    const size = body * 1.5;
    page.drawText(heading, { x: margin, y: y - size, size, font: bold });
    parts.push(heading);
    y -= size + lead * 1.2;
  }
  while (y - lead > floor) {
    const text = Array.from({ length: 3 + Math.floor(random.next() * 4) }, () => sentence(random)).join(' ');
    const lines = wrap(text, font, body, textWidth);
    const kept: string[] = [];
    for (const line of lines) {
      if (y - lead <= floor) break;
      y -= lead;
      page.drawText(line, { x: margin, y, size: body, font });
      kept.push(line);
    }
    parts.push(kept.join('\n'));
    y -= lead * 0.6;
  }
  if (footnote !== undefined) {
    const size = body * 0.8;
    const lines = wrap(footnote, font, size, textWidth);
    let fy = margin * 1.6 + lead * 1.5;
    for (const line of lines.slice(0, 2)) {
      page.drawText(line, { x: margin, y: fy, size, font });
      fy -= size * 1.25;
    }
    parts.push(lines.slice(0, 2).join('\n'));
  }
  return parts.join('\n\n');
}
