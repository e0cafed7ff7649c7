/**
 * The `slides` family: short PPTX decks the family writes, printed by LibreOffice Impress one page
 * per slide: a title slide without furniture, then bullet, numbered, two-column, statement and
 * table slides with footer text, a date and the slide number on every one. Truth: each slide's
 * title a heading, its bullets list items (nesting as depth), its table's cells.
 */
import type { Random } from '../../scans/random.ts';
import type { Corpus } from '../corpus/index.ts';
import type { Family, PlanContext, PlannedDocument, TruthBlock } from '../types.ts';
import { reportTitle } from './office/bodies.ts';
import { company, date, figureTable, int, person, role } from './office/content.ts';
import { type DeckLook, type Items, type Slide, type SlideFurniture, writePptx } from './office/pptx.ts';

const VARIANTS = ['wide', 'standard', 'dark', 'minimal'] as const;

const LIGHT = ['FFFFFF', 'FFFFFF', 'F8FAFC', 'FFFBEB'];
const DARK = ['1F2937', '0F172A', '2D1B4E', '13322B'];
const ACCENTS_LIGHT = ['1D4ED8', 'B91C1C', '047857', '6D28D9', '0E7490', '9A3412'];
const ACCENTS_DARK = ['93C5FD', 'FCD34D', '6EE7B7', 'F9A8D4'];
const FONTS = ['Liberation Sans', 'DejaVu Sans', 'Noto Sans', 'Liberation Serif', 'Noto Serif', 'DejaVu Sans Condensed'];

function lookFor(variant: string, random: Random): DeckLook {
  const dark = variant === 'dark';
  const font = random.pick(FONTS);
  return {
    wide: variant !== 'standard' && random.next() < 0.8,
    font,
    titleFont: random.next() < 0.6 ? font : random.pick(FONTS),
    background: random.pick(dark ? DARK : LIGHT),
    text: dark ? 'F3F4F6' : random.pick(['000000', '1F2937', '374151']),
    accent: random.pick(dark ? ACCENTS_DARK : ACCENTS_LIGHT),
    titlePt: random.pick([28, 30, 32, 36]),
    bodyPt: random.pick([18, 20, 20, 22, 24]),
    bar: random.next() < 0.4,
  };
}

/** Items that fit a box `widthPt` × `heightPt` at `sizePt` (estimated by average glyph width), at least two. */
function fitItems(random: Random, corpus: Corpus, widthPt: number, heightPt: number, sizePt: number, maxDepth: number): Items {
  const perLine = Math.floor(widthPt / (sizePt * 0.55));
  const pool = corpus.draw(random, corpus.items, 8);
  const out: { text: string; depth: number }[] = [];
  let used = 0;
  let depth = 0;
  for (const text of pool) {
    if (out.length > 0) depth = Math.max(0, Math.min(maxDepth, depth + random.pick([-1, 0, 0, 1])));
    const lines = Math.ceil(text.length / Math.max(10, perLine - depth * 4));
    const cost = lines * sizePt * 1.25 + sizePt * 0.45;
    if (out.length >= 2 && (used + cost > heightPt * 0.85 || out.length >= 6)) break;
    used += cost;
    out.push({ text, depth });
  }
  return out;
}

const EVENTS = ['Quarterly Review', 'Team Offsite', 'Engineering All-Hands', 'Customer Workshop', 'Product Update', 'Board Briefing', 'Onboarding Session'];

