/**
 * A display formula read on an OCR page put into the page's Markdown in place of the recogniser's
 * text for it: the block the formula's lines were laid into is cut where the first of them starts,
 * the formula goes between the two halves as a `formula` block of its own, and the lines' text is
 * taken out of what follows (and out of any other block a piece of the formula was laid into).
 */
import type { OcrLine } from '../../core/types.ts';
import type { TaggedBlock } from './blocks.ts';

type Box = readonly [number, number, number, number];

/**
 * The blocks with the formula in, or undefined when a line's text cannot be found in the block
 * it lies in (the layout rewrote it): then the recogniser's text stays as it was.
 *
 * @example
 * mergeScanFormula(blocks, lines, [300, 410, 700, 440], '$$x^{2}$$', { engine: 'folio-ocr-math', confidence: 2.1 })
 */
export function mergeScanFormula(
  blocks: readonly TaggedBlock[],
  lines: readonly OcrLine[],
  box: Box,
  markdown: string,
  read: Readonly<{ engine: string; confidence: number }>,
): { blocks: TaggedBlock[]; added: TaggedBlock } | undefined {
  const out = blocks.map((b) => ({ ...b }));
  const cuts: { block: number; at: number }[] = [];
  for (const line of lines) {
    const cx = (line.box[0] + line.box[2]) / 2;
    const cy = (line.box[1] + line.box[3]) / 2;
    const index = out.findIndex((b) => b.box !== undefined && cx >= b.box[0] - 2 && cx <= b.box[2] + 2 && cy >= b.box[1] - 2 && cy <= b.box[3] + 2);
    if (index === -1) return undefined;
    const block = out[index]!;
    const head = block.markdown.indexOf('\n') + 1;
    const body = block.markdown.slice(head);
    const at = findEscaped(body, line.text.trim(), cuts.find((c) => c.block === index)?.at ?? 0);
    if (at === undefined) return undefined;
    cuts.push({ block: index, at: at.start });
    out[index] = { ...block, markdown: block.markdown.slice(0, head) + body.slice(0, at.start) + '\u0000'.repeat(at.end - at.start) + body.slice(at.end) };
  }
  const first = cuts.reduce((a, b) => (b.block < a.block || (b.block === a.block && b.at < a.at) ? b : a));
  const added: TaggedBlock = { markdown: `${tag('formula', box)}\n${markdown}`, label: 'formula', box, engine: read.engine, confidence: read.confidence };
  const result: TaggedBlock[] = [];
  out.forEach((block, i) => {
    const head = block.markdown.indexOf('\n') + 1;
    const line = block.markdown.slice(0, head);
    const body = block.markdown.slice(head);
    if (i !== first.block) {
      const rest = tidy(body);
      if (cuts.some((c) => c.block === i) && rest === '') return;
      result.push(cuts.some((c) => c.block === i) ? { ...block, markdown: line + rest } : blocks[i]!);
      return;
    }
    const before = tidy(body.slice(0, first.at));
    const after = tidy(body.slice(first.at));
    if (before !== '') result.push({ ...block, markdown: line + before });
    result.push(added);
    // The rest of the paragraph after the formula: a block of its own, in the label and box of the first.
    if (after !== '' && block.box !== undefined)
      result.push({
        ...block,
        markdown: `${tag(block.label === 'title' || block.label === 'sub_title' ? 'text' : block.label, block.box)}\n${after.replace(/^#+\s+/, '')}`,
      });
  });
  return { blocks: result, added };
}

/** Where `text` sits in `body` as the recogniser's Markdown writes it (escaped), from `from` on. */
function findEscaped(body: string, text: string, from: number): { start: number; end: number } | undefined {
  if (text === '') return undefined;
  const pattern = [...text]
    .map((c) => {
      if (c === '<') return '&lt;';
      const quoted = c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
      return /[\\`*_$\]#>=]/.test(c) ? `\\\\?${quoted}` : /\s/.test(c) ? '\\s+' : quoted;
    })
    .join('');
  const re = new RegExp(pattern, 'g');
  re.lastIndex = from;
  const m = re.exec(body);
  return m === null ? undefined : { start: m.index, end: m.index + m[0].length };
}

/** A block's text with the cut-out lines gone and the spaces around them closed up. */
function tidy(body: string): string {
  const text = body
    .replace(/\u0000+/g, ' ')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
  // A heading's marker with nothing left after it is no heading.
  return /^#+$/.test(text) ? '' : text;
}

function tag(label: string, box: Box): string {
  return `<|ref|>${label}<|/ref|><|det|>[[${box[0]}, ${box[1]}, ${box[2]}, ${box[3]}]]<|/det|>`;
}
