/**
 * Convert: drop a file (or choose one), watch its pages come through the pipeline one by one,
 * then see the result in the document view and download its Markdown or JSON.
 */
import type { ConvertEvent } from '../routes/api-types.ts';
import { ApiError, request } from './api.ts';
import { rememberDocument, renderDocument, routeLabel } from './document-view.ts';
import { h, notice } from './dom.ts';

export function renderConvert(root: HTMLElement): void {
  const input = h('input', { id: 'file', type: 'file', accept: '.pdf,.png,.jpg,.jpeg,.tif,.tiff,.webp,.md,.markdown,.txt' });
  const zone = h(
    'div',
    { id: 'drop', class: 'dropzone', tabindex: 0, role: 'button', 'aria-label': 'drop a file to convert' },
    h('strong', null, 'Drop a PDF, scan or Markdown file here'),
    h('span', { class: 'muted' }, 'or '),
    h('label', { class: 'choose' }, 'choose one', input),
  );
  const progress = h('section', { id: 'progress', 'aria-live': 'polite' });
  const result = h('section', { id: 'result' });
  root.replaceChildren(
    h('h1', null, 'Convert'),
    h('p', { class: 'muted' }, 'The file goes through the same pipeline as folio convert: the text layer where it is good, OCR where it is not.'),
    zone,
    progress,
    result,
  );
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    const file = event.dataTransfer?.files[0];
    if (file) void convertFile(file, progress, result);
  });
  zone.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') input.click();
  });
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) void convertFile(file, progress, result);
  });
}

/** The answer's lines as they arrive (newline-delimited JSON). */
async function* events(response: Response): AsyncGenerator<ConvertEvent> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) yield JSON.parse(line) as ConvertEvent;
    }
  }
}

async function convertFile(file: File, progress: HTMLElement, result: HTMLElement): Promise<void> {
  const bar = h('progress', { id: 'convert-bar', max: 1, value: 0 });
  const status = h('p', { id: 'convert-status' }, `Uploading ${file.name}…`);
  const pages = h('ol', { class: 'progress-pages' });
  progress.replaceChildren(h('h2', null, file.name), bar, status, pages);
  result.replaceChildren();
  let total: number | undefined;
  try {
    const response = await request(`/api/convert?name=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: file,
    });
    for await (const event of events(response)) {
      if (event.type === 'started') {
        total = event.pages;
        if (total) bar.max = total;
        status.textContent = `Converting ${event.name}${total ? ` (${total} page${total === 1 ? '' : 's'})` : ''}…`;
      } else if (event.type === 'page') {
        bar.value = event.done;
        status.textContent = `${event.done} / ${total ?? '?'} pages`;
        pages.append(
          h(
            'li',
            { class: `progress-page route-${event.engine}`, 'data-page': event.pageNumber },
            `page ${event.pageNumber}: `,
            event.engine === 'failed' ? 'failed' : routeLabel({ engine: event.engine, pageNumber: event.pageNumber, reason: '', elements: [] }),
          ),
        );
      } else if (event.type === 'done') {
        const view = event.document;
        rememberDocument(view);
        bar.value = bar.max;
        status.textContent = `Done: ${view.pages.length} page${view.pages.length === 1 ? '' : 's'}, ${view.failures.length} failure${view.failures.length === 1 ? '' : 's'}.`;
        status.classList.add('done');
        const inline = h('div', { class: 'document' });
        result.replaceChildren(h('p', null, h('a', { href: `#/doc/${view.id}` }, 'Open the result in its own view')), inline);
        renderDocument(inline, view);
      } else {
        status.replaceWith(notice('error', event.reason));
      }
    }
  } catch (error) {
    progress.append(notice('error', error instanceof ApiError ? error.message : String(error)));
  }
}
