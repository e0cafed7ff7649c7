import { ConfigurationError } from '../../core/errors.ts';
import { stableId } from '../../core/hash.ts';
import type { BBox, Chunk, Element, ElementKind, ElementLocation, QualityReport } from '../../core/types.ts';
import { assignHeadingPaths } from '../markdown/headings.ts';
import { renderWithLines } from '../markdown/render.ts';
import { countTokens as approximateTokens } from './tokens.ts';
import { toUnits, type Unit } from './units.ts';

export interface ChunkOptions {
  /** Document id (`SourceDocument.id`); chunk ids are `stableId(docId, index)`. */
  readonly docId: string;
  /** The document's URI, copied to every chunk. */
  readonly source: string;
  readonly title?: string;
  readonly contentHash: string;
  /** The engine that wrote the Markdown, copied to every chunk. */
  readonly engine: string;
  /** Quality report per page number; a chunk gets the worst of its pages. */
  readonly quality?: ReadonlyMap<number, QualityReport>;
  /**
   * Token budget of a chunk, heading path included. Only a formula, or a table row, longer than
   * this on its own goes over.
   * @default 512
   */
  readonly maxTokens?: number;
  /**
   * Tokens of the previous chunk's prose repeated at the start of the next one in the same section.
   * @default 0
   */
  readonly overlapTokens?: number;
  /**
   * Chunks smaller than this take in the next section when the two fit together.
   * @default Math.floor(maxTokens / 4)
   */
  readonly minTokens?: number;
  /**
   * Token counter, ideally the embedding model's tokenizer.
   * @default countTokens (a documented approximation)
   */
  readonly countTokens?: (text: string) => number;
  /**
   * Index page headers and footers too.
   * @default false
   */
  readonly furniture?: boolean;
}

interface Draft {
  units: Unit[];
  tokens: number;
  /** The heading path the chunk text starts with: common to all its units. */
  path: readonly string[];
  overlap: string;
}

/**
 * Cut a document's elements (document order, continued tables merged) into token-budgeted chunks.
 * Chunk text starts with its heading path; tables are atomic when they fit and split by rows with
 * the header repeated when not; formulas are never split; small neighbours are merged. Each chunk
 * carries its pages, boxes, element kinds, quality and line range in `renderMarkdown(elements)`.
 *
 * @example
 * chunkDocument(mergeContinuedTables(pages), { docId, source, contentHash, engine: 'markdown' })
 */
