/**
 * olmOCR-Bench-style tests written from a document's truth: body sentences present, furniture
 * absent, blocks in order across columns and pages, table cells beside their neighbours, formulas.
 * Every test must pass on the truth's own Markdown, and its text must be found in the PDF's text
 * layer: a test that fails either check says the truth is wrong, and is dropped and counted.
 */
import type { BenchTest } from '../olmocr/checks.ts';
import { runCheck } from '../olmocr/checks.ts';
import type { Random } from '../scans/random.ts';
import { squash } from './truth-check.ts';
import type { DocumentTruth, TruthBlock, TruthCell, TruthTable } from './types.ts';

/** Tests of one document and what was dropped, with why. */
export interface GeneratedTests {
  readonly tests: BenchTest[];
  readonly dropped: { readonly id: string; readonly reason: string }[];
}

const sentences = (text: string): string[] => text.split(/(?<=[.!?])\s+(?=[A-Z])/).map((s) => s.trim());

/** Sentence-sized text a reader must keep: no formulas (their spelling is the math tests' business). */
const quotable = (s: string): boolean => s.length >= 30 && s.length <= 180 && !s.includes('$');

const maxDiffs = (text: string): number => Math.floor(text.length * 0.03);

/** The slot grid of a table: which cell holds each (row, col). */
function slots(table: TruthTable): (TruthCell | undefined)[][] {
  const grid: (TruthCell | undefined)[][] = Array.from({ length: table.rows }, () => new Array<TruthCell | undefined>(table.cols).fill(undefined));
  for (const c of table.cells) for (let r = c.row; r < c.row + c.rowspan; r++) for (let k = c.col; k < c.col + c.colspan; k++) if (grid[r]) grid[r]![k] = c;
  return grid;
}

function tableTests(table: TruthTable, random: Random, unique: (text: string) => boolean): Omit<BenchTest, 'pdf' | 'page' | 'id'>[] {
  const grid = slots(table);
  const at = (r: number, c: number): TruthCell | undefined => grid[r]?.[c];
  const body = table.cells.filter((c) => !c.header && c.text.length >= 2 && unique(c.text));
  const out: Omit<BenchTest, 'pdf' | 'page' | 'id'>[] = [];
  for (let tries = 0; tries < 8 && out.length < 2 && body.length > 0; tries++) {
    const cell = body.splice(Math.floor(random.next() * body.length), 1)[0]!;
    const test: Record<string, string> = { cell: cell.text };
    const near = (other: TruthCell | undefined, key: string): void => {
      if (other && other !== cell && other.text !== '' && unique(other.text)) test[key] = other.text;
    };
    near(at(cell.row - 1, cell.col), 'up');
    near(at(cell.row + cell.rowspan, cell.col), 'down');
    near(at(cell.row, cell.col - 1), 'left');
    near(at(cell.row, cell.col + cell.colspan), 'right');
    const head = table.headerRows > 0 ? at(table.headerRows - 1, cell.col) : undefined;
    if (head?.header && head.colspan === 1) near(head, 'top_heading');
    if (Object.keys(test).length >= 2) out.push({ type: 'table', ...test });
  }
  return out;
}

/**
 * Write the candidate tests of a document (not yet checked).
 *
 * @example
 * const tests = candidateTests(truth, seededRandom('seed/doc'));
 */
export function candidateTests(truth: DocumentTruth, random: Random): Omit<BenchTest, 'pdf' | 'page' | 'id'>[] {
  const out: Omit<BenchTest, 'pdf' | 'page' | 'id'>[] = [];
  const paragraphs = truth.blocks.filter((b): b is Extract<TruthBlock, { kind: 'paragraph' }> => b.kind === 'paragraph');
  const pool = paragraphs.flatMap((p) => sentences(p.text)).filter(quotable);
  const wanted = Math.min(8, 2 + truth.pages);
  for (let i = 0; i < wanted && pool.length > 0; i++) {
    const text = pool.splice(Math.floor(random.next() * pool.length), 1)[0]!;
    out.push({ type: 'present', text, max_diffs: maxDiffs(text) });
  }
  // Fields: the value must be read, and after its label, however the form sets them side by side.
  const fields = truth.blocks.filter((b): b is Extract<TruthBlock, { kind: 'field' }> => b.kind === 'field');
  for (const f of fields.slice(0, 6)) {
    if (f.value.length >= 6) out.push({ type: 'present', text: f.value, max_diffs: 0 });
    if (f.label.length >= 6 && f.value.length >= 4) out.push({ type: 'order', before: f.label, after: f.value, max_diffs: 0 });
  }
  const headings = truth.blocks.filter((b) => b.kind === 'heading' && b.text.length >= 8);
  for (const h of headings.slice(0, 2)) if (h.kind === 'heading') out.push({ type: 'present', text: h.text, max_diffs: maxDiffs(h.text) });
  // Furniture: each distinct line long enough to be told apart from body text, a few per document.
  const lines = new Set<string>();
  for (const page of truth.furniture) for (const line of [...page.header, ...page.footer]) if (line.replace(/[^\p{L}\p{N}]/gu, '').length >= 4) lines.add(line);
  // A line the body also prints (a running head that repeats the title) cannot be absent.
  const body = truth.markdown.toLowerCase();
  const furniture = [...lines].filter((line) => !body.includes(line.toLowerCase()));
  for (let i = 0; i < 4 && furniture.length > 0; i++) {
    const text = furniture.splice(Math.floor(random.next() * furniture.length), 1)[0]!;
    out.push({ type: 'absent', text, max_diffs: 0 });
  }
  // Order: a sentence that starts a block before one that starts a later block, two or more blocks on.
  const starts = truth.blocks
    .map((b, index) => ({ index, text: b.kind === 'paragraph' || b.kind === 'heading' ? sentences(b.text)[0]!.slice(0, 90) : '' }))
    .filter((s) => s.text.length >= 25 && !s.text.includes('$'));
  for (let i = 0; i < 3 && starts.length >= 3; i++) {
    const a = Math.floor(random.next() * (starts.length - 2));
    const b = a + 2 + Math.floor(random.next() * (starts.length - a - 2));
    out.push({ type: 'order', before: starts[a]!.text, after: starts[b]!.text, max_diffs: 2 });
  }
  if (starts.length >= 2) out.push({ type: 'order', before: starts[0]!.text, after: starts.at(-1)!.text, max_diffs: 2 });
  const counts = new Map<string, number>();
  for (const word of truthWords(truth)) counts.set(word, (counts.get(word) ?? 0) + 1);
  const unique = (text: string): boolean => (counts.get(text) ?? 0) <= 1;
  for (const block of truth.blocks.filter((b) => b.kind === 'table').slice(0, 3))
    if (block.kind === 'table') out.push(...tableTests(block.table, random, unique));
  for (const block of truth.blocks.filter((b) => b.kind === 'formula').slice(0, 4)) if (block.kind === 'formula') out.push({ type: 'math', math: block.latex });
  return out;
}

