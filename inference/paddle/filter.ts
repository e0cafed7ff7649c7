/**
 * The recogniser's alphabet is Chinese plus English, so on a Latin page specks, bullets and
 * rules come out as Han characters (`一`, `口`) and punctuation as its full-width forms
 * (`，`, `：`, `（`). On a page that is clearly Latin, Han characters are noise: they are removed
 * (fragments left empty are dropped) and full-width forms folded to ASCII. On a Chinese page
 * nothing is touched.
 */
/** A recognised piece of text on one line, in pixels of the upright, deskewed page. */
export interface Fragment {
  readonly text: string;
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
  readonly confidence: number;
}

const HAN = /\p{Script=Han}/gu;
const LATIN = /\p{Script=Latin}/gu;
/** CJK punctuation NFKC leaves alone. */
const CJK_PUNCT: Readonly<Record<string, string>> = {
  '。': '.',
  '、': ',',
  '「': '"',
  '」': '"',
  '『': '"',
  '』': '"',
  '【': '[',
  '】': ']',
  '〈': '<',
  '〉': '>',
  '《': '"',
  '》': '"',
  '・': '·',
};

export function cleanLatinPage(fragments: readonly Fragment[]): Fragment[] {
  let han = 0;
  let latin = 0;
  for (const f of fragments) {
    han += (f.text.match(HAN) ?? []).length;
    latin += (f.text.match(LATIN) ?? []).length;
  }
  if (latin === 0 || latin < 5 * han) return [...fragments];
  const out: Fragment[] = [];
  for (const f of fragments) {
    const text = f.text
      .normalize('NFKC')
      .replace(/[。、「」『』【】〈〉《》・]/gu, (c) => CJK_PUNCT[c] ?? c)
      .replace(HAN, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (text.length > 2 || (text !== '' && /[\p{L}\p{N}]/u.test(text))) out.push({ ...f, text });
  }
  return out;
}
