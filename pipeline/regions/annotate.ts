/**
 * Elements parsed from a page whose blocks were partly read from pixels: each element inside such
 * a block records the engine that read it and its confidence.
 */
import type { Element } from '../../core/types.ts';
import type { TaggedBlock } from './blocks.ts';

/**
 * @example
 * annotateElements(elements, markdown, read) // the banner's paragraph now has engine 'paddle'
 */
export function annotateElements(elements: readonly Element[], markdown: string, read: readonly TaggedBlock[]): Element[] {
  const spans: { start: number; end: number; engine: string; confidence?: number; figureText?: string }[] = [];
  for (const block of read) {
    if (block.engine === undefined) continue;
    const start = markdown.indexOf(block.markdown.trimEnd());
    if (start === -1) continue;
    spans.push({ start, end: start + block.markdown.trimEnd().length, engine: block.engine, confidence: block.confidence, figureText: block.figureText });
  }
  if (spans.length === 0) return [...elements];
  return elements.map((element) => {
    const at = element.position;
    if (at === undefined) return element;
    const span = spans.find((s) => at[0] < s.end && at[1] > s.start);
    if (span === undefined) return element;
    const text = span.figureText !== undefined && element.kind === 'figure' ? { text: span.figureText } : {};
    return { ...element, ...text, engine: span.engine, ...(span.confidence === undefined ? {} : { confidence: span.confidence }) };
  });
}
