import type { FormulaData } from '../../core/types.ts';
import type { Draft } from './attach.ts';
import type { Block } from './blocks.ts';
import { decodeInline } from './blocks.ts';
import { htmlDrafts } from './drafts.ts';
import type { Sources } from './inline.ts';
import { makeFormula } from './latex.ts';
import type { InlineMathSpan } from './math.ts';
import { collapseSpaces, tidyLines } from './text.ts';

/**
 * Drafts for a block the fast path takes (see blocks.ts): the same text, Markdown and formulas
 * remark would give, without running it.
 */
export function fastDrafts(block: Extract<Block, { type: 'paragraph' | 'heading' | 'html' }>, sources: Sources, inline: readonly InlineMathSpan[]): Draft[] {
  if (block.type === 'html') {
    const start = block.start + leading(sources.prepared, block.start, block.end);
    // The block as remark would hand it over: every line, trailing blanks included.
    return htmlDrafts(sources.prepared.slice(block.start, block.end), { start, end: trimEnd(sources.prepared, block.start, block.end) });
  }
  const contentStart = block.type === 'heading' ? block.contentStart : block.start + leading(sources.prepared, block.start, block.end);
  const end = trimEnd(sources.prepared, contentStart, block.end);
  const { text, markdown, formulas, onlyDisplay } = readInline(sources, inline, contentStart, end);
  const at = { start: block.type === 'heading' ? block.start + leading(sources.prepared, block.start, block.end) : contentStart, end };
  if (block.type === 'heading') {
    return [{ kind: 'heading', level: block.depth, text, markdown: `${'#'.repeat(block.depth)} ${collapseSpaces(markdown)}`, formulas, ...at }];
  }
  if (onlyDisplay && formulas[0]) {
    return [{ kind: 'formula', text: formulas[0].text, markdown: `$$\n${formulas[0].latex}\n$$`, formulas, ...at }];
  }
  return [{ kind: 'paragraph', text, markdown, formulas, ...at }];
}

function readInline(
  sources: Sources,
  inline: readonly InlineMathSpan[],
  start: number,
  end: number,
): { text: string; markdown: string; formulas: FormulaData[]; onlyDisplay: boolean } {
  let text = '';
  let markdown = '';
  const formulas: FormulaData[] = [];
  let cursor = start;
  let outside = '';
  for (const span of inline) {
    if (span.end <= start) continue;
    if (span.start >= end) break;
    const before = sources.stripped.slice(cursor, span.start);
    outside += before;
    const display = sources.stripped.startsWith('\\[', span.start);
    const formula = makeFormula({ latex: sources.prepared.slice(span.start + 2, span.end - 2), display });
    formulas.push(formula);
    text += `${decodeInline(before)} ${formula.text} `;
    const fence = display ? '$$' : '$';
    markdown += `${before}${fence}${formula.latex}${fence}`;
    cursor = span.end;
  }
  const after = sources.stripped.slice(cursor, end);
  outside += after;
  text += decodeInline(after);
  markdown += after;
  return {
    text: collapseSpaces(text),
    markdown: tidyLines(markdown),
    formulas,
    onlyDisplay: formulas.length === 1 && formulas[0]!.display && outside.trim() === '',
  };
}

function leading(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n')) i++;
  return i - start;
}

function trimEnd(text: string, start: number, end: number): number {
  let i = end;
  while (i > start && (text[i - 1] === ' ' || text[i - 1] === '\t' || text[i - 1] === '\n' || text[i - 1] === '\r')) i--;
  return i;
}
