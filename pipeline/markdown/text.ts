/** Whitespace runs (newlines included) to one space, trimmed: the form of every element `text`. */
export function collapseSpaces(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/**
 * Trailing blanks off every line, runs of spaces inside a line to one (stripped tags leave them),
 * and no blank lines at either end. Leading indentation is kept: it nests lists.
 */
export function tidyLines(text: string): string {
  let out = text;
  if (/[ \t](?:\n|$)/u.test(out)) out = out.replace(/[ \t]+$/gmu, '');
  if (/\S[ \t]{2}/u.test(out)) out = out.replace(/(\S)[ \t]{2,}(?=\S)/gu, '$1 ');
  return out.replace(/^\n+|\n+$/gu, '');
}
