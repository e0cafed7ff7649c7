/**
 * The document view: one page image with its elements' boxes drawn over it (coloured by kind)
 * and the hit's chunk lit; beside it the page's Markdown, element by element, each lighting its
 * box on hover; the page's route, quality and failures; the pages of the document to flip through;
 * an e-mail's attachments by name, each opening to its text.
 */
import type { Box, ChunkView, DocumentEvent, DocumentView, PageView } from '../routes/api-types.ts';
import { ApiError, blobUrl, ndjson, request } from './api.ts';
import { h, notice, pagesLabel, s } from './dom.ts';

/** The route of a page the server has not read yet (see server/routes/outline.ts). */
const PENDING = 'pending';

const KIND_LABELS: Readonly<Record<string, string>> = {
  heading: 'heading',
  paragraph: 'paragraph',
  list: 'list',
  table: 'table',
  formula: 'formula',
  figure: 'figure',
  caption: 'caption',
  code: 'code',
  pageHeader: 'page header',
  pageFooter: 'page footer',
  footnote: 'footnote',
};

/** Documents seen this session (conversions included): flipping pages refetches nothing. */
const seen = new Map<string, DocumentView>();

export function rememberDocument(view: DocumentView): void {
  seen.set(view.id, view);
}

/** Where one document is shown while it is read: its pages are flipped as they come in. */
interface Target {
  readonly root: HTMLElement;
  readonly pageNumber: number | undefined;
  readonly chunkId: string | undefined;
}

/** A document being read: the view so far and every place it is shown. */
interface Reading {
  view?: DocumentView;
  readonly targets: Set<Target>;
}

const reading = new Map<string, Reading>();

/**
 * Opens document `id`: at once when this session has it, else from the server's stream, which
 * outlines the pages first (so the page image is asked for at once) and hands each page over as
 * it is read; the finished view replaces the provisional one.
 */
export async function renderDocumentRoute(root: HTMLElement, id: string, params: URLSearchParams): Promise<void> {
  const target: Target = { root, pageNumber: Number(params.get('page')) || undefined, chunkId: params.get('chunk') ?? undefined };
  const known = seen.get(id);
  if (known) return renderDocument(root, known, target.pageNumber, target.chunkId);
  const running = reading.get(id);
  if (running) {
    running.targets.add(target);
    if (running.view) paint(target, running.view);
    else root.replaceChildren(h('p', { class: 'muted' }, 'Reading the document…'));
    return;
  }
  const state: Reading = { targets: new Set([target]) };
  reading.set(id, state);
  root.replaceChildren(h('p', { class: 'muted' }, 'Reading the document…'));
  // Views navigated away from are dropped as they are found.
  const shown = (): Target[] => {
    for (const t of state.targets) if (!t.root.isConnected) state.targets.delete(t);
    return [...state.targets];
  };
  let finished = false;
  try {
    const response = await request(`/api/documents/${encodeURIComponent(id)}/events${target.pageNumber ? `?page=${target.pageNumber}` : ''}`);
    for await (const event of ndjson<DocumentEvent>(response)) {
      if (event.type === 'outline') {
        state.view = event.document;
        for (const t of shown()) paint(t, event.document);
      } else if (event.type === 'page' && state.view) {
        const page = event.page;
        const view: DocumentView = {
          ...state.view,
          pages: state.view.pages.some((p) => p.pageNumber === page.pageNumber)
            ? state.view.pages.map((p) => (p.pageNumber === page.pageNumber ? page : p))
            : [...state.view.pages, page].sort((a, b) => a.pageNumber - b.pageNumber),
        };
        state.view = view;
        // The page on screen is drawn again with its elements; elsewhere only its link changes.
        for (const t of shown()) {
          if (t.root.dataset['page'] === String(page.pageNumber) || t.root.dataset['page'] === undefined) paint(t, view);
          else updateProgress(t.root, view, page);
        }
      } else if (event.type === 'done') {
        finished = true;
        rememberDocument(event.document);
        for (const t of shown()) renderDocument(t.root, event.document, t.pageNumber, t.chunkId);
      } else if (event.type === 'failed') {
        throw new Error(event.reason);
      }
    }
    if (!finished) throw new Error('the server stopped answering before the document was read; open it again');
  } catch (error) {
    for (const t of shown())
      t.root.replaceChildren(
        h('h1', null, 'Document'),
        notice('error', error instanceof ApiError ? error.message : String(error instanceof Error ? error.message : error)),
        h('p', null, h('a', { href: '#/search' }, '← back to search')),
      );
  } finally {
    reading.delete(id);
  }
}

