/**
 * A page's body: its text with the furniture taken off, so that a paragraph running over a page
 * break is read whole.
 */
import type { PageFurniture } from '../types.ts';
import { lines, squash } from './compare.ts';

/**
 * Take the lines made only of `entries` (a head or foot, in any order) off the top (`at` 0) or
 * bottom (`at` -1) of `lines`.
 */
function strip(lines: string[], entries: readonly string[], at: 0 | -1): void {
  const left = entries.map(squash).filter((e) => e !== '');
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
 * A page's lines that are not blank, with its head taken off the top and its foot off the bottom.
 *
 * @example
 * offBody('Annual Report  3\n\nBody text.\n', { header: ['Annual Report', '3'], footer: [] }) // ['Body text.']
 */
export function offBody(page: string, furniture: PageFurniture): string[] {
  const body = lines(page);
  strip(body, furniture.header, 0);
  strip(body, furniture.footer, -1);
  return body;
}

/**
 * The builder's older way of taking furniture off a page's text: one line equal to each head (the
 * first such line: a title may repeat its running head) and to each foot (the last), wherever they
 * stand. It misses a head printed on one line with its page number, which `offBody` takes off;
 * the builder keeps it because its tests were written with it (taking `offBody` instead keeps one
 * more test of the 180-document build, papers-running-heads-003_01, and so changes the scores).
 *
 * @example
 * withoutFurnitureLines('Annual Report\nBody text.\n3', { header: ['Annual Report'], footer: ['3'] }) // 'Body text.'
 */
export function withoutFurnitureLines(text: string, furniture: PageFurniture | undefined): string {
  const lines = text.split('\n');
  for (const head of furniture?.header ?? []) {
    const at = lines.findIndex((l) => l.trim() === head.trim());
    if (at >= 0) lines.splice(at, 1);
  }
  for (const foot of furniture?.footer ?? []) {
    const at = lines.findLastIndex((l) => l.trim() === foot.trim());
    if (at >= 0) lines.splice(at, 1);
  }
  return lines.join('\n');
}