function plan(variant: string, { random, corpus, id }: Readonly<PlanContext>): PlannedDocument {
  if (!(VARIANTS as readonly string[]).includes(variant)) throw new RangeError(`slides: no variant ${variant}; expected ${VARIANTS.join(', ')}`);
  const look = lookFor(variant, random);
  const firm = company(random);
  const event = `${random.pick(EVENTS)} ${int(random, 2023, 2026)}`;
  const when = date(random, random.pick(['uk', 'us'] as const));
  // Furniture of content slides; the title slide has none.
  const withDate = variant !== 'minimal' && random.next() < 0.4;
  const deckFoot = {
    header: variant === 'standard' ? random.pick([firm, 'Confidential', `${firm} - internal`]) : undefined,
    left: variant === 'minimal' ? undefined : random.pick([firm, `${firm} | ${event}`, event]),
    center: withDate ? when : undefined,
    number: random.pick(['field', 'field', 'slide', 'of'] as const),
  };
  const title = reportTitle(random, corpus);
  const slides: Slide[] = [{ kind: 'title', title, lines: [`${person(random)}, ${role(random)}`, ...(withDate ? [] : [when])] }];
  const [cx] = look.wide ? [960] : [720];
  const widthPt = cx - 2 * 34;
  const bodyHeightPt = 373;
  const heads = corpus.draw(random, corpus.headings, 12);
  const content = int(random, 1, 3);
  const kinds = ['bullets', 'bullets', 'numbered', 'columns', 'statement', 'table'] as const;
  for (let i = 0; i < content; i++) {
    const kind = random.pick(kinds);
    const t = heads[i]!;
    if (kind === 'bullets' || kind === 'numbered') {
      slides.push({
        kind: 'bullets',
        title: t,
        ordered: kind === 'numbered',
        items: fitItems(random, corpus, widthPt, bodyHeightPt, look.bodyPt, kind === 'bullets' ? 1 : 0),
      });
    } else if (kind === 'columns') {
      const columns = [0, 1].map((c) => ({
        heading: heads[6 + c]!,
        items: fitItems(random, corpus, (widthPt - 23) / 2, bodyHeightPt - 40, look.bodyPt - 2, 0),
      }));
      slides.push({ kind: 'columns', title: t, columns });
    } else if (kind === 'statement') {
      const text = random.pick(corpus.paragraphs.filter((p) => p.length <= (look.wide ? 380 : 260)));
      slides.push({ kind: 'statement', title: t, text });
    } else {
      slides.push({ kind: 'table', title: t, table: figureTable(random, corpus, { spans: random.next() < 0.5, maxCols: look.wide ? 6 : 5 }) });
    }
  }
  // An agenda of the slides to come where there are enough of them; a closing slide now and then.
  if (content >= 3 && random.next() < 0.5) {
    const agenda = random.pick(['Agenda', 'Overview', 'Outline', 'Today']);
    slides.splice(1, 0, { kind: 'bullets', title: agenda, ordered: random.next() < 0.5, items: slides.slice(1).map((x) => ({ text: x.title, depth: 0 })) });
  }
  if (random.next() < 0.3) {
    slides.push({
      kind: 'closing',
      title: random.pick(['Thank you', 'Questions?', 'Thank you for listening', 'Discussion']),
      lines: [`${person(random)}, ${role(random)}`],
    });
  }
  const n = slides.length;
  const numberText = (p: number, pages: number, field: boolean): string =>
    deckFoot.number === 'field' ? (field ? '{N}' : String(p)) : deckFoot.number === 'slide' ? (field ? 'Slide {N}' : `Slide ${p}`) : `${p} of ${pages}`;
  const furnitureOf = (p: number): SlideFurniture | undefined =>
    p === 1
      ? undefined
      : {
          ...(deckFoot.header ? { header: deckFoot.header } : {}),
          ...(deckFoot.left ? { left: deckFoot.left } : {}),
          ...(deckFoot.center ? { center: deckFoot.center } : {}),
          number: numberText(p, n, true),
        };
  const blocks: TruthBlock[] = slides.flatMap((s): TruthBlock[] => {
    switch (s.kind) {
      case 'title':
      case 'closing':
        return [{ kind: 'heading', level: s.kind === 'title' ? 1 : 2, text: s.title }, ...s.lines.map((text): TruthBlock => ({ kind: 'paragraph', text }))];
      case 'bullets':
        return [
          { kind: 'heading', level: 2, text: s.title },
          { kind: 'list', ordered: s.ordered, items: s.items },
        ];
      case 'columns':
        return [
          { kind: 'heading', level: 2, text: s.title },
          ...s.columns.flatMap((c): TruthBlock[] => [
            { kind: 'heading', level: 3, text: c.heading },
            { kind: 'list', ordered: false, items: c.items },
          ]),
        ];
      case 'statement':
        return [
          { kind: 'heading', level: 2, text: s.title },
          { kind: 'paragraph', text: s.text },
        ];
      case 'table':
        return [
          { kind: 'heading', level: 2, text: s.title },
          { kind: 'table', table: s.table },
        ];
    }
  });
  return {
    id,
    family: 'slides',
    variant,
    source: { renderer: 'libreoffice', extension: 'pptx', bytes: writePptx(slides, look, furnitureOf) },
    blocks,
    title,
    furniture: (page, pages) =>
      page === 1
        ? { header: [], footer: [] }
        : {
            header: deckFoot.header ? [deckFoot.header] : [],
            footer: [...(deckFoot.left ? [deckFoot.left] : []), ...(deckFoot.center ? [deckFoot.center] : []), numberText(page, pages, false)],
          },
  };
}

/**
 * Short decks written as PPTX and printed by LibreOffice Impress, one page per slide.
 *
 * @example
 * const doc = await slidesFamily.plan('wide', { random: seededRandom('s/slides-wide-001'), corpus, index: 0, id: 'slides-wide-001' });
 */
export const slidesFamily: Family = {
  name: 'slides',
  description: 'Slide decks (PPTX) printed by LibreOffice Impress: title, bullet, two-column, statement and table slides with footers and slide numbers',
  variants: VARIANTS,
  plan,
};
