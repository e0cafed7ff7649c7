/**
 * The title of a whole document, for every chunk of it: the one its file declares (PDF Info or
 * XMP, Office core properties, HTML `<title>`, the e-mail's subject) when that is a real title,
 * else the title page's: the largest heading on its first page or two. Never the first heading of
 * the text, which on a book is "Front cover" or "Contents"; a chunk's own place is its heading path.
 * (A book's front matter headings are never its title.)
 */
import { basename, extname } from 'node:path';
import type { Element } from '../../core/types.ts';

/** What producers write when nobody typed a title. */
const PLACEHOLDERS =
  /^(front\s+cover|back\s+cover|cover(\s+page)?|title\s+page|half\s+title|contents|table\s+of\s+contents|copyright(\s+page)?|untitled(\s+document)?|no\s+title|title|unknown|none|null|undefined|document\d*|doc\d*|presentation\d*|book\d*|workbook\d*|slide\s*\d*|page\s*\d*|draft|new\s+document|microsoft\s+(word|powerpoint|excel)(\s+document)?|powerpoint\s+presentation|word\s+document|\W*)$/i;
/** `Microsoft Word - report.doc`, `Microsoft PowerPoint - deck.ppt`: the producer's name for the file, not a title. */
const PRODUCER_PREFIX = /^microsoft\s+(word|powerpoint|excel|office\s+\w+)\s*-\s*/i;
/** A file name as a title (`scan_0042.pdf`, `report.docx`). */
const FILE_NAME = /\.(pdf|docx?|dotx?|pptx?|xlsx?|odt|odp|ods|rtf|txt|md|html?|tex|dvi|ps|eps|indd|qxd|pub|wpd|jpe?g|png|tiff?|bmp|gif)$/i;

/**
 * True when `title` says nothing of the document: empty, a placeholder (`untitled`), a
 * producer's file label (`Microsoft Word - x.doc`), a file or path name (the document's own
 * included), a URL, or one token of code-like letters and digits (a font name such as `CMR8`).
 *
 * @example
 * isJunkTitle('Microsoft Word - Supporting information.docx') // true
 * isJunkTitle('How to do the Basics') // false
 */
export function isJunkTitle(title: string, fileName?: string): boolean {
  const text = title.replace(/\s+/g, ' ').trim();
  if ((text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) < 3 || !/\p{L}/u.test(text)) return true;
  if (PLACEHOLDERS.test(text) || PRODUCER_PREFIX.test(text) || FILE_NAME.test(text)) return true;
  if (/^[a-z][\w+.-]*:\/\//i.test(text) || /^www\./i.test(text)) return true;
  if (/^([A-Za-z]:)?[\\/]|[\\/].*[\\/]/.test(text)) return true;
  if (fileName !== undefined && fileName !== '') {
    const name = basename(fileName).toLowerCase();
    const stem = name.slice(0, name.length - extname(name).length);
    const lower = text.toLowerCase();
    if (lower === name || lower === stem) return true;
  }
  // One token: `edgar_image`, `CMR8`, `ch03-final`; a real one-word title (`Dune`) is letters only.
  return !text.includes(' ') && (/[_\\/]/.test(text) || /^\p{L}{1,8}\d+$/u.test(text));
}

/** Heading level of a title candidate: an OCR `title` label without a level counts as level 1. */
const levelOf = (element: Element): number => element.level ?? (element.label === 'title' ? 1 : 6);

/**
 * The height of one line of a block, from its box: its lines are counted by the size its area
 * gives each character (a wrapped title is as tall per line as a one-line one).
 */
function lineHeight(element: Element): number | undefined {
  const box = element.bbox;
  const chars = element.text.replace(/\s+/g, '').length;
  if (!box || chars === 0) return undefined;
  const width = box[2] - box[0];
  const height = box[3] - box[1];
  if (!(width > 0 && height > 0)) return undefined;
  const size = Math.sqrt((width * height) / chars);
  return height / Math.max(1, Math.round(height / (1.25 * size)));
}

/**
 * The title page's title: the first heading of the highest level on the first two pages that
 * have any text (furniture and junk left out), or on the same page one of that level in clearly
 * larger type. Levels are type sizes already: the layout makes a line set at 1.6 times the body
 * size or more a level-1 heading (pipeline/layout/blocks.ts); a Word file's Title style and a
 * slide's title are level 1 too.
 */
export function titlePageHeading(elements: readonly Element[], fileName?: string): string | undefined {
  const pageNumbers = [...new Set(elements.filter((e) => e.kind !== 'pageHeader' && e.kind !== 'pageFooter').map((e) => e.pageNumber))].sort((a, b) => a - b);
  const front = new Set(pageNumbers.slice(0, 2));
  let best: Element | undefined;
  for (const element of elements) {
    if (!front.has(element.pageNumber) || (element.kind !== 'heading' && element.label !== 'title')) continue;
    if (element.text.length > 200 || isJunkTitle(element.text, fileName)) continue;
    if (best === undefined || levelOf(element) < levelOf(best)) {
      best = element;
      continue;
    }
    // Same level, same page (boxes on two pages may be in different units): the larger type by a margin.
    const [mine, theirs] = [lineHeight(element), lineHeight(best)];
    if (levelOf(element) === levelOf(best) && element.pageNumber === best.pageNumber && mine && theirs && mine > theirs * 1.2) best = element;
  }
  return best?.text.replace(/\s+/g, ' ').trim();
}

export interface DocumentTitleInput {
  /** The titles the file declares, best first (PDF Info, then XMP; an e-mail's subject). */
  readonly declared?: readonly (string | undefined)[];
  readonly elements: readonly Element[];
  /** The document's file name, which is no title. */
  readonly fileName?: string;
}

/**
 * @example
 * documentTitle({ declared: ['Microsoft Word - memo.doc'], elements, fileName: 'memo.pdf' }) // the title page's heading
 */
export function documentTitle(input: Readonly<DocumentTitleInput>): string | undefined {
  const { declared = [], elements, fileName } = input;
  for (const title of declared) {
    if (title !== undefined && !isJunkTitle(title, fileName)) return title.replace(/\s+/g, ' ').trim();
  }
  return titlePageHeading(elements, fileName);
}
