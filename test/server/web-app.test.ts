/**
 * The web app of `folio serve`, driven in Debian's Chromium: real documents indexed into the real
 * Elasticsearch, the real embedder, the real pipeline and OCR engine behind the server.
 * Screenshots go to test-output/web/.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { sourcesFrom } from '../../connector/index.ts';
import { stableId } from '../../core/hash.ts';
import { createLocalEmbedder, type Embedder } from '../../inference/embed/index.ts';
import type { OcrEngine } from '../../inference/engine.ts';
import { createPaddleEngine } from '../../inference/paddle/index.ts';
import { ingest } from '../../pipeline/run/index.ts';
import { createEsSink } from '../../pipeline/sink/index.ts';
import { type OcrServer, silentLogger, startOcrServer } from '../../server/index.ts';
import type { DocumentEvent, DocumentView, SearchResponse } from '../../server/routes/index.ts';
import { BOOK_TITLE, bookPdf } from '../support/book-pdf.ts';
import { deleteIndices, esUrl, type LaunchedBrowser, launchChromium, uniqueIndexName } from '../support/index.ts';
import { dropFile, normalise, pdfTextBoxes } from './web-helpers.ts';

const OUT = 'test-output/web';
const TOKEN = 'open-sesame';
const HANDBOOK = 'examples/docs/folio-handbook.pdf';
const PAPER = '../shared/data/docling-dev/pdf/2305.03393v1-pg9.pdf';
const MEMO = 'examples/docs/scanned-memo.png';
/** 27 pages (`pdfinfo`), Info Title "How to do the Basics"; page 1 is a scan the server OCRs, the rest have a text layer. */
const LONG = '../shared/data/gnarly/large_prompt_hint1.pdf';
const docIdOf = (path: string): string => stableId(pathToFileURL(resolve(path)).href);

type Rect = { x: number; y: number; width: number; height: number };
const inside = (x: number, y: number, r: Rect): boolean => x >= r.x - 1 && x <= r.x + r.width + 1 && y >= r.y - 1 && y <= r.y + r.height + 1;

