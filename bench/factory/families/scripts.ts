/**
 * The `scripts` family: right-to-left and CJK documents printed by Chromium — Arabic forms and
 * reports, Hebrew meeting notes, Persian forms (Persian digits where the locale prints them),
 * Chinese reports, Korean forms, and a left-to-right glossary of names in five scripts beside
 * English. Text comes from ICU (`scripts-text.ts`); the truth is in logical order, as a correct
 * reader returns it, whatever order the glyphs are drawn in.
 */
import type { Random } from '../../scans/random.ts';
import type { Family, PlanContext, PlannedDocument } from '../types.ts';
import { dataTable, type HtmlDraft, heading, list, type PageLook, pageHtml, pageTemplates, pairLines, pairTable, paragraph } from './scripts-html.ts';
import { benchParagraphs, COUNTRIES, drawDate, fill, type Namer, namer, type ScriptLanguage, shuffle, WORDS } from './scripts-text.ts';

export const SCRIPT_VARIANTS = ['arabic-form', 'arabic-report', 'hebrew-notes', 'persian-form', 'chinese-report', 'korean-form', 'mixed-glossary'] as const;

interface Setting {
  readonly language: ScriptLanguage;
  /** Locales drawn from: `ar-EG` prints Arabic-Indic digits, `ar` Latin ones. */
  readonly locales: readonly string[];
  readonly script: string;
  readonly dir: 'rtl' | 'ltr';
  readonly fonts: readonly string[];
}

const SETTINGS: Readonly<Record<ScriptLanguage, Setting>> = {
  ar: {
    language: 'ar',
    locales: ['ar', 'ar-EG'],
    script: 'arabic',
    dir: 'rtl',
    fonts: ['"Noto Naskh Arabic", "Noto Serif", serif', '"Noto Sans Arabic", "Noto Sans", sans-serif', '"Noto Kufi Arabic", "Noto Sans", sans-serif'],
  },
  he: {
    language: 'he',
    locales: ['he'],
    script: 'hebrew',
    dir: 'rtl',
    fonts: ['"Noto Sans Hebrew", "Noto Sans", sans-serif', '"Noto Serif Hebrew", "Noto Serif", serif'],
  },
  fa: {
    language: 'fa',
    locales: ['fa'],
    script: 'persian',
    dir: 'rtl',
    fonts: ['"Noto Naskh Arabic", "Noto Serif", serif', '"Noto Sans Arabic", "Noto Sans", sans-serif'],
  },
  zh: { language: 'zh', locales: ['zh'], script: 'chinese', dir: 'ltr', fonts: ['"Noto Sans CJK SC", sans-serif', '"Noto Serif CJK SC", serif'] },
  ko: { language: 'ko', locales: ['ko'], script: 'korean', dir: 'ltr', fonts: ['"Noto Sans CJK KR", sans-serif', '"Noto Serif CJK KR", serif'] },
};

/**
 * `count` filled sentences of distinct templates, none already in the document (`used`), joined
 * as the script joins them (CJK without spaces).
 */
function sentences(r: Random, names: Namer, pool: readonly string[], count: number, cjk: boolean, used: Set<string>): string {
  const out: string[] = [];
  for (const template of shuffle(r, pool)) {
    if (out.length === count) break;
    const sentence = fill(template, r, names);
    if (used.has(sentence)) continue;
    used.add(sentence);
    out.push(sentence);
  }
  return out.join(cjk ? '' : ' ');
}

/** Rows of countries: name, currency, and a third and fourth column as asked. */
function countryRows(r: Random, names: Namer, count: number, withLanguage: boolean): { rows: string[][]; sum: number } {
  const picked: (typeof COUNTRIES)[number][] = [];
  while (picked.length < count) {
    const c = r.pick(COUNTRIES);
    if (!picked.includes(c)) picked.push(c);
  }
  let sum = 0;
  const rows = picked.map((c) => {
    const amount = Math.round(r.uniform(100, 99000) * 100) / 100;
    sum += amount;
    return [names.region(c.region), names.currency(c.currency), ...(withLanguage ? [names.language(c.language)] : []), names.number(amount, 2)];
  });
  return { rows, sum };
}

