import type { List, ListItem as MdListItem, Nodes } from 'mdast';
import type { InlineMath } from 'mdast-util-math';
import type { FormulaData, ListItem } from '../../core/types.ts';
import { makeFormula } from './latex.ts';
import { collapseSpaces, tidyLines } from './text.ts';

/** The page text at three stages, all the same length (see grounding.ts and math.ts). */
export interface Sources {
  /** Grounding tags blanked, delimiters as the engine wrote them. */
  readonly stripped: string;
  /** Inline `\(…\)` rewritten to `$$…$$`: what the Markdown parser read. */
  readonly prepared: string;
}

/** Plain text of a node: formulas in their plain-text form, HTML tags dropped, spaces collapsed. */
export function plainText(node: Nodes): string {
  return collapseSpaces(rawText(node));
}

function rawText(node: Nodes): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
      return node.value;
    case 'code':
      return node.value === '' ? [node.lang, node.meta].filter((part) => part).join(' ') : node.value;
    case 'inlineMath':
      return ` ${makeFormula({ latex: node.value, display: false }).text} `;
    case 'math':
      // `$$x` on a line reads as a fence with meta `x`: the meta is formula text too.
      return ` ${makeFormula({ latex: [node.meta, node.value].filter((part) => part).join('\n'), display: true }).text} `;
    case 'html':
      return node.value.replace(/<[^>]*>/gu, ' ');
    case 'break':
      return '\n';
    case 'image':
      return node.alt ?? '';
    case 'imageReference':
      return node.alt ?? '';
    case 'footnoteReference':
      return `[^${node.identifier}]`;
    default:
      if ('children' in node) {
        const block = node.type === 'paragraph' || node.type === 'listItem' || node.type === 'list' || node.type === 'tableRow';
        return (node.children as Nodes[]).map(rawText).join(block ? '\n' : '');
      }
      return '';
  }
}

/** Every inline formula under a node, with `display` true when the engine wrote `\[…\]` or `$$…$$`. */
export function inlineFormulas(node: Nodes, sources: Sources): FormulaData[] {
  const found: FormulaData[] = [];
  const walk = (current: Nodes): void => {
    if (current.type === 'inlineMath') found.push(makeFormula({ latex: current.value, display: isDisplayDelimited(current, sources) }));
    else if ('children' in current) for (const child of current.children as Nodes[]) walk(child);
  };
  walk(node);
  return found;
}

/**
 * Clean Markdown of a node: its source, with inline formulas rewritten as `$…$` (`$$…$$` when the
 * engine wrote display delimiters) and trailing blanks trimmed.
 */
export function sourceMarkdown(node: Nodes, sources: Sources): string {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return plainText(node);
  const spans: { start: number; end: number; text: string }[] = [];
  const walk = (current: Nodes): void => {
    if (current.type === 'inlineMath') {
      const s = current.position?.start.offset;
      const e = current.position?.end.offset;
      if (s !== undefined && e !== undefined) {
        const fence = isDisplayDelimited(current, sources) ? '$$' : '$';
        spans.push({ start: s, end: e, text: `${fence}${current.value.trim()}${fence}` });
      }
    } else if ('children' in current) for (const child of current.children as Nodes[]) walk(child);
  };
  walk(node);
  let out = '';
  let cursor = start;
  for (const span of spans) {
    out += sources.stripped.slice(cursor, span.start) + span.text;
    cursor = span.end;
  }
  out += sources.stripped.slice(cursor, end);
  return tidyLines(out);
}

/** Nested list items as plain text; items of ordered lists keep their number (`3. text`). */
export function listItems(list: List): ListItem[] {
  const start = list.start ?? 1;
  return list.children.map((item: MdListItem, i): ListItem => {
    const own = item.children.filter((child) => child.type !== 'list');
    const nested = item.children.filter((child): child is List => child.type === 'list');
    const words = collapseSpaces(own.map((child) => plainText(child)).join(' '));
    const text = list.ordered ? `${start + i}.${words === '' ? '' : ` ${words}`}` : words;
    const items = nested.flatMap((child) => listItems(child));
    return items.length > 0 ? { text, items } : { text };
  });
}

/** List items as indented lines, for the element text. */
export function listText(items: readonly ListItem[], depth = 0): string {
  return items
    .map((item) => {
      const line = `${'  '.repeat(depth)}${item.text}`;
      return item.items ? `${line}\n${listText(item.items, depth + 1)}` : line;
    })
    .join('\n');
}

function isDisplayDelimited(node: InlineMath, sources: Sources): boolean {
  const s = node.position?.start.offset;
  if (s === undefined) return false;
  // `\(…\)` was rewritten to `$$…$$` only in `prepared`; `stripped` still shows what the engine wrote.
  return sources.stripped.startsWith('\\[', s) || sources.stripped.startsWith('$$', s);
}