describe('the web app of folio serve (Chromium)', function () {
  this.timeout(120_000);
  let browser: LaunchedBrowser | undefined;
  let page: Page;
  let server: OcrServer | undefined;
  let engine: OcrEngine | undefined;
  let embedder: Embedder | undefined;
  let index = '';
  let tmp = '';
  let doomed = '';
  let almanac = '';
  const pageErrors: string[] = [];

  before(async function () {
    // Installing Chromium on a fresh machine takes minutes; everything else here, seconds.
    this.timeout(900_000);
    const url = esUrl(this);
    const launching = launchChromium();
    await mkdir(OUT, { recursive: true });
    index = uniqueIndexName('folio-web');
    tmp = await mkdtemp(join(tmpdir(), 'folio-web-'));
    doomed = join(tmp, 'formula-sheet.pdf');
    await copyFile('../shared/data/docling-dev/pdf/code_and_formula.pdf', doomed);
    // No title declared; its first heading is the cover's "Front cover" label.
    almanac = join(tmp, 'almanac.pdf');
    await writeFile(almanac, await bookPdf());
    embedder = await createLocalEmbedder();
    const sink = await createEsSink({ url, index });
    const summary = await ingest(sourcesFrom([HANDBOOK, PAPER, doomed, almanac, LONG]), { sink, embedder, engine: 'text' });
    await sink.close();
    assert.equal(summary.documentsFailed, 0, JSON.stringify(summary.failures));
    engine = await createPaddleEngine({});
    server = await startOcrServer({ engine, port: 0, token: TOKEN, log: silentLogger, app: { esUrl: url, index, embedder } });
    browser = await launching;
    page = await browser.context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await engine?.close();
    await embedder?.close();
    if (index) await deleteIndices(index);
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  afterEach(() => {
    assert.deepEqual(pageErrors.splice(0), [], 'no uncaught errors in the page');
  });

  async function open(hash: string): Promise<void> {
    await page.goto(`${server!.url}/${hash}`);
    await page.waitForSelector('main#view > div, #token-panel:not([hidden])');
    if (await page.isVisible('#token')) {
      await page.fill('#token', TOKEN);
      await page.click('.token-form button');
    }
  }

  const shot = (name: string): Promise<Buffer> => page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });

  it('should serve its files without a token and its API only with one', async () => {
    const home = await fetch(`${server!.url}/`);
    assert.equal(home.status, 200);
    assert.match(home.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const script = await fetch(`${server!.url}/app/main.ts`);
    assert.match(script.headers.get('content-type') ?? '', /text\/javascript/);
    const code = await script.text();
    assert.match(code, /import \{ ApiError, getJson/);
    assert.doesNotMatch(code, /let info: AppInfo/, 'types are stripped');
    assert.equal((await fetch(`${server!.url}/app/%2e%2e%2fserver.ts`)).status, 404);
    assert.equal((await fetch(`${server!.url}/api/info`)).status, 401);
    assert.equal((await fetch(`${server!.url}/api/info`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 200);
  });

  it('should ask for the token, then search and show the score parts and the marked terms', async () => {
    await page.goto(`${server!.url}/`);
    await page.waitForSelector('#token');
    await page.fill('#token', TOKEN);
    await page.click('.token-form button');
    await page.fill('#q', 'HPO performed in OTSL and HTML representation');
    await page.click('form.query button');
    await page.waitForSelector('.hit');
    const first = page.locator('.hit').first();
    assert.equal(await first.getAttribute('data-doc'), docIdOf(PAPER));
    const marks = (await first.locator('mark').allTextContents()).map((m) => m.toLowerCase());
    assert.ok(marks.includes('hpo') && marks.includes('otsl'), `marked: ${marks.join(', ')}`);
    const scores = await first.locator('.scores').textContent();
    assert.match(scores ?? '', /RRF 0\.0\d{3}/);
    assert.match(scores ?? '', /BM25 #1 \(\d+\.\d\d\)/);
    assert.match(scores ?? '', /kNN #\d+ \(0\.\d{3}\)/);
    await shot('search');
  });

  it("should open a hit with its chunk's boxes over the hit's text on the rendered page", async () => {
    await open('#/search?q=HPO+performed+in+OTSL+and+HTML+representation&mode=bm25');
    await page.locator('.hit .hit-title').first().click();
    await page.waitForSelector('.doc-head[data-state=read]');
    await page.waitForSelector('.page-frame[data-state=loaded]');
    // The chunk's own words: its text starts with its heading path, which lies elsewhere on the page.
    const chunkId = new URL(page.url().replace('#/', '')).searchParams.get('chunk');
    const view = (await (
      await fetch(`${server!.url}/api/documents/${docIdOf(PAPER)}`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as DocumentView;
    const chunk = view.chunks.find((c) => c.id === chunkId)!;
    assert.equal(normalise((await page.locator('.hit-chunk pre').textContent()) ?? ''), normalise(chunk.text), 'the view shows the hit chunk');
    const chunkText = normalise(chunk.headingPath.reduce((text, heading) => text.replace(heading, ''), chunk.text));
    const image = (await page.locator('.page-image').boundingBox())!;
    const hits = (await Promise.all((await page.locator('.overlay rect.hit').all()).map((r) => r.boundingBox()))).filter((r): r is Rect => r !== null);
    assert.ok(hits.length > 0, 'the hit chunk has boxes on the page');

    // Where pdf.js (not the pipeline, which reads with PDFium) says the words are, on screen.
    const truth = await pdfTextBoxes(PAPER, 1);
    const viewBox = (await page.locator('.overlay').getAttribute('viewBox'))!.split(' ').map(Number);
    assert.ok(
      Math.abs(viewBox[2]! - truth.width) < 1 && Math.abs(viewBox[3]! - truth.height) < 1,
      `page size ${viewBox.join(' ')} vs ${truth.width}×${truth.height}`,
    );
    const scale = image.width / truth.width;
    const centre = (box: readonly number[]): [number, number] => [image.x + ((box[0]! + box[2]!) / 2) * scale, image.y + ((box[1]! + box[3]!) / 2) * scale];
    const long = truth.items.filter((item) => normalise(item.text).length >= 12);
    const ofHit = long.filter((item) => chunkText.includes(normalise(item.text)));
    const others = long.filter((item) => !chunkText.includes(normalise(item.text)));
    assert.ok(ofHit.length >= 3 && others.length >= 10, `text runs of the hit: ${ofHit.length}, elsewhere: ${others.length}`);
    const covered = (items: typeof long): number => items.filter((item) => hits.some((r) => inside(...centre(item.box), r))).length;
    assert.ok(covered(ofHit) >= 0.9 * ofHit.length, `${covered(ofHit)} of ${ofHit.length} runs of the hit lie in its boxes`);
    assert.ok(covered(others) <= 0.1 * others.length, `${covered(others)} of ${others.length} other runs lie in the hit's boxes`);

    assert.match((await page.locator('.page-info').textContent()) ?? '', /route: text layer.*quality 1\.00/);
    const heading = page.locator('.elements .el.k-heading').first();
    const index = await heading.getAttribute('data-el');
    await heading.hover();
    assert.match((await page.locator(`.overlay rect[data-el="${index}"]`).first().getAttribute('class')) ?? '', /\blit\b/);
    await shot('document');
  });

  it('should convert a dropped PDF with progress per page and offer its Markdown and JSON', async () => {
    await open('#/convert');
    await page.waitForSelector('#drop');
    await dropFile(page, '#drop', HANDBOOK, 'application/pdf');
    await page.waitForSelector('#convert-status.done');
    assert.deepEqual(await page.locator('.progress-page').allTextContents(), ['page 1: text layer', 'page 2: text layer', 'page 3: text layer']);
    assert.equal(
      await page.locator('#convert-bar').evaluate((bar) => `${(bar as unknown as { value: number }).value}/${(bar as unknown as { max: number }).max}`),
      '3/3',
    );
    await page.waitForSelector('#result .page-frame[data-state=loaded]');
    assert.ok((await page.locator('#result .overlay rect.box').count()) >= 5);
    const [markdown] = await Promise.all([page.waitForEvent('download'), page.click('text=Download Markdown')]);
    assert.equal(markdown.suggestedFilename(), 'folio-handbook.md');
    assert.match(await readFile((await markdown.path())!, 'utf8'), /^# Folio Handbook/m);
    const [json] = await Promise.all([page.waitForEvent('download'), page.click('text=Download JSON')]);
    const detail = JSON.parse(await readFile((await json.path())!, 'utf8')) as { pages: { engine: string }[]; elements: unknown[] };
    assert.deepEqual(
      detail.pages.map((p) => p.engine),
      ['text', 'text', 'text'],
    );
    assert.ok(detail.elements.length > 10);
    await shot('convert-pdf');
  });

  it('should convert a chosen scan with OCR and draw its boxes', async () => {
    await open('#/convert');
    await page.setInputFiles('#file', MEMO);
    await page.waitForSelector('#convert-status.done', { timeout: 90_000 });
    assert.deepEqual(await page.locator('.progress-page').allTextContents(), ['page 1: OCR: paddle']);
    await page.waitForSelector('#result .page-frame[data-state=loaded]');
    assert.match((await page.locator('#result .page-info').textContent()) ?? '', /route: OCR: paddle/);
    assert.match((await page.locator('#result .elements').textContent()) ?? '', /Quarterly Archive Review/i);
    assert.ok((await page.locator('#result .overlay rect.box').count()) >= 3);
    await shot('convert-scan');
  });

  it('should list the passages ask found, with citations that open the cited page with the box lit', async () => {
    await open('#/ask');
    await page.fill('#q', 'How does Folio decide which pages need OCR?');
    await page.click('form.query button');
    await page.waitForSelector('.citations .hit');
    assert.match((await page.locator('#answer .notice.info').textContent()) ?? '', /No LLM is configured/);
    const first = page.locator('.citations .hit').first();
    assert.equal(await first.getAttribute('data-doc'), docIdOf(HANDBOOK));
    await shot('ask');
    const chunk = await first.getAttribute('data-chunk');
    await first.locator('.cite-label').click();
    await page.waitForSelector('.doc-head[data-state=read]');
    await page.waitForSelector('.page-frame[data-state=loaded]');
    assert.ok(page.url().includes(`chunk=${chunk}`));
    assert.ok((await page.locator('.overlay rect.hit').count()) >= 1);
    await shot('ask-cited');
  });

  it('should paint a long document page by page: the outline and first page at once, each page as it is read, then the whole', async () => {
    const id = docIdOf(LONG);
    // What the page painted, in order, noted by a MutationObserver from the first moment on.
    await page.addInitScript(`(() => {
      const seen = (window.__painted = []);
      const note = () => {
        const head = document.querySelector('.doc-head');
        const frame = document.querySelector('.page-frame');
        const state = [head?.dataset.state, document.querySelectorAll('.page-link').length, document.querySelectorAll('.page-link.pending').length, frame?.dataset.state, document.querySelectorAll('.page-pane ~ aside .el').length].join(' ');
        if (head && seen.at(-1)?.state !== state) seen.push({ state, at: performance.now() });
      };
      new MutationObserver(note).observe(document, { subtree: true, childList: true, attributes: true });
    })()`);
    // A new document (not a hash change), so the script above runs from its start.
    await page.goto('about:blank');
    await open(`#/doc/${id}?page=2`);
    await page.waitForSelector('.doc-head[data-state=read]', { timeout: 90_000 });
    await page.waitForSelector('.page-frame[data-state=loaded]');
    const painted = (await page.evaluate('window.__painted')) as { state: string; at: number }[];
    const states = painted.map((p) => p.state.split(' '));
    // The outline: every page listed and pending, page 2's image asked for, before anything is read.
    const outline = states.findIndex(([head, links, pending]) => head === 'reading' && links === '27' && pending === '27');
    assert.ok(outline >= 0, `painted: ${painted.map((p) => p.state).join(' | ')}`);
    const pageTwo = states.findIndex(([head, , , , elements]) => head === 'reading' && Number(elements) > 0);
    assert.ok(pageTwo > outline, 'page 2 was drawn with its elements while the document was still being read');
    const last = states.at(-1)!;
    assert.deepEqual([last[0], last[1], last[2]], ['read', '27', '0']);
    assert.ok(Number(last[4]) > 0);
    const at = (index: number): string => `${(painted[index]!.at / 1000).toFixed(2)} s`;
    const image = states.findIndex(([, , , frame]) => frame === 'loaded');
    process.stderr.write(
      `      first paint of ${LONG.split('/').pop()} (27 pages, shared machine): outline ${at(outline)}, page 2 image ${at(image)}, page 2 elements ${at(pageTwo)}, whole document ${at(painted.length - 1)} after navigation\n`,
    );
    assert.match((await page.locator('.page-info').textContent()) ?? '', /Page 2 of 27.*route: text layer/);
    assert.match((await page.locator('.page-link[data-page="1"]').textContent()) ?? '', /OCR: paddle/);
    await shot('long-document');
  });

  it('should stream a document as outline, pages, then the view that GET /api/documents/{id} answers', async () => {
    // A second server over the same index: nothing read yet, so the stream has every step.
    const fresh = await startOcrServer({ engine: engine!, port: 0, token: TOKEN, log: silentLogger, app: { esUrl: esUrl(), index, embedder: embedder! } });
    try {
      const response = await fetch(`${fresh.url}/api/documents/${docIdOf(LONG)}/events?page=3`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.match(response.headers.get('content-type') ?? '', /application\/x-ndjson/);
      const events = (await response.text())
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as DocumentEvent);
      const [outline, ...rest] = events;
      assert.equal(outline?.type, 'outline');
      const pages = (outline as { document: DocumentView }).document.pages;
      assert.deepEqual(
        pages.map((p) => p.pageNumber),
        Array.from({ length: 27 }, (_, i) => i + 1),
      );
      assert.ok(pages.every((p) => p.engine === 'pending' && p.width! > 0 && p.height! > 0 && p.elements.length === 0));
      const read = rest.filter((e) => e.type === 'page').map((e) => (e as { page: { pageNumber: number } }).page.pageNumber);
      assert.deepEqual(
        [...read].sort((a, b) => a - b),
        Array.from({ length: 27 }, (_, i) => i + 1),
        'each page once',
      );
      const done = rest.at(-1) as { type: string; document: DocumentView };
      assert.equal(done.type, 'done');
      const whole = (await (
        await fetch(`${fresh.url}/api/documents/${docIdOf(LONG)}`, { headers: { authorization: `Bearer ${TOKEN}` } })
      ).json()) as DocumentView;
      assert.deepEqual(done.document, whole);
      const again = await (await fetch(`${fresh.url}/api/documents/${docIdOf(LONG)}/events`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      assert.deepEqual(
        again
          .trim()
          .split('\n')
          .map((line) => (JSON.parse(line) as DocumentEvent).type),
        ['done'],
        'a document already read is answered whole',
      );
    } finally {
      await fresh.close();
    }
  });

  it("should title every hit by its document's title, not by the first heading of the text", async () => {
    const search = (await (
      await fetch(`${server!.url}/api/search?q=${encodeURIComponent('tides and weather the keeper trims the wick')}&mode=bm25`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
    ).json()) as SearchResponse;
    const hits = search.hits.filter((hit) => hit.docId === docIdOf(almanac));
    assert.ok(hits.length >= 2, `${hits.length} hits of the almanac`);
    assert.deepEqual([...new Set(hits.map((hit) => hit.title))], [BOOK_TITLE]);
    assert.ok(
      hits.some((hit) => hit.headingPath.includes('Chapter 2: Tides and Weather')),
      'a hit keeps its own section path',
    );
    const long = (await (
      await fetch(`${server!.url}/api/search?q=${encodeURIComponent('How to do the Basics')}&mode=bm25&k=50`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as SearchResponse;
    assert.deepEqual([...new Set(long.hits.filter((hit) => hit.docId === docIdOf(LONG)).map((hit) => hit.title))], ['How to do the Basics']);
    await open('#/search?q=tides+and+weather+the+keeper+trims+the+wick&mode=bm25');
    await page.waitForSelector('.hit');
    const titles = await page.locator(`.hit[data-doc="${docIdOf(almanac)}"] .doc-title`).allTextContents();
    assert.ok(titles.length >= 2 && titles.every((t) => t === BOOK_TITLE), `titles: ${titles.join(' | ')}`);
  });

  it('should say what is wrong with a Lucene query, and search its words without Lucene syntax', async () => {
    await open('#/search');
    await page.fill('#q', 'title:(stop AND');
    await page.check('#lucene');
    await page.click('form.query button');
    await page.waitForSelector('#results .notice.error');
    assert.match((await page.locator('#results .notice.error').textContent()) ?? '', /is not valid Lucene syntax \(Failed to parse query/);
    await shot('bad-lucene');
    await page.uncheck('#lucene');
    await page.click('form.query button');
    await page.waitForSelector('#results .count');
    assert.equal(await page.locator('#results .notice.error').count(), 0);
  });

  it('should say that a document id does not exist', async () => {
    await open('#/doc/0000deadbeef0000dead');
    await page.waitForSelector('.notice.error');
    assert.match((await page.locator('.notice.error').textContent()) ?? '', new RegExp(`no document \`0000deadbeef0000dead\` in the index \`${index}\``));
    await shot('missing-document');
  });

  it('should show the indexed chunks of a document whose source was deleted, and carry on', async () => {
    await rm(doomed);
    const id = docIdOf(doomed);
    await open(`#/doc/${id}`);
    await page.waitForSelector('.notice.error');
    assert.match(
      (await page.locator('.notice.error').first().textContent()) ?? '',
      /formula-sheet\.pdf \(document \w+\) was deleted or moved since it was indexed/,
    );
    assert.ok((await page.locator('.chunks .chunk').count()) >= 1, 'the indexed chunks are still listed');
    assert.equal(await page.locator('.page-frame').count(), 0);
    await shot('deleted-source');
    const image = await fetch(`${server!.url}/api/documents/${id}/pages/1`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(image.status, 410);
    assert.match(await image.text(), /was deleted or moved/);
    await open('#/search?q=Folio+Handbook&mode=bm25');
    await page.waitForSelector('.hit');
  });
});
