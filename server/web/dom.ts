/** A tiny element builder: the app's views are plain DOM, built with `h('tag', attrs, ...children)`. */

export type Child = Node | string | number | null | undefined | false;
type Attrs = Readonly<Record<string, string | number | boolean | EventListener | undefined | null>>;

function apply(element: Element, attrs: Attrs | null | undefined): void {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
}

function append(element: Element, children: readonly (Child | readonly Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
  }
}

/** An HTML element; text children are text nodes, never parsed as markup. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: (Child | readonly Child[])[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  apply(element, attrs);
  append(element, children);
  return element;
}

/** An SVG element (the page overlay). */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: (Child | readonly Child[])[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  apply(element, attrs);
  append(element, children);
  return element;
}

/** A message box; `role="alert"` so it is announced and easy to find. */
export function notice(kind: 'error' | 'warning' | 'info', message: string): HTMLElement {
  return h('div', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, message);
}

/** `a/b/c.pdf` → `c.pdf` (also for `file:///` URIs). */
export function baseName(source: string): string {
  const clean = decodeURIComponent(source.replace(/^file:\/\//, ''));
  return clean.split(/[\\/]/).pop() || source;
}

/** `p. 3` or `pp. 3–4, 7`. */
export function pagesLabel(pages: readonly number[]): string {
  const sorted = [...new Set(pages)].sort((a, b) => a - b);
  if (sorted.length === 0) return '';
  const runs: string[] = [];
  let start = sorted[0]!;
  let prev = start;
  for (const page of [...sorted.slice(1), Infinity]) {
    if (page === prev + 1) {
      prev = page;
      continue;
    }
    runs.push(start === prev ? String(start) : `${start}–${prev}`);
    start = page;
    prev = page;
  }
  return `${sorted.length === 1 ? 'p.' : 'pp.'} ${runs.join(', ')}`;
}
