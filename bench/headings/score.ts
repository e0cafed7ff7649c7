/**
 * Heading precision and recall of one document's Markdown against its true headings, and how many
 * of its run-in heads open a paragraph with their emphasis kept (`**Theorem 1.1.** Let …`).
 */

export interface HeadingScore {
  /** Heading lines written. */
  readonly found: number;
  /** Heading lines that are true headings. */
  readonly correct: number;
  readonly truth: number;
  /** True headings written as heading lines. */
  readonly recalled: number;
  readonly leadIns: number;
  /** Run-in heads that open a paragraph, emphasised. */
  readonly leadInsKept: number;
  /** Run-in heads written as (the start of) a heading line. */
  readonly leadInsAsHeadings: number;
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
/** A heading's title: `## 2.1 The eigenvalues` → `the eigenvalues`. */
const title = (line: string): string =>
  squash(
    line
      .replace(/^#+\s*/, '')
      .replace(/\*/g, '')
      .replace(/^\d+(\.\d+)*\.?\s+/, ''),
  ).toLowerCase();

/** Score `markdown` (grounding tags allowed) against a document's truth. */
export function scoreHeadings(markdown: string, headings: readonly string[], leadIns: readonly string[]): HeadingScore {
  const blocks = markdown
    .split('\n\n')
    .map((b) => squash(b.replace(/^<\|ref\|>.*?<\|\/det\|>\n?/, '')))
    .filter((b) => b !== '');
  const headingLines = blocks.filter((b) => /^#{1,6} /.test(b));
  const truth = new Set(headings.map((h) => squash(h).toLowerCase()));
  const written = new Set(headingLines.map(title));
  const kept = (lead: string): boolean => {
    const l = squash(lead);
    return blocks.some((b) => b.startsWith(`**${l}** `) || b.startsWith(`*${l}* `));
  };
  return {
    found: headingLines.length,
    correct: headingLines.filter((h) => truth.has(title(h))).length,
    truth: truth.size,
    recalled: [...truth].filter((h) => written.has(h)).length,
    leadIns: leadIns.length,
    leadInsKept: leadIns.filter(kept).length,
    leadInsAsHeadings: headingLines.filter((h) => leadIns.some((l) => squash(h.replace(/^#+\s*/, '').replace(/\*/g, '')).startsWith(squash(l)))).length,
  };
}
