/** Search: a query over the index (hybrid, BM25 or kNN, plain words or Lucene syntax) and its hits. */
import type { AppInfo, SearchResponse } from '../routes/api-types.ts';
import { ApiError, getJson } from './api.ts';
import { h, notice } from './dom.ts';
import { hitItem } from './hits.ts';

export function searchForm(route: 'search' | 'ask', params: URLSearchParams, info: AppInfo): HTMLFormElement {
  const mode = params.get('mode') ?? (info.knn ? 'hybrid' : 'bm25');
  const input = h('input', {
    id: 'q',
    name: 'q',
    type: 'search',
    placeholder: route === 'ask' ? 'Ask a question about the documents' : 'Search the documents',
    autocomplete: 'off',
    required: true,
  });
  input.value = params.get('q') ?? '';
  const modes = h(
    'select',
    { id: 'mode', name: 'mode', 'aria-label': 'search mode' },
    ['hybrid', 'bm25', 'knn'].map((m) =>
      h('option', { value: m, selected: m === mode, disabled: m !== 'bm25' && !info.knn }, m === 'bm25' ? 'BM25' : m === 'knn' ? 'kNN' : 'hybrid'),
    ),
  );
  const lucene = h('input', { id: 'lucene', name: 'syntax', type: 'checkbox', value: 'lucene', checked: params.get('syntax') === 'lucene' });
  const form = h(
    'form',
    { class: 'query', role: 'search' },
    input,
    modes,
    route === 'search'
      ? h('label', { class: 'check', title: 'parse the query as a Lucene query string: kind:table AND "stop nut"' }, lucene, 'Lucene syntax')
      : null,
    h('button', { type: 'submit' }, route === 'ask' ? 'Ask' : 'Search'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams({ q: input.value.trim(), mode: modes.value });
    if (route === 'search' && lucene.checked) next.set('syntax', 'lucene');
    const hash = `#/${route}?${next}`;
    // The same query again still searches again (the hash would not change).
    if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
    else location.hash = hash;
  });
  return form;
}

export async function renderSearch(root: HTMLElement, params: URLSearchParams, info: AppInfo): Promise<void> {
  const results = h('section', { id: 'results', 'aria-live': 'polite' });
  root.replaceChildren(h('h1', null, 'Search'), searchForm('search', params, info), results);
  if (!info.search) {
    results.append(notice('warning', 'This server has no Elasticsearch: start folio serve with --es URL to search. Converting files works without it.'));
    return;
  }
  const query = params.get('q')?.trim();
  if (!query) return;
  results.append(h('p', { class: 'muted' }, 'Searching…'));
  try {
    const found = await getJson<SearchResponse>(
      `/api/search?${new URLSearchParams({ q: query, mode: params.get('mode') ?? '', syntax: params.get('syntax') ?? '', k: '10' })}`,
    );
    results.replaceChildren(
      h('p', { class: 'muted count' }, `${found.hits.length} hit${found.hits.length === 1 ? '' : 's'} for “${found.query}” (${found.mode})`),
      found.hits.length > 0
        ? h(
            'ol',
            { class: 'hits' },
            found.hits.map((hit) => hitItem(hit, found.mode)),
          )
        : notice('info', `No chunk matches “${found.query}”.`),
    );
  } catch (error) {
    results.replaceChildren(notice('error', error instanceof ApiError ? error.message : String(error)));
  }
}
