/**
 * olmOCR-Bench-style tests written from a document's truth: body sentences present, furniture
 * absent, blocks in order across columns and pages, table cells beside their neighbours, formulas.
 * They are candidates: the builder keeps those its check (`check/tests.ts`) finds true.
 */
import type { Random } from '../scans/random.ts';
import { maxDiffs } from './check/compare.ts';
import type { CandidateTest } from './check/tests.ts';
import type { DocumentTruth, TruthBlock, TruthCell, TruthTable } from './types.ts';

const sentences = (text: string): string[] => text.split(/(?<=[.!?])\s+(?=[A-Z])/).map((s) => s.trim());

/** Sentence-sized text a reader must keep: no formulas (their spelling is the math tests' business). */
const quotable = (s: string): boolean => s.length >= 30 && s.length <= 180 && !s.includes('$');

/** The slot grid of a table: which cell holds each (row, col). */
function slots(table: TruthTable): (TruthCell | undefined)[][] {
  const grid: (TruthCell | undefined)[][] = Array.from({ length: table.rows }, () => new Array<TruthCell | undefined>(table.cols).fill(undefined));
  for (const c of table.cells) for (let r = c.row; r < c.row + c.rowspan; r++) for (let k = c.col; k < c.col + c.colspan; k++) if (grid[r]) grid[r]![k] = c;
  return grid;
}

function tableTests(table: TruthTable, random: Random, unique: (text: string) => boolean): CandidateTest[] {
  const grid = slots(table);
  const at = (r: number, c: number): TruthCell | undefined => grid[r]?.[c];
  const body = table.cells.filter((c) => !c.header && c.text.length >= 2 && unique(c.text));
  const out: CandidateTest[] = [];
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
export function candidateTests(truth: DocumentTruth, random: Random): CandidateTest[] {
  const out: CandidateTest[] = [];
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

/** Every table cell's text: a cell is unique when its text appears once among these. */
function truthWords(truth: DocumentTruth): string[] {
  return truth.blocks.flatMap((b) => (b.kind === 'table' ? b.table.cells.map((c) => c.text) : []));
}
