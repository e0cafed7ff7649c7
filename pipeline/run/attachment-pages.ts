/**
 * Attachments no declarative reader reads (a PDF or a scan attached to an e-mail) go through the
 * paginated route like any PDF or image; their pages follow the message's, renumbered, the first
 * under a heading naming the attachment. A bad attachment fails its own page, not the message.
 */
import { sniffMime } from '../../connector/sniff.ts';
import { describeError, errorCode } from '../../core/errors.ts';
import { sha256, stableId } from '../../core/hash.ts';
import type { Element, SourceDocument } from '../../core/types.ts';
import type { FormatAttachment } from '../formats/index.ts';
import { imagePages } from './image-pages.ts';
import type { ProcessOptions } from './options.ts';
import { type PageResult, pageFailure } from './page-result.ts';
import { pdfPages } from './pdf-pages.ts';

function shifted(result: PageResult, offset: number, title: string | undefined): PageResult {
  if (!result.ok)
    return { ...result, pageNumber: result.pageNumber + offset, failure: { ...result.failure, pageNumber: (result.failure.pageNumber ?? 1) + offset } };
  const pageNumber = result.page.pageNumber + offset;
  const elements: Element[] = result.elements.map((e) => ({
    ...e,
    pageNumber: e.pageNumber + offset,
    pages: e.pages.map((p) => p + offset),
    ...(e.bboxes === undefined ? {} : { bboxes: e.bboxes.map((b) => ({ ...b, page: b.page + offset })) }),
  }));
  const heading: Element[] =
    title === undefined ? [] : [{ kind: 'heading', level: 2, text: title, markdown: `## ${title}`, headingPath: [], pageNumber, pages: [pageNumber] }];
  return { ...result, page: { ...result.page, pageNumber }, quality: { ...result.quality, pageNumber }, elements: [...heading, ...elements] };
}

/**
 * The pages of one attachment, numbered from `firstPage`; nothing when it is neither a PDF nor an image.
 *
 * @example
 * for await (const page of attachmentPages(mail, { name: 'scan.pdf', bytes }, 3, options)) pages.push(page);
 */
export async function* attachmentPages(
  parent: SourceDocument,
  attachment: FormatAttachment,
  firstPage: number,
  options: Readonly<ProcessOptions>,
): AsyncIterable<PageResult> {
  const mime = sniffMime(attachment.bytes, attachment.name);
  const child: SourceDocument = {
    id: stableId(parent.id, 'attachment', attachment.name),
    uri: `${parent.uri}#attachment=${encodeURIComponent(attachment.name)}`,
    relativePath: `${parent.relativePath}/${attachment.name}`,
    mime,
    bytes: attachment.bytes,
    contentHash: sha256(attachment.bytes),
  };
  const pages = mime === 'application/pdf' ? pdfPages(child, options) : mime.startsWith('image/') ? imagePages(child, options) : undefined;
  if (!pages) return;
  let title: string | undefined = `Attachment: ${attachment.name}`;
  let last = firstPage;
  try {
    for await (const result of pages) {
      const page = shifted(result, firstPage - 1, title);
      title = undefined;
      last = page.ok ? page.page.pageNumber : page.pageNumber;
      yield page;
    }
  } catch (error) {
    options.signal?.throwIfAborted();
    const pageNumber = title === undefined ? last + 1 : firstPage;
    yield {
      ok: false,
      pageNumber,
      failure: pageFailure(
        parent.uri,
        parent.id,
        pageNumber,
        'open',
        errorCode(error),
        `${parent.uri}: attachment ${attachment.name}: ${describeError(error)}`,
      ),
    };
  }
}
