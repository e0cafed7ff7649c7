/**
 * Pages of a `.md` input: form feeds separate them, as pdftotext writes them. The empty page after
 * a final form feed is pdftotext's terminator, not a page.
 *
 * @example
 * splitPages('one\fpage two\f') // ['one', 'page two']
 */
export function splitPages(markdown: string): string[] {
  const pages = markdown.split('\f');
  if (pages.length > 1 && pages[pages.length - 1]!.trim() === '') pages.pop();
  return pages;
}