function paint(target: Target, view: DocumentView): void {
  renderDocument(target.root, view, target.pageNumber, target.chunkId, { read: view.pages.filter((p) => p.engine !== PENDING).length });
}

/** A page read elsewhere than on screen: its link and the count in the header, nothing else redrawn. */
function updateProgress(root: HTMLElement, view: DocumentView, page: PageView): void {
  const chunk = view.chunks.find((c) => c.id === root.dataset['chunk']);
  root.querySelector(`.page-link[data-page="${page.pageNumber}"]`)?.replaceWith(pageLink(view, page, chunk, false));
  const progress = root.querySelector('.doc-progress');
  if (progress) progress.textContent = progressText(view.pages.filter((p) => p.engine !== PENDING).length, view.pages.length);
}

const progressText = (read: number, total: number): string => `Reading the document: ${read} of ${total} page${total === 1 ? '' : 's'} read…`;

export function routeLabel(page: PageView): string {
  switch (page.engine) {
    case 'text':
      return 'text layer';
    case 'markdown':
      return 'Markdown source';
    case 'none':
      return 'failed';
    case 'unknown':
      return 'unknown (no source)';
    case PENDING:
      return 'reading…';
    default:
      return `OCR: ${page.engine}`;
  }
}

function docHref(view: DocumentView, page: number, chunk?: string): string {
  return `#/doc/${encodeURIComponent(view.id)}?page=${page}${chunk ? `&chunk=${encodeURIComponent(chunk)}` : ''}`;
}

const near = (a: Box, b: Box): boolean => a.every((v, i) => Math.abs(v - b[i]!) < 0.5);

/**
 * Draws `view` at one page. `progress` marks a view still being read: pages not read yet show
 * their image and size only, and the header counts the pages read.
 */
