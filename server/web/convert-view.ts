/**
 * Convert: drop a file (or choose one, or name an `s3://bucket/key` object the server reads),
 * watch its pages come through the pipeline one by one, then see the result in the document view
 * and download its Markdown or JSON.
 */
import type { AppInfo, ConvertEvent } from '../routes/api-types.ts';
import { ApiError, ndjson, request } from './api.ts';
import { rememberDocument, renderDocument, routeLabel } from './document-view.ts';
import { h, notice } from './dom.ts';

export function renderConvert(root: HTMLElement, info?: AppInfo): void {
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
  const s3Input = h('input', {
    id: 's3-source',
    type: 'text',
    placeholder: 's3://bucket/prefix/key.pdf',
    pattern: 's3://.+/.+',
    required: true,
    spellcheck: false,
  });
  const s3Form = h(
    'form',
    { class: 'query s3-form' },
    h('label', { for: 's3-source' }, 'or an object in S3:'),
    s3Input,
    h('button', { type: 'submit' }, 'Convert'),
    info && !info.s3 ? h('span', { class: 'muted' }, ' (this server has no S3 configuration: it will refuse)') : null,
  );
  s3Form.addEventListener('submit', (event) => {
    event.preventDefault();
    const source = s3Input.value.trim();
    if (source)
      void convert(
        source.slice(source.lastIndexOf('/') + 1) || source,
        `/api/convert?source=${encodeURIComponent(source)}`,
        { method: 'POST' },
        progress,
        result,
      );
  });
  root.replaceChildren(
    h('h1', null, 'Convert'),
    h('p', { class: 'muted' }, 'The file goes through the same pipeline as folio convert: the text layer where it is good, OCR where it is not.'),
    zone,
    s3Form,
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

function convertFile(file: File, progress: HTMLElement, result: HTMLElement): Promise<void> {
  const init = { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: file };
  return convert(file.name, `/api/convert?name=${encodeURIComponent(file.name)}`, init, progress, result);
}

async function convert(name: string, path: string, init: RequestInit, progress: HTMLElement, result: HTMLElement): Promise<void> {
  const bar = h('progress', { id: 'convert-bar', max: 1, value: 0 });
  const status = h('p', { id: 'convert-status' }, init.body ? `Uploading ${name}…` : `Reading ${name}…`);
  const pages = h('ol', { class: 'progress-pages' });
  progress.replaceChildren(h('h2', null, name), bar, status, pages);
  result.replaceChildren();
  let total: number | undefined;
  try {
    const response = await request(path, init);
    for await (const event of ndjson<ConvertEvent>(response)) {
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
