/**
 * A family's own check of its truth against the PDF's text layer (pdftotext), for its tests and
 * debug runs: every text of the body is found in the document's text, every furniture line on its
 * own page's first or last line, and no page number printed where the truth has no footer.
 * Comparison ignores whitespace and hyphens (LaTeX hyphenates at line ends; pdftotext keeps them).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { hasTool } from '../common/tools.ts';
import { aptEnsure } from './render/apt.ts';
import type { PlannedDocument, TruthBlock } from './types.ts';

const run = promisify(execFile);

/** pdftotext and pdfinfo, installed with apt-get where missing and this user may (root, as on CI). */
export async function ensurePoppler(log: (line: string) => void): Promise<void> {
  await aptEnsure('pdftotext', ['poppler-utils'], log, async () => (await hasTool('pdftotext')) && (await hasTool('pdfinfo')));
}

/**
 * Text reduced to what a comparison may rely on: no whitespace, no hyphens, ligatures spelled out,
 * no Arabic vowel marks (pdftotext moves tanwin across the alef), and lam–alef in one order
 * (Chromium's text layer maps some lam–alef and lam–alef maksura ligature glyphs to their letters
 * reversed).
 */
export const squash = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u064b-\u065f\u0670]/g, '')
    .normalize('NFKC')
    // Bidi controls pdftotext writes around right-to-left runs are not text.
    .replace(/[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g, '')
    // Within words only (before spaces go), so that a word ending in lam before one starting with
    // alef is left alone.
    .replace(/ل([اأإآى])/g, '$1ل')
    .replace(/[\s\u00ad\-‐]+/g, '')
    .toLowerCase();

/** The texts of a block a text layer must contain (formulas left out: they print as glyphs). */
function blockTexts(block: TruthBlock): string[] {
  const plain = (text: string): string[] => text.split(/\$[^$]*\$/).filter((s) => squash(s).length > 0);
  switch (block.kind) {
    case 'heading':
    case 'paragraph':
    case 'caption':
      return plain(block.text);
    case 'list':
      return block.items.flatMap((i) => plain(i.text));
    case 'table':
      return [...block.table.cells.map((c) => c.text), ...(block.caption ? plain(block.caption) : [])];
    case 'code':
      return block.text.split('\n');
    case 'field':
      return [block.label, block.value];
    case 'formula':
      return [];
  }
}

export interface TruthCheck {
  readonly pages: number;
  /** Body texts checked. */
  readonly checked: number;
  /** Body texts not found in the document's text layer. */
  readonly missingBody: string[];
  /**
   * Body texts of right-to-left or CJK documents found only word by word: pdftotext put a number
   * or a neutral run of a right-to-left line in another order (`%12` for `12%`).
   */
  readonly reorderedBody: string[];
  /** `page N: header|footer 'text'` not found on that page's first or last line. */
  readonly missingFurniture: string[];
  /** `page N: 'line'`: a page number the truth does not have. */
  readonly unexpectedFurniture: string[];
}

const PAGE_NUMBER = /^(?:page\s*)?[\d\u0660-\u0669\u06f0-\u06f9]+(?:\s*(?:of|\/)\s*\d+)?$|^-\s*\d+\s*-$/i;

/**
 * Take the lines made only of `entries` (a head or foot, squashed, in any order) off the top (`at` 0) or
 * bottom (`at` -1) of `lines`.
 */
function strip(lines: string[], entries: readonly string[], at: 0 | -1): void {
  const left = entries.filter((e) => e !== '');
  while (left.length > 0 && lines.length > 0) {
    let line = squash(at === 0 ? lines[0]! : lines.at(-1)!);
    const used = left.filter((e) => line.includes(e));
    for (const e of used) line = line.replace(e, '');
    if (used.length === 0 || line !== '') return;
    if (at === 0) lines.shift();
    else lines.pop();
    for (const e of used) left.splice(left.indexOf(e), 1);
  }
}

/**
 * Check `doc`'s truth against `pdf`'s text layer.
 *
 * @example
 * const { missingBody, missingFurniture } = await checkTruth(doc, 'out/papers-article-000.pdf');
 */
export async function checkTruth(doc: PlannedDocument, pdf: string): Promise<TruthCheck> {
  const { stdout: info } = await run('pdfinfo', [pdf]);
  const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0);
  const missingFurniture: string[] = [];
  const unexpectedFurniture: string[] = [];
  // Latin pages in content order (pdflatex writes columns one after the other); others in
  // pdftotext's reading order, which puts right-to-left lines in logical order.
  const latin = (doc.script ?? 'latin') === 'latin';
  const bodies: string[] = [];
  for (let n = 1; n <= pages; n++) {
    const page = async (mode: string): Promise<string[]> =>
      (await run('pdftotext', ['-enc', 'UTF-8', mode, '-f', `${n}`, '-l', `${n}`, pdf, '-'])).stdout.split('\n').filter((l) => l.trim() !== '');
    const lines = await page('-layout');
    const first = squash(lines[0] ?? '');
    const last = squash(lines.at(-1) ?? '');
    const expected = doc.furniture(n, pages);
    for (const h of expected.header) if (!first.includes(squash(h))) missingFurniture.push(`page ${n}: header '${h}'`);
    for (const f of expected.footer) if (!last.includes(squash(f))) missingFurniture.push(`page ${n}: footer '${f}'`);
    // A bare number is furniture only when it is this page's (a formula's digits may end a page).
    const numbered = (line: string): boolean => PAGE_NUMBER.test(line) && (line.match(/\d+/)?.[0] ?? '') === `${n}`;
    if (expected.footer.length === 0 && numbered((lines.at(-1) ?? '').trim())) unexpectedFurniture.push(`page ${n}: '${lines.at(-1)!.trim()}'`);
    if (expected.header.length === 0 && numbered((lines[0] ?? '').trim())) unexpectedFurniture.push(`page ${n}: '${lines[0]!.trim()}'`);
    // The body in content order (-raw: engines write columns one after the other), furniture
    // lines taken off the top and bottom so that a paragraph running over a page break is whole.
    const raw = await page(latin ? '-raw' : '-nopgbrk');
    strip(raw, expected.header.map(squash), 0);
    strip(raw, expected.footer.map(squash), -1);
    bodies.push(raw.join(' '));
  }
  const layer = squash(bodies.join(''));
  const all = doc.blocks.flatMap(blockTexts);
  const missing = all.filter((t) => !layer.includes(squash(t)));
  // Word by word, each word's letters in any order: Chromium's text layer maps some Arabic
  // ligature glyphs (lam–alef, lam–yeh) to their letters reversed.
  const bare = (w: string): string => squash(w).replace(/[.,:;،؛!?%()/]/g, '');
  const letters = (w: string): string => [...bare(w)].sort().join('');
  const words = new Set(
    bodies
      .join(' ')
      .split(/[\s\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]+/)
      .map(letters),
  );
  const loose = bare(layer);
  const wordByWord = (t: string): boolean => !latin && t.split(/\s+/).every((w) => letters(w) === '' || words.has(letters(w)) || loose.includes(bare(w)));
  const reorderedBody = missing.filter(wordByWord);
  const missingBody = missing.filter((t) => !wordByWord(t));
  return { pages, checked: all.length, missingBody, reorderedBody, missingFurniture, unexpectedFurniture };
}
