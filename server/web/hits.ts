/** One hit as the search and ask views list it: where it is, the snippet, the score parts. */
import type { HitView } from '../routes/api-types.ts';
import { baseName, h, pagesLabel } from './dom.ts';

/** The document view of a hit: its first boxed page, the chunk lit. */
export function hitHref(hit: HitView): string {
  const page = hit.bboxes[0]?.page ?? hit.pages[0] ?? 1;
  return `#/doc/${encodeURIComponent(hit.docId)}?page=${page}&chunk=${encodeURIComponent(hit.id)}`;
}

/** `RRF 0.0325 · BM25 #1 (7.41) · kNN #3 (0.872)`: which list found the hit, and how well. */
export function scoreParts(hit: HitView, mode: string): HTMLElement {
  const parts: (HTMLElement | string)[] = [];
  if (mode === 'hybrid') parts.push(h('span', { class: 'part rrf', title: 'reciprocal rank fusion of both lists' }, `RRF ${hit.score.toFixed(4)}`));
  const list = (name: 'bm25' | 'knn', label: string, digits: number): void => {
    const rank = hit.ranks[name];
    const score = hit.scores[name];
    parts.push(
      h(
        'span',
        { class: `part ${name}${rank === undefined ? ' absent' : ''}` },
        rank === undefined ? `${label} –` : `${label} #${rank}${score !== undefined ? ` (${score.toFixed(digits)})` : ''}`,
      ),
    );
  };
  if (mode !== 'knn') list('bm25', 'BM25', 2);
  if (mode !== 'bm25') list('knn', 'kNN', 3);
  return h('div', { class: 'scores' }, parts);
}

export function snippetOf(hit: HitView): HTMLElement {
  return h(
    'p',
    { class: 'snippet' },
    hit.snippet.map((part) => (part.hit ? h('mark', null, part.text) : part.text)),
  );
}

export function hitItem(hit: HitView, mode: string, label?: string): HTMLLIElement {
  const where = [pagesLabel(hit.pages), hit.headingPath.join(' › ')].filter(Boolean).join(' · ');
  return h(
    'li',
    { class: 'hit', 'data-doc': hit.docId, 'data-chunk': hit.id },
    h(
      'div',
      { class: 'hit-head' },
      label ? h('a', { class: 'cite-label', href: hitHref(hit), title: 'open the cited page' }, label) : null,
      h('a', { class: 'hit-title', href: hitHref(hit), title: hit.source }, baseName(hit.source)),
      hit.title ? h('span', { class: 'muted doc-title' }, hit.title) : null,
    ),
    h(
      'div',
      { class: 'hit-meta' },
      where,
      hit.kind.map((k) => h('span', { class: `kind k-${k}` }, k)),
    ),
    snippetOf(hit),
    scoreParts(hit, mode),
  );
}
