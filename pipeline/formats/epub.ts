/**
 * EPUB: the package document's spine, in order, each chapter read by the HTML reader as its own
 * page. Only files inside the container are read; nothing is fetched.
 */
import { SourceError } from '../../core/errors.ts';
import { decodeHtml, htmlBlocks } from './html.ts';
import { folderOf, readPart, resolvePath } from './ooxml.ts';
import type { FormatDocument, FormatPage } from './types.ts';
import { attr, find, kid, kids, textOf } from './xml.ts';
import { openZip } from './zip.ts';

/**
 * @example
 * readEpub(bytes).pages.length // chapters in the spine
 */
export function readEpub(bytes: Uint8Array): FormatDocument {
  const zip = openZip(bytes);
  const container = readPart(zip, 'META-INF/container.xml');
  const opfPath = attr(find(container, 'rootfile'), 'full-path');
  if (opfPath === undefined || !zip.has(opfPath))
    throw new SourceError('FOLIO_FORMAT_CORRUPT', 'the EPUB has no package document (META-INF/container.xml names none)');
  const opf = readPart(zip, opfPath);
  const base = folderOf(opfPath);
  const manifest = new Map<string, { href: string; type: string }>();
  for (const item of kids(kid(opf, 'manifest'), 'item')) {
    manifest.set(attr(item, 'id') ?? '', { href: resolvePath(base, decodeURIComponent(attr(item, 'href') ?? '')), type: attr(item, 'media-type') ?? '' });
  }
  const pages: FormatPage[] = [];
  for (const ref of kids(kid(opf, 'spine'), 'itemref')) {
    const item = manifest.get(attr(ref, 'idref') ?? '');
    if (!item || !/html/.test(item.type)) continue;
    const data = zip.read(item.href);
    if (data === undefined) continue;
    pages.push({ blocks: htmlBlocks(decodeHtml(data)), label: item.href });
  }
  const title = textOf(find(kid(opf, 'metadata'), 'title')).trim();
  return { format: 'epub', pages, ...(title === '' ? {} : { metadata: { title } }) };
}
