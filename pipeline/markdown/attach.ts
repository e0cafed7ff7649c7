import type { BBox, ElementKind, FormulaData, ListItem, TableData } from '../../core/types.ts';
import type { GroundingTag } from './grounding.ts';
import { kindOfLabel, levelOfLabel } from './labels.ts';

/** An element of one page before it gets its heading path. */
export interface Draft {
  kind: ElementKind;
  text: string;
  markdown: string;
  start: number;
  end: number;
  level?: number;
  label?: string;
  bbox?: BBox;
  /** Every box attached, the first being `bbox`. */
  bboxes?: BBox[];
  table?: TableData;
  formulas?: FormulaData[];
  items?: ListItem[];
  ordered?: boolean;
}

interface AttachOptions {
  readonly drafts: Draft[];
  readonly tags: readonly GroundingTag[];
  readonly page: Readonly<{ width: number; height: number }>;
  readonly gridSize: number;
}

// Labels that mark a region the engine may transcribe later (DeepSeek-OCR writes the `table` tag,
// then the caption with its own tag, then the table) or not at all (an image).
const deferred = new Set<ElementKind>(['table', 'formula', 'list', 'code']);

/**
 * Give each element the label and box of the grounding tag before it. A tag with nothing after it
 * but another tag waits for the next element of its kind (a table after its caption); an image tag
 * with nothing after it becomes a figure. Every tag's box ends up on some element.
 */
export function attachGrounding({ drafts, tags, page, gridSize }: AttachOptions): Draft[] {
  if (tags.length === 0) return drafts;
  const all = [...drafts];
  const owners = new Map<Draft, GroundingTag[]>();
  const own = (draft: Draft, tag: GroundingTag): void => {
    const list = owners.get(draft);
    if (list) list.push(tag);
    else owners.set(draft, [tag]);
  };
  for (const tag of tags) {
    const kind = kindOfLabel(tag.label);
    if (tag.empty && kind === 'figure') {
      const figure: Draft = { kind: 'figure', text: '', markdown: '<!-- image -->', start: tag.start, end: tag.end };
      all.push(figure);
      own(figure, tag);
      continue;
    }
    let target: Draft | undefined;
    if (tag.empty && kind !== undefined && deferred.has(kind)) {
      target = drafts.find((draft) => draft.start >= tag.end && draft.kind === kind && !owners.get(draft)?.some((t) => kindOfLabel(t.label) === kind));
    }
    target ??= drafts.find((draft) => draft.end > tag.end);
    // A tag with nothing after it (a truncated page) keeps its box on the text before it; with no
    // text at all on the page, the box is kept as an empty region.
    target ??= drafts.findLast((draft) => draft.start < tag.start);
    if (!target) {
      // Nothing to hold it: an unlabelled fragment is dropped (a page of stray tags must not become
      // thousands of regions); a labelled region is kept empty.
      if (tag.label === undefined) continue;
      target = { kind: 'figure', text: '', markdown: '', start: tag.start, end: tag.end };
      all.push(target);
    }
    own(target, tag);
  }
  for (const [draft, owned] of owners) {
    // The tag that best describes the element: one whose label matches its kind, else the first.
    const primary = owned.find((tag) => kindOfLabel(tag.label) === draft.kind) ?? owned.find((tag) => !tag.empty) ?? owned[0]!;
    if (primary.label !== undefined) {
      draft.label = primary.label;
      relabel(draft, primary.label);
    }
    const boxes = [primary, ...owned.filter((tag) => tag !== primary)].flatMap((tag) => {
      const box = toPage(tag.box, page, gridSize);
      return box ? [box] : [];
    });
    if (boxes[0]) draft.bbox = boxes[0];
    if (boxes.length > 1) draft.bboxes = boxes;
  }
  return all.sort((a, b) => a.start - b.start);
}

// The label wins over the Markdown shape only where the shape is generic: a paragraph labelled
// `title` is a heading, a heading labelled `page_header` is furniture.
function relabel(draft: Draft, label: string): void {
  const kind = kindOfLabel(label);
  if (kind === undefined || kind === draft.kind) return;
  if (draft.kind === 'paragraph') {
    if (kind === 'heading') {
      draft.kind = 'heading';
      draft.level = levelOfLabel(label);
      draft.markdown = `${'#'.repeat(draft.level)} ${draft.markdown.replace(/\s+/gu, ' ').trim()}`;
    } else if (kind === 'caption' || kind === 'footnote' || kind === 'pageHeader' || kind === 'pageFooter') {
      draft.kind = kind;
    }
  } else if ((draft.kind === 'heading' || draft.kind === 'list') && (kind === 'pageHeader' || kind === 'pageFooter')) {
    draft.kind = kind;
    draft.markdown = draft.text;
    delete draft.level;
  }
}

function toPage(box: GroundingTag['box'], page: Readonly<{ width: number; height: number }>, gridSize: number): BBox | undefined {
  if (!box) return undefined;
  const { width, height } = page;
  if (!(Number.isFinite(width) && width > 0 && Number.isFinite(height) && height > 0)) return undefined;
  const round = (value: number): number => Math.round(value * 100) / 100;
  const sx = width / gridSize;
  const sy = height / gridSize;
  return [round(box[0] * sx), round(box[1] * sy), round(box[2] * sx), round(box[3] * sy)];
}
