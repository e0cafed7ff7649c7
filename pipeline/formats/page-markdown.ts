/** A reader's page as the Markdown the parser reads: blocks, then footnote definitions. */
import { blocksToMarkdown, escapeMarkdown } from './blocks.ts';
import type { FormatPage } from './types.ts';

/**
 * @example
 * pageMarkdown({ blocks: [{ kind: 'paragraph', spans: [{ text: 'Hi' }] }] }) // 'Hi'
 */
export function pageMarkdown(page: FormatPage): string {
  const body = blocksToMarkdown(page.blocks);
  const notes = (page.footnotes ?? []).filter((note) => /^[\w-]+$/.test(note.id)).map((note) => `[^${note.id}]: ${escapeMarkdown(note.text)}`);
  return [body, ...notes].filter((part) => part !== '').join('\n\n');
}
