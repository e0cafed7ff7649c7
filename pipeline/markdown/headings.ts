import type { Element } from '../../core/types.ts';

/**
 * Set every element's heading path from the headings before it, in document order. A heading's
 * own path holds its enclosing headings, not itself.
 *
 * @example
 * assignHeadingPaths(elements, ['Chapter 1']) // paths continue from an earlier page
 */
export function assignHeadingPaths(elements: readonly Element[], initial: readonly string[] = []): Element[] {
  const stack: { level: number; title: string }[] = initial.map((title, i) => ({ level: i + 1, title }));
  let path: readonly string[] = initial;
  return elements.map((element) => {
    if (element.kind === 'heading' && element.text !== '') {
      const level = element.level ?? 1;
      while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
      const own = stack.map((entry) => entry.title);
      stack.push({ level, title: element.text });
      path = stack.map((entry) => entry.title);
      return sameList(element.headingPath, own) ? element : { ...element, headingPath: own };
    }
    return sameList(element.headingPath, path) ? element : { ...element, headingPath: path };
  });
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