export function renderDocument(root: HTMLElement, view: DocumentView, pageNumber?: number, chunkId?: string, progress?: { readonly read: number }): void {
  const chunk = view.chunks.find((c) => c.id === chunkId);
  const wanted = pageNumber ?? chunk?.bboxes[0]?.page ?? chunk?.pages[0] ?? view.pages[0]?.pageNumber ?? 1;
  const page = view.pages.find((p) => p.pageNumber === wanted) ?? view.pages[0];
  if (page) root.dataset['page'] = String(page.pageNumber);
  else delete root.dataset['page'];
  if (chunk) root.dataset['chunk'] = chunk.id;
  const header = h(
    'header',
    { class: 'doc-head', 'data-state': progress ? 'reading' : 'read' },
    h('h1', null, view.name, view.title && view.title !== view.name ? h('span', { class: 'doc-title' }, ` ${view.title}`) : null),
    h('p', { class: 'muted source', title: view.source }, view.source),
    h(
      'div',
      { class: 'doc-meta' },
      view.status ? h('span', { class: `badge status-${view.status.replace(/\W+/g, '-')}` }, view.status) : null,
      h('span', null, `${view.pages.length} page${view.pages.length === 1 ? '' : 's'}`),
      view.origin === 'indexed' ? h('span', null, `${view.chunks.length} chunk${view.chunks.length === 1 ? '' : 's'} indexed`) : null,
      view.downloads ? downloadButton('Download Markdown', view.downloads.markdown, `${view.name.replace(/\.[^.]+$/, '')}.md`) : null,
      view.downloads ? downloadButton('Download JSON', view.downloads.json, `${view.name.replace(/\.[^.]+$/, '')}.json`) : null,
    ),
    progress ? h('p', { class: 'doc-progress muted', 'aria-live': 'polite' }, progressText(progress.read, view.pages.length)) : null,
    view.problem ? notice('error', view.problem) : null,
    view.warning ? notice('warning', view.warning) : null,
  );
  if (!page && progress) {
    root.replaceChildren(header);
    return;
  }
  if (!page) {
    root.replaceChildren(header, attachmentsOf(view) ?? '', notice('info', 'The document has no pages to show.'), failuresOf(view) ?? '');
    return;
  }
  const pageList = h(
    'nav',
    { class: 'page-list', 'aria-label': 'pages' },
    view.pages.map((p) => pageLink(view, p, chunk, p.pageNumber === page.pageNumber)),
  );
  const onPage = (c: ChunkView): Box[] => c.bboxes.filter((b) => b.page === page.pageNumber).map((b) => b.bbox);
  const hitBoxes = chunk ? onPage(chunk) : [];
  const { figure, overlay } = pageFigure(view, page, hitBoxes);
  const elements = h(
    'div',
    { class: 'elements' },
    page.elements.map((el) =>
      h(
        'div',
        {
          class: `el k-${el.kind}${el.boxes.some((b) => hitBoxes.some((hb) => near(b, hb))) ? ' in-hit' : ''}`,
          'data-el': el.index,
        },
        h('span', { class: 'el-kind' }, KIND_LABELS[el.kind] ?? el.kind, el.level ? ` ${el.level}` : '', el.boxes.length === 0 ? ' · no box' : ''),
        h('pre', null, el.markdown),
      ),
    ),
  );
  if (page.engine === PENDING) elements.append(h('p', { class: 'muted reading-page' }, 'Reading this page…'));
  else if (page.elements.length === 0)
    elements.append(h('p', { class: 'muted' }, view.problem ? 'The elements cannot be read without the source.' : 'No elements on this page.'));
  linkHover(elements, overlay);
  const chunksHere = view.chunks.filter((c) => c.pages.includes(page.pageNumber));
  const side = h(
    'aside',
    { class: 'markdown', 'aria-label': 'page markdown' },
    chunk
      ? h(
          'details',
          { class: 'hit-chunk' },
          h('summary', null, `Hit: chunk ${chunk.index + 1}, ${pagesLabel(chunk.pages)}`, h('span', { class: 'muted' }, ' (its elements are marked below)')),
          h('pre', null, chunk.text),
        )
      : null,
    h('h2', null, 'Markdown of the page'),
    elements,
    view.origin === 'indexed'
      ? h(
          'details',
          { class: 'chunks', open: view.problem !== undefined },
          h('summary', null, `Indexed chunks on this page (${chunksHere.length})`),
          chunksHere.map((c) =>
            h(
              'div',
              { class: `chunk${c.id === chunk?.id ? ' current' : ''}` },
              h('a', { href: docHref(view, page.pageNumber, c.id) }, `chunk ${c.index + 1}`),
              h('pre', null, c.text),
            ),
          ),
        )
      : null,
  );
  root.replaceChildren(
    header,
    attachmentsOf(view) ?? '',
    h('div', { class: 'doc-body' }, pageList, h('section', { class: 'page-pane' }, pageInfo(page, view.pages.length), figure, legend(page)), side),
    failuresOf(view) ?? '',
  );
  // Scroll the Markdown pane (not the window) to the hit's first element.
  const first = side.querySelector<HTMLElement>('.el.in-hit');
  if (first) requestAnimationFrame(() => (side.scrollTop = Math.max(0, first.offsetTop - 80)));
}

