/**
 * Ask: the `folio ask` flow. The answer (when the server has an LLM) cites passages as [n]; each
 * citation opens the cited page with the chunk's boxes lit.
 */
import type { AppInfo, AskResponse } from '../routes/api-types.ts';
import { ApiError, postJson } from './api.ts';
import { splitCitations } from './citations.ts';
import { h, notice } from './dom.ts';
import { hitHref, hitItem } from './hits.ts';
import { searchForm } from './search-view.ts';

export async function renderAsk(root: HTMLElement, params: URLSearchParams, info: AppInfo): Promise<void> {
  const out = h('section', { id: 'answer', 'aria-live': 'polite' });
  root.replaceChildren(h('h1', null, 'Ask'), searchForm('ask', params, info), out);
  if (!info.search) {
    out.append(notice('warning', 'This server has no Elasticsearch: start folio serve with --es URL to ask.'));
    return;
  }
  const query = params.get('q')?.trim();
  if (!query) return;
  out.append(h('p', { class: 'muted' }, info.llm ? 'Retrieving and asking the LLM…' : 'Retrieving…'));
  try {
    const result = await postJson<AskResponse>('/api/ask', { query, mode: params.get('mode') || undefined, k: 5 });
    const mode = params.get('mode') ?? (info.knn ? 'hybrid' : 'bm25');
    const answer =
      result.answer !== undefined
        ? h(
            'div',
            { class: 'answer-text' },
            splitCitations(result.answer, result.hits.length).map((part) => {
              if ('text' in part) return part.text;
              const hit = result.hits[part.cite - 1]!;
              return h('a', { class: 'cite', href: hitHref(hit), title: hit.citation }, `[${part.cite}]`);
            }),
          )
        : notice(
            'info',
            'No LLM is configured (start folio serve with --llm URL --llm-model NAME for a written answer); these are the passages an answer would cite.',
          );
    out.replaceChildren(
      answer,
      h('h2', null, 'Cited passages'),
      result.hits.length > 0
        ? h(
            'ol',
            { class: 'hits citations' },
            result.hits.map((hit, i) => hitItem(hit, mode, `[${i + 1}]`)),
          )
        : notice('info', `Nothing in the index answers “${result.query}”.`),
    );
  } catch (error) {
    out.replaceChildren(notice('error', error instanceof ApiError ? error.message : String(error)));
  }
}
