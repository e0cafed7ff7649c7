import type { Nodes, RootContent } from 'mdast';
import { visit } from 'unist-util-visit';
import { ConfigurationError } from '../../core/errors.ts';
import type { Element } from '../../core/types.ts';
import { collapseRepetition } from '../quality/repetition.ts';
import { attachGrounding, type Draft } from './attach.ts';
import { joinComplex, separator, splitBlocks } from './blocks.ts';
import { htmlDrafts, tableDraft } from './drafts.ts';
import { fastDrafts } from './fast.ts';
import { codeDraft, listDraft, settleItems } from './fast-lists.ts';
import { stripGrounding } from './grounding.ts';
import { assignHeadingPaths } from './headings.ts';
import { inlineFormulas, listItems, listText, plainText, type Sources, sourceMarkdown } from './inline.ts';
import { makeFormula } from './latex.ts';
import { prepareMath } from './math.ts';
import { parseMarkdownTree } from './syntax.ts';
import { buildTable } from './table.ts';
import { collapseSpaces, tidyLines } from './text.ts';

/** One page of OCR Markdown and the size of the page it came from. */
export interface PageInput {
  readonly markdown: string;
  /** 1-based. */
  readonly pageNumber: number;
  /** Page size in the units bboxes are wanted in (PDF points or pixels). */
  readonly width: number;
  readonly height: number;
}

export interface ParseOptions {
  /**
   * Side of the square grid grounding boxes are written on (DeepSeek-OCR: 0–999, scaled as `x / 999 * width`).
   * @default 999
   */
  readonly gridSize?: number;
  /**
   * Cut degenerate repetition loops before parsing (the quality gate still sees and reports them).
   * @default true
   */
  readonly collapseLoops?: boolean;
  /**
   * Heading titles in force where the page starts, outermost first (from earlier pages).
   * @default []
   */
  readonly headingPath?: readonly string[];
  /**
   * Read plain paragraphs, ATX headings and HTML blocks without remark (same result, several
   * times faster; see blocks.ts). Off sends the whole page through remark.
   * @default true
   */
  readonly fastPath?: boolean;
}

/**
 * Parse one page of OCR Markdown into typed elements, in reading order. Grounding tags are
 * stripped and their label and box (in page units) go to the element they precede. Never throws
 * on bad input: unparseable text still comes back, as a paragraph.
 *
 * `position` offsets point into the page Markdown (after loop collapsing, when anything collapsed).
 *
 * @example
 * parsePage({ markdown: '# Title\n\nText', pageNumber: 1, width: 612, height: 792 }).map((e) => e.kind) // ['heading', 'paragraph']
 */
export function parsePage(page: PageInput, options: Readonly<ParseOptions> = {}): Element[] {
  const { gridSize = 999, collapseLoops = true, headingPath = [], fastPath = true } = options;
  if (!Number.isFinite(gridSize) || gridSize <= 0) {
    throw new ConfigurationError('FOLIO_PARSE_OPTIONS', `Expected \`gridSize\` to be a number above 0, got \`${String(gridSize)}\` (${typeof gridSize})`);
  }
  const markdown = typeof page.markdown === 'string' ? page.markdown : '';
  try {
    const text = collapseLoops ? collapseRepetition(markdown).markdown : markdown;
    const drafts = readDrafts(text, page, gridSize, fastPath);
    return assignHeadingPaths(
      drafts.map((draft) => toElement(draft, page.pageNumber)),
      headingPath,
    );
  } catch {
    // Defensive: a parser bug must not lose the page. Keep its text as one paragraph.
    const text = collapseSpaces(stripGrounding(markdown).text);
    if (text === '') return [];
    return [{ kind: 'paragraph', text, markdown: text, headingPath, pageNumber: page.pageNumber, pages: [page.pageNumber] }];
  }
}

function readDrafts(markdown: string, page: PageInput, gridSize: number, fastPath: boolean): Draft[] {
  const grounding = stripGrounding(markdown);
  const math = prepareMath(grounding.text);
  const sources: Sources = { stripped: grounding.text, prepared: math.text };
  const drafts: Draft[] = [];
  for (const span of math.display) {
    const formula = makeFormula({ latex: span.latex, display: true });
    const data = span.closed ? formula : { ...formula, valid: false, error: `unclosed display math${formula.error ? `; ${formula.error}` : ''}` };
    drafts.push({ kind: 'formula', text: formula.text, markdown: `$$\n${formula.latex}\n$$`, start: span.start, end: span.end, formulas: [data] });
  }
  const { blocks, lists } = fastPath
    ? settleItems(splitBlocks(math.text, math.inline), math.text)
    : { blocks: [{ type: 'complex' as const, start: 0, end: math.text.length }], lists: [] };
  for (const block of blocks) {
    if (block.type === 'code') drafts.push(codeDraft(block));
    else if (block.type === 'paragraph' || block.type === 'heading' || block.type === 'html') drafts.push(...fastDrafts(block, sources, math.inline));
  }
  for (const list of lists) drafts.push(listDraft(list, sources));
  if (blocks.some((block) => block.type === 'complex')) {
    const segments = joinComplex(math.text, blocks);
    const tree = parseMarkdownTree(segments.text);
    // Offsets in the joined text go back to page offsets before anything reads them.
    visit(tree, (node) => {
      if (node.position) {
        node.position.start.offset = segments.toPage(node.position.start.offset ?? 0);
        node.position.end.offset = segments.toPage(node.position.end.offset ?? 0);
      }
    });
    for (const node of tree.children) {
      if (node.type === 'html' && node.value === separator.trim()) continue;
      drafts.push(...readNode(node, sources, fastPath));
    }
  }
  // A block of nothing but blanks (a form feed, an empty heading marker) is no element.
  const kept = drafts.filter(
    (draft) => draft.text !== '' || draft.kind === 'figure' || draft.kind === 'table' || draft.kind === 'formula' || draft.kind === 'code',
  );
  // remark ends some blocks after trailing blanks, the fast path before: end them all at the last character.
  for (const draft of kept) while (draft.kind !== 'formula' && draft.end > draft.start && /\s/u.test(sources.prepared[draft.end - 1] ?? '')) draft.end--;
  kept.sort((a, b) => a.start - b.start);
  return attachGrounding({ drafts: kept, tags: grounding.tags, page, gridSize });
}

