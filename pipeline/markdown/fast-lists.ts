import type { Draft } from './attach.ts';
import type { Block } from './blocks.ts';
import { decodeInline } from './blocks.ts';
import type { Sources } from './inline.ts';
import { listText } from './inline.ts';
import { collapseSpaces, tidyLines } from './text.ts';

/**
 * Lists and code fences on the fast path. Text-layer pages write every list item as a one-line
 * block of its own (a grounding tag before each), and remark joins consecutive items of one kind
 * (same bullet, or same `.`/`)` delimiter) into one list. That is done here too, unless a
 * neighbouring block could join the list in ways only remark knows (an indented block after it,
 * a list inside the complex block before or after it): then the items go to remark as well.
 */

type Item = Extract<Block, { type: 'item' }>;
type Code = Extract<Block, { type: 'code' }>;

const listLine = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/mu;

/** Consecutive items of one kind grouped; items remark must see turned back into complex blocks. */
export function settleItems(blocks: readonly Block[], text: string): { blocks: Block[]; lists: Item[][] } {
  const out: Block[] = [...blocks];
  // An indented block after a list (or after anything remark reads) may continue a list item:
  // remark must see both.
  for (let k = 1; k < out.length; k++) {
    const block = out[k]!;
    const previous = out[k - 1]!;
    if (block.type !== 'complex' && (previous.type === 'complex' || previous.type === 'item') && /^[ \t]/u.test(text.slice(block.start, block.end))) {
      out[k] = { type: 'complex', start: block.start, end: block.end };
    }
  }
  const lists: Item[][] = [];
  let i = 0;
  while (i < out.length) {
    const first = out[i]!;
    if (first.type !== 'item') {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < out.length && out[j]!.type === 'item' && (out[j] as Item).kind === first.kind) j++;
    const before = out[i - 1];
    const after = out[j];
    const joinsBefore = before?.type === 'complex' && listLine.test(text.slice(before.start, before.end));
    const afterText = after === undefined ? '' : text.slice(after.start, after.end);
    // An indented block after a list continues its last item; a complex one may hold more items.
    const indentedAfter = after !== undefined && /^[ \t]/u.test(afterText);
    const joinsAfter = indentedAfter || (after?.type === 'complex' && listLine.test(afterText.split('\n', 1)[0]!));
    if (joinsBefore || joinsAfter) {
      for (let k = i; k < j; k++) out[k] = { type: 'complex', start: out[k]!.start, end: out[k]!.end };
      if (indentedAfter && after !== undefined) out[j] = { type: 'complex', start: after.start, end: after.end };
    } else {
      lists.push(out.slice(i, j) as Item[]);
    }
    i = j;
  }
  return { blocks: out, lists };
}

/** The list remark would read from these items: items as plain text, ordered ones renumbered from the first. */
export function listDraft(items: readonly Item[], sources: Sources): Draft {
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const ordered = first.number !== undefined;
  const start = first.number ?? 1;
  const listItems = items.map((item, i) => {
    const words = collapseSpaces(decodeInline(sources.stripped.slice(item.contentStart, item.end)));
    return { text: ordered ? `${start + i}.${words === '' ? '' : ` ${words}`}` : words };
  });
  const markdown = tidyLines(sources.stripped.slice(first.start, last.end)).replace(/\n(?:[ \t]*\n)+/g, '\n');
  return { kind: 'list', text: listText(listItems), markdown, items: listItems, ordered, formulas: [], start: first.start, end: last.end };
}

/** A fenced code block as remark reads it. */
export function codeDraft(block: Code): Draft {
  const value = block.value.replace(/\s+$/u, '');
  return { kind: 'code', text: value === '' ? block.info : value, markdown: `\`\`\`${block.info}\n${value}\n\`\`\``, start: block.start, end: block.end };
}