function pageLink(view: DocumentView, p: PageView, chunk: ChunkView | undefined, current: boolean): HTMLElement {
  return h(
    'a',
    {
      href: docHref(view, p.pageNumber, chunk?.pages.includes(p.pageNumber) ? chunk.id : undefined),
      class: `page-link${p.failed || p.quality?.passed === false ? ' bad' : ''}${chunk?.pages.includes(p.pageNumber) ? ' has-hit' : ''}${p.engine === PENDING ? ' pending' : ''}`,
      'data-page': p.pageNumber,
      'aria-current': current ? 'page' : undefined,
    },
    h('strong', null, p.pageNumber),
    h('span', null, routeLabel(p)),
    p.quality ? h('span', { class: 'q' }, `q ${p.quality.score.toFixed(2)}`) : null,
  );
}

function pageInfo(page: PageView, total: number): HTMLElement {
  const q = page.quality;
  return h(
    'div',
    { class: 'page-info' },
    h('span', { class: 'page-no' }, `Page ${page.pageNumber} of ${total}`),
    h(
      'span',
      { class: `route route-${page.engine}` },
      `route: ${routeLabel(page)}`,
      page.reason && page.engine !== 'unknown' ? h('span', { class: 'muted' }, ` (${page.reason})`) : null,
    ),
    q ? h('span', { class: `quality ${q.passed ? 'pass' : 'fail'}` }, `quality ${q.score.toFixed(2)} ${q.passed ? '✓ passed' : '✗ failed the gate'}`) : null,
    q && q.reasons.length > 0
      ? h(
          'ul',
          { class: 'reasons' },
          q.reasons.slice(0, 8).map((r) => h('li', null, r)),
        )
      : null,
    page.failed ? notice('error', page.failed) : null,
  );
}

function pageFigure(view: DocumentView, page: PageView, hitBoxes: readonly Box[]): { figure: HTMLElement; overlay?: SVGSVGElement } {
  const figure = h('figure', { class: 'page-figure' });
  if (view.problem) {
    figure.append(h('div', { class: 'no-image' }, 'No page image: the source is not available.'));
    return { figure };
  }
  if (!page.width || !page.height) {
    figure.append(
      h('div', { class: 'no-image' }, page.failed ? 'The page failed; there is no image of it.' : 'The page has no size, so there is nothing to draw.'),
    );
    return { figure };
  }
  // Markdown has no page image; its grounding boxes (if any) are drawn on a blank page.
  const blank = view.mime !== undefined && !view.mime.startsWith('image/') && view.mime !== 'application/pdf';
  const rect = (box: Box, attrs: Record<string, string | number>): SVGRectElement =>
    s('rect', { x: box[0], y: box[1], width: Math.max(0.5, box[2] - box[0]), height: Math.max(0.5, box[3] - box[1]), ...attrs });
  const overlay = s('svg', { class: 'overlay', viewBox: `0 0 ${page.width} ${page.height}`, preserveAspectRatio: 'none', 'aria-hidden': 'true' });
  for (const el of page.elements) {
    for (const box of el.boxes) overlay.append(rect(box, { class: `box k-${el.kind}`, 'data-el': el.index }));
  }
  for (const box of hitBoxes) overlay.append(rect(box, { class: 'hit' }));
  const img = h('img', { class: 'page-image', alt: `page ${page.pageNumber} of ${view.name}` });
  const frame = h(
    'div',
    { class: 'page-frame', 'data-state': blank ? 'blank' : 'loading' },
    blank ? h('span', { class: 'blank-note muted' }, 'no page image (Markdown source)') : img,
    overlay,
  );
  // CSSOM, not a style attribute: the content security policy allows no inline styles.
  frame.style.aspectRatio = `${page.width} / ${page.height}`;
  figure.append(frame);
  if (blank) return { figure, overlay };
  img.addEventListener('load', () => (frame.dataset['state'] = 'loaded'));
  pageImage(view.id, page.pageNumber).then(
    (url) => (img.src = url),
    (error: unknown) => {
      frame.dataset['state'] = 'error';
      figure.replaceChildren(notice('error', error instanceof ApiError ? error.message : String(error)));
    },
  );
  return { figure, overlay };
}

