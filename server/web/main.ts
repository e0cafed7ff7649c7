/**
 * The app's entry: a hash router over four views (search, document, convert, ask), the server's
 * facts fetched once, and the token form shown whenever the server answers 401.
 */
import type { AppInfo } from '../routes/api-types.ts';
import { ApiError, getJson, onUnauthorised, setToken } from './api.ts';
import { renderAsk } from './ask-view.ts';
import { renderConvert } from './convert-view.ts';
import { renderDocumentRoute } from './document-view.ts';
import { h, notice } from './dom.ts';
import { renderSearch } from './search-view.ts';

const view = document.getElementById('view')!;
const tokenPanel = document.getElementById('token-panel')!;
let info: AppInfo | undefined;
/** Bumped per navigation: a slow answer for an earlier route must not paint over a newer one. */
let generation = 0;

function showTokenForm(): void {
  const input = h('input', { id: 'token', type: 'password', autocomplete: 'current-password', placeholder: 'FOLIO_SERVE_TOKEN', required: true });
  const form = h(
    'form',
    { class: 'token-form' },
    h('label', { for: 'token' }, 'This server needs its access token (the FOLIO_SERVE_TOKEN it was started with):'),
    input,
    h('button', { type: 'submit' }, 'Use token'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    setToken(input.value.trim());
    tokenPanel.hidden = true;
    void render();
  });
  tokenPanel.replaceChildren(form);
  tokenPanel.hidden = false;
  input.focus();
}

onUnauthorised(showTokenForm);

async function render(): Promise<void> {
  const mine = ++generation;
  const [path = '', query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const [route = 'search', ...rest] = path.split('/');
  const params = new URLSearchParams(query);
  for (const link of document.querySelectorAll<HTMLAnchorElement>('nav a[data-nav]')) link.classList.toggle('active', link.dataset['nav'] === route);
  if (!info) {
    try {
      info = await getJson<AppInfo>('/api/info');
      document.getElementById('index-name')!.textContent = info.search ? `index ${info.index}` : 'no Elasticsearch';
    } catch (error) {
      if (mine !== generation) return;
      view.replaceChildren(
        notice(
          'error',
          error instanceof ApiError && error.status === 401
            ? 'Enter the access token above to use the app.'
            : error instanceof Error
              ? error.message
              : String(error),
        ),
      );
      return;
    }
  }
  if (mine !== generation) return;
  const target = h('div', { class: `route-${route}` });
  view.replaceChildren(target);
  if (route === 'doc' && rest[0]) await renderDocumentRoute(target, decodeURIComponent(rest[0]), params);
  else if (route === 'convert') renderConvert(target, info);
  else if (route === 'ask') await renderAsk(target, params, info);
  else await renderSearch(target, params, info);
  document.title = `Folio · ${route === 'doc' ? 'document' : route}`;
}

window.addEventListener('hashchange', () => void render());
void render();