/** A form: title, instructions, label/value pairs, a table of amounts with a total, notes. */
function form(r: Random, d: HtmlDraft, setting: Setting, names: Namer): { title: string; reference: string } {
  const w = WORDS[setting.language];
  const cjk = setting.dir === 'ltr';
  const title = r.pick(w.formTitles);
  heading(d, title, 1);
  paragraph(d, fill(r.pick(w.instructions), r, names));
  const country = r.pick(COUNTRIES);
  const reference = `${names.digits(2024 + Math.floor(r.next() * 3))}/${names.digits(1000 + Math.floor(r.next() * 9000))}`;
  const pairs: [string, string][] = [
    [w.name, r.pick(w.people)],
    [w.reference, reference],
    [w.country, names.region(country.region)],
    [w.currency, names.currency(country.currency)],
    [w.language, names.language(country.language)],
    [w.date, names.date(drawDate(r))],
    [w.amount, names.number(r.uniform(100, 50000), 2)],
  ];
  if (r.next() < 0.5) pairs.push([w.phone, names.digits(5_000_000_000 + Math.floor(r.next() * 4_000_000_000))]);
  const layout = r.pick(['lines', 'table', 'grid'] as const);
  if (layout === 'lines') pairLines(d, pairs, w.colon);
  else pairTable(d, pairs, layout === 'grid' ? 2 : 1);
  const { rows, sum } = countryRows(r, names, 3 + Math.floor(r.next() * 4), false);
  dataTable(d, [w.country, w.currency, w.amount], rows, r.next() < 0.7 ? [w.total, names.number(sum, 2)] : undefined);
  heading(d, w.notes, 2);
  paragraph(d, sentences(r, names, w.sentences, 2 + Math.floor(r.next() * 2), cjk, new Set()));
  return { title, reference };
}

/** A report or notes: title, date, sections of sentences, a table of countries, a list. */
function report(r: Random, d: HtmlDraft, setting: Setting, names: Namer): { title: string } {
  const w = WORDS[setting.language];
  const cjk = setting.dir === 'ltr';
  const title = r.pick(w.reportTitles);
  heading(d, title, 1);
  paragraph(d, `${w.date}${w.colon}${names.date(drawDate(r))}`);
  const bench = benchParagraphs(setting.language);
  const used = new Set<string>();
  const sections = 4 + Math.floor(r.next() * 3);
  const headings = [...w.headings];
  const tableAt = Math.floor(r.next() * sections);
  const listAt = (tableAt + 1 + Math.floor(r.next() * (sections - 1))) % sections;
  for (let s = 0; s < sections && headings.length > 0; s++) {
    heading(d, headings.splice(Math.floor(r.next() * headings.length), 1)[0]!, 2);
    const paragraphs = 1 + Math.floor(r.next() * 3);
    for (let p = 0; p < paragraphs; p++) {
      if (bench.length > 0 && r.next() < 0.3) paragraph(d, bench.splice(Math.floor(r.next() * bench.length), 1)[0]!);
      else {
        const text = sentences(r, names, w.sentences, 3 + Math.floor(r.next() * 4), cjk, used);
        if (text !== '') paragraph(d, text);
      }
    }
    if (s === tableAt) {
      const { rows } = countryRows(r, names, 4 + Math.floor(r.next() * 6), true);
      dataTable(d, [w.country, w.currency, w.language, w.amount], rows);
    }
    if (s === listAt) {
      const items = Array.from({ length: 3 + Math.floor(r.next() * 3) }, () => sentences(r, names, w.sentences, 1, cjk, used)).filter((i) => i !== '');
      if (items.length >= 2) list(d, items, !cjk ? false : r.next() < 0.5);
    }
  }
  return { title };
}

const GLOSSARY_LANGUAGES: readonly ScriptLanguage[] = ['ar', 'he', 'fa', 'zh', 'ko'];
const MONTH_INDEXES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