/** Page images fetched this session, by document and page: a page drawn again (as the document is read) is not fetched again. */
const images = new Map<string, Promise<string>>();

function pageImage(id: string, pageNumber: number): Promise<string> {
  const key = `${id}:${pageNumber}`;
  let url = images.get(key);
  if (!url) {
    url = blobUrl(`/api/documents/${encodeURIComponent(id)}/pages/${pageNumber}`);
    images.set(key, url);
    url.catch(() => images.delete(key));
  }
  return url;
}

/** Hovering an element's Markdown lights its boxes, and hovering a box lights its Markdown. */
function linkHover(elements: HTMLElement, overlay: SVGSVGElement | undefined): void {
  const light = (index: string | undefined, on: boolean): void => {
    if (index === undefined) return;
    for (const node of [...elements.querySelectorAll(`[data-el="${index}"]`), ...(overlay?.querySelectorAll(`[data-el="${index}"]`) ?? [])])
      node.classList.toggle('lit', on);
  };
  for (const root of [elements, overlay]) {
    root?.addEventListener('mouseover', (event) => light((event.target as Element).closest<HTMLElement | SVGElement>('[data-el]')?.dataset['el'], true));
    root?.addEventListener('mouseout', (event) => light((event.target as Element).closest<HTMLElement | SVGElement>('[data-el]')?.dataset['el'], false));
  }
}

function legend(page: PageView): HTMLElement {
  const kinds = [...new Set(page.elements.map((e) => e.kind))];
  return h(
    'div',
    { class: 'legend' },
    kinds.map((k) => h('span', { class: `swatch k-${k}` }, KIND_LABELS[k] ?? k)),
    h('span', { class: 'swatch hit-swatch' }, 'hit chunk'),
  );
}

/** An e-mail's attachments: one line each (name, type, whether it was read), opening to its Markdown. */
function attachmentsOf(view: DocumentView): HTMLElement | null {
  if (!view.attachments || view.attachments.length === 0) return null;
  return h(
    'section',
    { class: 'attachments', 'aria-label': 'attachments' },
    h('h2', null, `Attachments (${view.attachments.length})`),
    view.attachments.map((a) =>
      h(
        'details',
        { class: `attachment depth-${Math.min(a.depth, 3)}${a.ok ? '' : ' bad'}` },
        h('summary', null, h('strong', null, a.name), h('span', { class: 'muted' }, ` ${a.mime}${a.ok ? '' : ' · could not be read'}`)),
        a.failures.map((f) => notice('error', f.reason)),
        a.markdown ? h('pre', null, a.markdown) : h('p', { class: 'muted' }, 'No text.'),
      ),
    ),
  );
}

function failuresOf(view: DocumentView): HTMLElement | null {
  if (view.failures.length === 0) return null;
  return h(
    'section',
    { class: 'failures' },
    h('h2', null, `Failures (${view.failures.length})`),
    h(
      'ul',
      null,
      view.failures.map((f) => h('li', null, h('code', null, f.code), ` ${f.stage}${f.pageNumber ? `, page ${f.pageNumber}` : ''}: `, f.reason)),
    ),
  );
}

function downloadButton(label: string, path: string, filename: string): HTMLButtonElement {
  return h(
    'button',
    {
      type: 'button',
      class: 'download',
      onclick: async (event: Event) => {
        const button = event.currentTarget as HTMLButtonElement;
        try {
          const link = h('a', { href: await blobUrl(path), download: filename });
          document.body.append(link);
          link.click();
          link.remove();
          setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
        } catch (error) {
          button.after(notice('error', error instanceof ApiError ? error.message : String(error)));
        }
      },
    },
    label,
  );
}