export function chunkDocument(elements: readonly Element[], options: Readonly<ChunkOptions>): Chunk[] {
  const {
    docId,
    source,
    title,
    contentHash,
    engine,
    quality,
    maxTokens = 512,
    overlapTokens = 0,
    countTokens = approximateTokens,
    furniture = false,
  } = options;
  validate(options, maxTokens, overlapTokens);
  const { minTokens = Math.floor(maxTokens / 4) } = options;
  const ordered = assignHeadingPaths(elements);
  const rendered = renderWithLines(ordered);
  const lines = new Map<Element, { from: number; to: number }>();
  // The headings right before an element open its section: the first chunk holding the element
  // starts its line range at them, so `loc.lines` shows the heading with the text.
  const sectionFrom = new Map<Element, number>();
  let headingFrom: number | undefined;
  ordered.forEach((element, i) => {
    const range = rendered.lines[i];
    if (range) lines.set(element, range);
    if (element.kind === 'heading') headingFrom ??= range?.from;
    else if (range) {
      if (headingFrom !== undefined) sectionFrom.set(element, headingFrom);
      headingFrom = undefined;
    }
  });
  const placed = new Set<Element>();
  const kept = furniture ? ordered : ordered.filter((element) => element.kind !== 'pageHeader' && element.kind !== 'pageFooter');
  const prefixCache = new Map<string, number>();
  const prefixTokens = (path: readonly string[]): number => {
    if (path.length === 0) return 0;
    const line = pathLine(path);
    let tokens = prefixCache.get(line);
    if (tokens === undefined) prefixCache.set(line, (tokens = countTokens(line) + 1));
    return tokens;
  };
  const budget = (path: readonly string[]): number => Math.max(Math.floor(maxTokens / 2), maxTokens - prefixTokens(path));
  const units = toUnits(kept, { budget, countTokens });

  const drafts: Draft[] = [];
  let current: Draft | undefined;
  // Untranscribed figures (no text) ride with a neighbour: the previous chunk, else the next one.
  let riders: Unit[] = [];
  for (const unit of units) {
    if (unit.text === '') {
      if (current) current.units.push(unit);
      else riders.push(unit);
      continue;
    }
    if (current && fits(current, unit)) {
      current.units.push(unit);
      current.tokens += unit.tokens;
      current.path = commonPrefix(current.path, unit.headingPath);
      continue;
    }
    const sameSection = current !== undefined && samePath(current.path, unit.headingPath);
    const overlap = sameSection && overlapTokens > 0 && unit.prose ? tail(current!, overlapTokens, countTokens) : '';
    current = { units: [...riders, unit], tokens: unit.tokens + (overlap === '' ? 0 : countTokens(overlap)), path: unit.headingPath, overlap };
    riders = [];
    drafts.push(current);
  }

  function fits(draft: Draft, unit: Unit): boolean {
    const hasTable = draft.units.some((u) => u.table);
    if (unit.table && hasTable) return false;
    const path = commonPrefix(draft.path, unit.headingPath);
    const limit = maxTokens - prefixTokens(path);
    // Section change: only a small chunk takes in the next section (its headings go inline).
    const extra = samePath(draft.path, unit.headingPath) ? 0 : countTokens(unit.headingPath.slice(path.length).join('\n')) + 1;
    if (!samePath(draft.path, unit.headingPath) && draft.tokens >= minTokens) return false;
    // Sections with nothing in common are not merged: the chunk would lose its heading path.
    if (!samePath(draft.path, unit.headingPath) && path.length === 0 && draft.path.length > 0) return false;
    return draft.tokens + unit.tokens + extra <= limit;
  }

  return drafts.map((draft, index) => {
    const text = chunkText(draft);
    const all = draft.units.flatMap((unit) => unit.elements);
    const elementsOf = [...new Set(all)];
    const pages = [...new Set(elementsOf.flatMap((element) => element.pages))].sort((a, b) => a - b);
    const table = draft.units.find((unit) => unit.table)?.table;
    const locations = distinctLocations(
      draft.units.flatMap((unit) => (unit.location === undefined ? unit.elements.flatMap((e) => e.location ?? []) : [unit.location])),
    );
    const formulas = elementsOf.flatMap((element) => element.formulas ?? []).map((formula) => ({ latex: formula.latex, valid: formula.valid }));
    const ranges = elementsOf.flatMap((element) => {
      const range = lines.get(element);
      if (!range) return [];
      const from = placed.has(element) ? undefined : sectionFrom.get(element);
      placed.add(element);
      return [from === undefined ? range : { from, to: range.to }];
    });
    const chunk: Record<string, unknown> = {
      id: stableId(docId, index),
      docId,
      source,
      text,
      headingPath: draft.path,
      pages,
      bboxes: elementsOf.flatMap(boxesOf),
      kinds: [...new Set<ElementKind>(elementsOf.map((element) => element.kind))],
      tokens: countTokens(text),
      index,
      contentHash,
      engine,
    };
    if (title !== undefined) chunk['title'] = title;
    if (table) chunk['table'] = table;
    if (formulas.length > 0) chunk['formulas'] = formulas;
    if (locations.length > 0) chunk['locations'] = locations;
    const report = qualityOf(pages, quality);
    if (report) chunk['quality'] = report;
    if (ranges.length > 0) chunk['lines'] = { from: Math.min(...ranges.map((r) => r.from)), to: Math.max(...ranges.map((r) => r.to)) };
    return chunk as unknown as Chunk;
  });
}