/** A glossary: English terms beside their names in five scripts, in tables by topic. */
function glossary(r: Random, d: HtmlDraft): { title: string } {
  const title = r.pick(['Glossary of names in five scripts', 'Country and currency names: a glossary', 'Terms in Arabic, Hebrew, Persian, Chinese and Korean']);
  heading(d, title, 1);
  paragraph(
    d,
    'Each table gives an English term and the same name as it is written in Arabic, Hebrew, Persian, Chinese and Korean. Arabic, Hebrew and Persian are read from right to left; numbers keep their usual order.',
  );
  const en = namer('en');
  const locales = GLOSSARY_LANGUAGES.map((l) => namer(l));
  const header = ['English', ...GLOSSARY_LANGUAGES.map((l) => namer(l).language(l))];
  const topics = [
    { name: 'Countries', rows: (c: (typeof COUNTRIES)[number]) => [en.region(c.region), ...locales.map((n) => n.region(c.region))] },
    { name: 'Currencies', rows: (c: (typeof COUNTRIES)[number]) => [en.currency(c.currency), ...locales.map((n) => n.currency(c.currency))] },
    { name: 'Languages', rows: (c: (typeof COUNTRIES)[number]) => [en.language(c.language), ...locales.map((n) => n.language(c.language))] },
  ];
  const chosen = topics.filter(() => r.next() < 0.7);
  for (const topic of chosen.length > 0 ? chosen : [topics[0]!]) {
    heading(d, topic.name, 2);
    const seen = new Set<string>();
    const rows: string[][] = [];
    for (const c of shuffle(r, COUNTRIES)) {
      const row = topic.rows(c);
      if (seen.has(row[0]!) || rows.length >= 6 + Math.floor(r.next() * 6)) continue;
      seen.add(row[0]!);
      rows.push(row);
    }
    dataTable(d, header, rows);
  }
  if (r.next() < 0.5) {
    heading(d, 'Months', 2);
    const months = MONTH_INDEXES.filter(() => r.next() < 0.6);
    dataTable(
      d,
      header,
      (months.length > 0 ? months : [0]).map((m) => [en.month(m), ...locales.map((n) => n.month(m))]),
    );
  }
  return { title };
}

function plan(variant: string, context: Readonly<PlanContext>): PlannedDocument {
  const r = context.random;
  const d: HtmlDraft = { html: [], blocks: [] };
  let look: PageLook;
  let head: string;
  let pageLabel: string;
  let title: string;
  let script: string;
  if (variant === 'mixed-glossary') {
    look = {
      lang: 'en',
      dir: 'ltr',
      fonts: [
        '"Noto Sans", "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans CJK SC", sans-serif',
        '"Noto Serif", "Noto Naskh Arabic", "Noto Serif Hebrew", "Noto Serif CJK SC", serif',
      ],
    };
    ({ title } = glossary(r, d));
    head = 'Names in five scripts';
    pageLabel = 'Page N of M';
    script = 'mixed';
  } else {
    const language = ({ arabic: 'ar', hebrew: 'he', persian: 'fa', chinese: 'zh', korean: 'ko' } as const)[variant.split('-')[0]!];
    if (language === undefined) throw new Error(`scripts: unknown variant ${variant}`);
    const setting = SETTINGS[language];
    const locale = r.pick(setting.locales);
    look = { lang: locale, dir: setting.dir, fonts: setting.fonts };
    const names = namer(locale);
    const w = WORDS[language];
    if (variant.endsWith('-form')) {
      const made = form(r, d, setting, names);
      title = made.title;
      head = r.next() < 0.5 ? w.unit : `${w.unit} - ${made.reference}`;
    } else {
      ({ title } = report(r, d, setting, names));
      head = w.unit;
    }
    pageLabel = w.pageLabel;
    script = setting.script;
  }
  const templates = pageTemplates(r, look, head, pageLabel, variant === 'mixed-glossary');
  return {
    id: context.id,
    family: 'scripts',
    variant,
    script,
    source: { renderer: 'chromium', html: pageHtml(r, look, title, d.html), print: templates.print },
    blocks: d.blocks,
    title,
    furniture: templates.furniture,
  };
}

/**
 * @example
 * const doc = await scriptsFamily.plan('persian-form', { random: seededRandom('x'), corpus, index: 3, id: 'scripts-persian-form-003' });
 */
export const scriptsFamily: Family = {
  name: 'scripts',
  description:
    'Chromium-printed right-to-left and CJK documents: Arabic forms and reports, Hebrew notes, Persian forms, Chinese reports, Korean forms, a glossary in five scripts; names from ICU, Noto fonts',
  variants: SCRIPT_VARIANTS,
  plan,
};
