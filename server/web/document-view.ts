/**
 * The document view: one page image with its elements' boxes drawn over it (coloured by kind)
 * and the hit's chunk lit; beside it the page's Markdown, element by element, each lighting its
 * box on hover; the page's route, quality and failures; the pages of the document to flip through;
 * an e-mail's attachments by name, each opening to its text.
 */
import type { Box, ChunkView, DocumentView, PageView } from '../routes/api-types.ts';
import { ApiError, blobUrl, getJson } from './api.ts';
import { h, notice, pagesLabel, s } from './dom.ts';

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

export async function renderDocumentRoute(root: HTMLElement, id: string, params: URLSearchParams): Promise<void> {
  let view = seen.get(id);
  if (!view) {
    root.replaceChildren(h('p', { class: 'muted' }, 'Reading the document…'));
    try {
      view = await getJson<DocumentView>(`/api/documents/${encodeURIComponent(id)}`);
    } catch (error) {
      root.replaceChildren(
        h('h1', null, 'Document'),
        notice('error', error instanceof ApiError ? error.message : String(error)),
        h('p', null, h('a', { href: '#/search' }, '← back to search')),
      );
      return;
    }
    rememberDocument(view);
  }
  renderDocument(root, view, Number(params.get('page')) || undefined, params.get('chunk') ?? undefined);
}

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
    default:
      return `OCR: ${page.engine}`;
  }
}

function docHref(view: DocumentView, page: number, chunk?: string): string {
  return `#/doc/${encodeURIComponent(view.id)}?page=${page}${chunk ? `&chunk=${encodeURIComponent(chunk)}` : ''}`;
}

const near = (a: Box, b: Box): boolean => a.every((v, i) => Math.abs(v - b[i]!) < 0.5);

export function renderDocument(root: HTMLElement, view: DocumentView, pageNumber?: number, chunkId?: string): void {
  const chunk = view.chunks.find((c) => c.id === chunkId);
  const wanted = pageNumber ?? chunk?.bboxes[0]?.page ?? chunk?.pages[0] ?? view.pages[0]?.pageNumber ?? 1;
  const page = view.pages.find((p) => p.pageNumber === wanted) ?? view.pages[0];
  const header = h(
    'header',
    { class: 'doc-head' },
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
    view.problem ? notice('error', view.problem) : null,
    view.warning ? notice('warning', view.warning) : null,
  );
  if (!page) {
    root.replaceChildren(header, attachmentsOf(view) ?? '', notice('info', 'The document has no pages to show.'), failuresOf(view) ?? '');
    return;
  }
  const pageList = h(
    'nav',
    { class: 'page-list', 'aria-label': 'pages' },
    view.pages.map((p) =>
      h(
        'a',
        {
          href: docHref(view, p.pageNumber, chunk?.pages.includes(p.pageNumber) ? chunk.id : undefined),
          class: `page-link${p.failed || p.quality?.passed === false ? ' bad' : ''}${chunk?.pages.includes(p.pageNumber) ? ' has-hit' : ''}`,
          'aria-current': p.pageNumber === page.pageNumber ? 'page' : undefined,
        },
        h('strong', null, p.pageNumber),
        h('span', null, routeLabel(p)),
        p.quality ? h('span', { class: 'q' }, `q ${p.quality.score.toFixed(2)}`) : null,
      ),
    ),
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
  if (page.elements.length === 0)
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
  blobUrl(`/api/documents/${encodeURIComponent(view.id)}/pages/${page.pageNumber}`).then(
    (url) => (img.src = url),
    (error: unknown) => {
      frame.dataset['state'] = 'error';
      figure.replaceChildren(notice('error', error instanceof ApiError ? error.message : String(error)));
    },
  );
  return { figure, overlay };
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