/** Each location once, in order: a chunk of a sheet's notes and table names the sheet once per range. */
function distinctLocations(locations: readonly ElementLocation[]): ElementLocation[] {
  const seen = new Set<string>();
  const out: ElementLocation[] = [];
  for (const location of locations) {
    const key = `${location.sheet ?? ''}\u0000${location.range ?? ''}\u0000${location.slide ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(location);
  }
  // A sheet named alone adds nothing once one of its ranges is there.
  return out.filter((l) => l.range !== undefined || l.slide !== undefined || !out.some((o) => o.sheet === l.sheet && o.range !== undefined));
}

function chunkText(draft: Draft): string {
  const parts: string[] = [];
  if (draft.path.length > 0) parts.push(pathLine(draft.path));
  if (draft.overlap !== '') parts.push(draft.overlap);
  let path = draft.path;
  for (const unit of draft.units) {
    if (unit.text === '') continue;
    // A merged-in section announces its own headings inline.
    if (!samePath(path, unit.headingPath)) {
      const common = commonPrefix(path, unit.headingPath);
      parts.push(...unit.headingPath.slice(common.length));
      path = unit.headingPath;
    }
    parts.push(unit.text);
  }
  return parts.join('\n\n');
}

function pathLine(path: readonly string[]): string {
  return path.join(' > ');
}

function tail(draft: Draft, tokens: number, countTokens: (text: string) => number): string {
  const last = [...draft.units].reverse().find((unit) => unit.prose && unit.text !== '');
  if (!last) return '';
  const words = last.text.split(/\s+/u);
  const taken: string[] = [];
  let count = 0;
  for (let i = words.length - 1; i >= 0; i--) {
    const cost = countTokens(words[i]!);
    if (count + cost > tokens) break;
    taken.unshift(words[i]!);
    count += cost;
  }
  return taken.join(' ');
}

function boxesOf(element: Element): { page: number; bbox: BBox }[] {
  if (element.bboxes) return [...element.bboxes];
  return element.bbox ? [{ page: element.pageNumber, bbox: element.bbox }] : [];
}

function qualityOf(pages: readonly number[], quality: ReadonlyMap<number, QualityReport> | undefined): Chunk['quality'] {
  if (!quality) return undefined;
  const reports = pages.flatMap((page) => quality.get(page) ?? []);
  if (reports.length === 0) return undefined;
  const multi = reports.length > 1;
  return {
    score: Math.min(...reports.map((report) => report.score)),
    passed: reports.every((report) => report.passed),
    reasons: reports.flatMap((report) => report.reasons.map((reason) => (multi ? `page ${report.pageNumber}: ${reason}` : reason))),
  };
}

function commonPrefix(a: readonly string[], b: readonly string[]): readonly string[] {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i === a.length ? a : a.slice(0, i);
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function validate(options: Readonly<ChunkOptions>, maxTokens: number, overlapTokens: number): void {
  for (const name of ['docId', 'source', 'contentHash', 'engine'] as const) {
    const value: unknown = options[name];
    if (typeof value !== 'string')
      throw new ConfigurationError('FOLIO_CHUNK_OPTIONS', `Expected \`${name}\` to be a string, got \`${String(value)}\` (${typeof value})`);
  }
  if (!Number.isInteger(maxTokens) || maxTokens < 16) {
    throw new ConfigurationError(
      'FOLIO_CHUNK_OPTIONS',
      `Expected \`maxTokens\` to be an integer from 16 and up, got \`${String(maxTokens)}\` (${typeof maxTokens})`,
    );
  }
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens > maxTokens / 2) {
    throw new ConfigurationError(
      'FOLIO_CHUNK_OPTIONS',
      `Expected \`overlapTokens\` to be an integer from 0 to maxTokens / 2 (${maxTokens / 2}), got \`${String(overlapTokens)}\` (${typeof overlapTokens})`,
    );
  }
  if (options.countTokens !== undefined && typeof options.countTokens !== 'function') {
    throw new ConfigurationError(
      'FOLIO_CHUNK_OPTIONS',
      `Expected \`countTokens\` to be a function, got \`${String(options.countTokens)}\` (${typeof options.countTokens})`,
    );
  }
}