/** Every table cell's text and every block's text: a cell is unique when it appears once among these. */
function truthWords(truth: DocumentTruth): string[] {
  return truth.blocks.flatMap((b) => (b.kind === 'table' ? b.table.cells.map((c) => c.text) : []));
}

/**
 * Hyphens at line ends joined (`hyphen-\nation` → `hyphenation`), as a reader should: the text
 * layer of a justified page keeps the break.
 */
export function joinHyphens(text: string): string {
  return text.replace(/(\p{L})-\n(\p{Ll})/gu, '$1$2');
}

/**
 * Does `text` appear in one of the text layers (as a present test would judge it), with hyphens
 * joined or kept? Several extractions are asked (content order, reading order): a text that only
 * one of them splits across columns is still printed whole.
 */
function inLayer(text: string, layers: readonly string[], diffs = maxDiffs(text)): boolean {
  const probe = (t: string): boolean => runCheck({ pdf: 'x', page: 1, id: 'x', type: 'present', text, max_diffs: diffs }, t).passed;
  // Right-to-left text comes out of pdftotext with bidi marks and Chromium's lam-alef ligatures
  // reversed: compared with those and all spacing squashed away, it must still be there whole.
  const squashed = squash(text);
  return layers.some((layer) => probe(joinHyphens(layer)) || probe(layer) || (squashed.length >= 4 && squash(layer).includes(squashed)));
}

/**
 * Check the candidates against the truth's Markdown and the PDF's text layer; number the kept.
 *
 * @param extractions the PDF's text per page, one array per extraction (pdftotext's content order, its reading order)
 */
export function checkedTests(
  truth: DocumentTruth,
  candidates: readonly Omit<BenchTest, 'pdf' | 'page' | 'id'>[],
  extractions: readonly (readonly string[])[],
): GeneratedTests {
  const tests: BenchTest[] = [];
  const dropped: { id: string; reason: string }[] = [];
  // Body text that runs on over a page break is read across it: the furniture between is taken out.
  const bodyOf = (layerPages: readonly string[]): string =>
    layerPages
      .map((text, p) => {
        // One occurrence of each: the first for a head, the last for a foot (a title may repeat its running head).
        const lines = text.split('\n');
        for (const head of truth.furniture[p]?.header ?? []) {
          const at = lines.findIndex((l) => l.trim() === head.trim());
          if (at >= 0) lines.splice(at, 1);
        }
        for (const foot of truth.furniture[p]?.footer ?? []) {
          const at = lines.findLastIndex((l) => l.trim() === foot.trim());
          if (at >= 0) lines.splice(at, 1);
        }
        return lines.join('\n');
      })
      .join('\n');
  const layers = extractions.map(bodyOf);
  candidates.forEach((candidate, i) => {
    const id = `${truth.id}_${String(i).padStart(2, '0')}`;
    const test = { pdf: `${truth.id}.pdf`, page: 1, id, ...candidate } as BenchTest;
    const own = runCheck(test, truth.markdown);
    if (!own.passed) {
      dropped.push({ id, reason: `fails on the truth's own Markdown: ${own.reason}` });
      return;
    }
    let missing: string | undefined;
    if (test.type === 'absent') {
      const pages = truth.furniture.flatMap((f, p) => ([...f.header, ...f.footer].includes(test.text!) ? [p] : []));
      const lost = pages.find(
        (p) =>
          !inLayer(
            test.text!,
            extractions.map((pages) => pages[p] ?? ''),
            0,
          ),
      );
      if (lost !== undefined) missing = `furniture line not on page ${lost + 1}'s text layer: ${test.text}`;
    } else {
      const texts = [test.text, test.before, test.after, test.cell, test.up, test.down, test.left, test.right, test.top_heading].filter(
        (t): t is string => t !== undefined,
      );
      if (test.type !== 'math') missing = texts.find((t) => !inLayer(t, layers, test.type === 'table' ? 0 : maxDiffs(t)));
      if (missing !== undefined) missing = `not in the text layer: ${missing}`;
    }
    if (missing !== undefined) dropped.push({ id, reason: missing });
    else tests.push(test);
  });
  return { tests, dropped };
}