function readNode(node: RootContent, sources: Sources, fastPath: boolean): Draft[] {
  const start = node.position?.start.offset ?? 0;
  const end = node.position?.end.offset ?? start;
  const at = { start, end };
  switch (node.type) {
    case 'heading': {
      const source = sourceMarkdown(node, sources);
      // Setext headings (`Title` over `===`) come back as ATX, the one form the renderer writes.
      const markdown = source.startsWith('#')
        ? collapseSpaces(source)
        : `${'#'.repeat(node.depth)} ${collapseSpaces(source.replace(/\n[ \t]*[=-]+[ \t]*$/u, ''))}`;
      return [{ kind: 'heading', level: node.depth, text: plainText(node), markdown, formulas: inlineFormulas(node, sources), ...at }];
    }
    case 'paragraph': {
      const meaningful = node.children.filter((child) => !(child.type === 'text' && child.value.trim() === ''));
      const only = meaningful.length === 1 ? meaningful[0] : undefined;
      if (only?.type === 'image') return [{ kind: 'figure', text: collapseSpaces(only.alt ?? ''), markdown: `![${only.alt ?? ''}](${only.url})`, ...at }];
      const formulas = inlineFormulas(node, sources);
      if (only?.type === 'inlineMath' && formulas[0]?.display) {
        return [{ kind: 'formula', text: formulas[0].text, markdown: `$$\n${formulas[0].latex}\n$$`, formulas, ...at }];
      }
      return [{ kind: 'paragraph', text: plainText(node), markdown: sourceMarkdown(node, sources), formulas, ...at }];
    }
    case 'list': {
      const items = listItems(node);
      // Grounding tags between items leave blank-line runs behind once stripped: keep the list tight.
      return [
        {
          kind: 'list',
          text: listText(items),
          markdown: sourceMarkdown(node, sources).replace(/\n(?:[ \t]*\n)+/g, '\n'),
          items,
          ordered: node.ordered === true,
          formulas: inlineFormulas(node, sources),
          ...at,
        },
      ];
    }
    case 'table': {
      const rows = node.children.map((row, r) => ({
        head: r === 0,
        cells: row.children.map((cell) => ({ text: plainText(cell), rowspan: 1, colspan: 1, header: r === 0 })),
      }));
      return [tableDraft(buildTable({ rows }), at)];
    }
    case 'math': {
      const latex = [node.meta, node.value].filter((part) => part).join('\n');
      const formula = makeFormula({ latex, display: true });
      return [{ kind: 'formula', text: formula.text, markdown: `$$\n${formula.latex}\n$$`, formulas: [formula], ...at }];
    }
    case 'code': {
      const info = [node.lang, node.meta].filter((part) => part).join(' ');
      const value = node.value.replace(/\s+$/u, '');
      // An empty fence keeps its info string as text: on a page it is OCR'd words, not a language.
      return [{ kind: 'code', text: value === '' ? info : value, markdown: `\`\`\`${info}\n${value}\n\`\`\``, ...at }];
    }
    case 'html':
      return htmlDrafts(node.value, at, fastPath);
    case 'footnoteDefinition':
      return [
        { kind: 'footnote', text: plainText(node), markdown: tidyLines(sources.stripped.slice(start, end)), formulas: inlineFormulas(node, sources), ...at },
      ];
    case 'thematicBreak':
      return [];
    default: {
      const text = plainText(node as Nodes) || collapseSpaces(sources.stripped.slice(start, end));
      if (text === '') return [];
      return [{ kind: 'paragraph', text, markdown: sourceMarkdown(node as Nodes, sources), formulas: inlineFormulas(node as Nodes, sources), ...at }];
    }
  }
}

function toElement(draft: Draft, pageNumber: number): Element {
  const element: Record<string, unknown> = {
    kind: draft.kind,
    text: draft.text,
    headingPath: [],
    pageNumber,
    pages: [pageNumber],
    position: [draft.start, draft.end],
    markdown: draft.markdown,
  };
  if (draft.level !== undefined) element['level'] = draft.level;
  if (draft.bbox) element['bbox'] = draft.bbox;
  if (draft.bboxes && draft.bboxes.length > 1) element['bboxes'] = draft.bboxes.map((bbox) => ({ page: pageNumber, bbox }));
  if (draft.label !== undefined) element['label'] = draft.label;
  if (draft.table) element['table'] = draft.table;
  if (draft.formulas && draft.formulas.length > 0) element['formulas'] = draft.formulas;
  if (draft.items) element['items'] = draft.items;
  if (draft.ordered !== undefined) element['ordered'] = draft.ordered;
  return element as unknown as Element;
}
