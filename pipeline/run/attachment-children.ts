/**
 * E-mail attachments as child documents: each gets its own id (from its parent's id and its
 * name), a URI under its parent's, and goes through the whole pipeline like any input (a PDF
 * through the text layer or OCR, a DOCX through its reader, a forwarded message with attachments
 * of its own). The sinks record the link both ways and prune children with their parent.
 * Nesting is bounded: an attachment deeper than {@link MAX_ATTACHMENT_DEPTH} levels is not
 * converted, and its parent records why (`FOLIO_NESTING_TOO_DEEP`), so a message forwarded inside
 * itself a hundred times converts its first levels and stops, in bounded time.
 */
import { sniffMime } from '../../connector/sniff.ts';
import { sha256, stableId } from '../../core/hash.ts';
import type { FailureRecord, SourceDocument } from '../../core/types.ts';
import { type FormatAttachment, isFormatMime } from '../formats/index.ts';
import type { ProcessOptions } from './options.ts';
import { pageFailure } from './page-result.ts';
import type { ProcessedDocument } from './process-document.ts';

/** How many levels of attachments inside attachments are converted (a message forwarded ten times). */
export const MAX_ATTACHMENT_DEPTH = 10;

/** What an attachment's URI adds to its parent's, before its name. */
const ATTACHMENT_MARK = '#attachment=';

/** True when some route of the pipeline reads `mime` (the same test `processDocument` makes). */
function isReadable(mime: string): boolean {
  return mime === 'application/pdf' || mime.startsWith('image/') || mime === 'text/markdown' || mime === 'text/plain' || isFormatMime(mime);
}

/**
 * The attachments of `parent` as source documents, in order. Two attachments of one name get
 * distinct ids (` (2)` after the second's name), stable across runs as long as the order is.
 *
 * @example
 * const [report] = childDocuments(mail, [{ name: 'report.pdf', bytes }]);
 * report.parent // { id: mail.id, uri: mail.uri, depth: 1 }
 */
export function childDocuments(parent: SourceDocument, attachments: readonly FormatAttachment[]): SourceDocument[] {
  const seen = new Map<string, number>();
  return attachments.map((attachment) => {
    const count = (seen.get(attachment.name) ?? 0) + 1;
    seen.set(attachment.name, count);
    const name = count === 1 ? attachment.name : `${attachment.name} (${count})`;
    return {
      id: stableId(parent.id, 'attachment', name),
      uri: `${parent.uri}${ATTACHMENT_MARK}${encodeURIComponent(name)}`,
      relativePath: `${parent.relativePath}/${name.replace(/[/\\]/g, '_')}`,
      mime: sniffMime(attachment.bytes, attachment.name),
      bytes: attachment.bytes,
      contentHash: sha256(attachment.bytes),
      ...(parent.modifiedAt === undefined ? {} : { modifiedAt: parent.modifiedAt }),
      parent: { id: parent.id, uri: parent.uri, depth: (parent.parent?.depth ?? 0) + 1 },
    };
  });
}

/**
 * The name an attachment has in its message (the last `#attachment=` of its URI, ` (2)` and all);
 * undefined for a document that is no attachment.
 *
 * @example
 * attachmentName(report) // 'report.pdf'
 */
export function attachmentName(doc: SourceDocument): string | undefined {
  if (doc.parent === undefined) return undefined;
  const at = doc.uri.lastIndexOf(ATTACHMENT_MARK);
  return at < 0 ? undefined : decodeURIComponent(doc.uri.slice(at + ATTACHMENT_MARK.length));
}

/**
 * Every attachment under `result`, depth first in document order (an attachment's own
 * attachments right after it): the flat list an answer that is one object (`POST /v1/convert`,
 * the ingest processor, the web app) carries, each naming its parent.
 *
 * @example
 * for (const child of descendants(mail)) console.log(child.doc.parent?.id, child.doc.uri);
 */
export function descendants(result: ProcessedDocument): ProcessedDocument[] {
  return (result.children ?? []).flatMap((child) => [child, ...descendants(child)]);
}

/** What reading a document's attachments gave: the children read, and why some were not. */
export interface ReadChildren {
  readonly children: readonly ProcessedDocument[];
  readonly failures: readonly FailureRecord[];
}

/**
 * Read each attachment of `parent` that some route reads, one after another, with `read` (the
 * caller's `readDocument`: the recursion goes through it). Attachments of no type Folio reads
 * (an archive, a calendar invitation) stay listed on the parent's page only, as before.
 *
 * @example
 * const { children, failures } = await readChildren(mail, attachments, options, readDocument);
 */
export async function readChildren(
  parent: SourceDocument,
  attachments: readonly FormatAttachment[],
  options: Readonly<ProcessOptions>,
  read: (doc: SourceDocument, options: Readonly<ProcessOptions>) => Promise<ProcessedDocument>,
): Promise<ReadChildren> {
  const children: ProcessedDocument[] = [];
  const failures: FailureRecord[] = [];
  for (const child of childDocuments(parent, attachments)) {
    options.signal?.throwIfAborted();
    if (!isReadable(child.mime)) continue;
    if ((child.parent?.depth ?? 0) > MAX_ATTACHMENT_DEPTH) {
      failures.push(
        pageFailure(
          parent.uri,
          parent.id,
          undefined,
          'open',
          'FOLIO_NESTING_TOO_DEEP',
          `${child.uri}: not converted: attachments nest ${child.parent?.depth} levels deep here, Folio converts ${MAX_ATTACHMENT_DEPTH}`,
        ),
      );
      continue;
    }
    children.push(await read(child, options));
  }
  return { children, failures };
}
