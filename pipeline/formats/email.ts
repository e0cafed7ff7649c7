/**
 * E-mail (EML): the subject as the title, sender, recipients and date as metadata lines, the body
 * (HTML through the HTML reader, else the plain text), then each attachment a format reader reads
 * (Office, HTML, CSV, text, a forwarded message), its pages after the body's under its name.
 * Attachments no declarative reader reads (PDF, images) are listed for the caller to route.
 */
import { sniffMime } from '../../connector/sniff.ts';
import type { Block } from './blocks.ts';
import { htmlBlocks } from './html.ts';
import { decodeWords, type MimePart, parseMime, partText } from './mime-message.ts';
import type { FormatAttachment, FormatDocument, FormatPage } from './types.ts';

/** How deep attachments inside attachments are read (a message forwarded ten times). */
const MAX_NESTING = 10;

const HEADERS = ['from', 'to', 'cc', 'date'] as const;

/** Plain text as paragraphs: blank lines separate them; quoted lines kept as text. */
export function textBlocks(text: string): Block[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p !== '')
    .map((p) => ({ kind: 'paragraph', spans: [{ text: p }] }));
}

function leaves(part: MimePart, out: MimePart[] = []): MimePart[] {
  if (part.parts.length === 0) out.push(part);
  for (const child of part.parts) {
    // Of the alternatives, the richest comes last (RFC 2046); the others are the same text.
    if (part.type === 'multipart/alternative' && child !== part.parts[part.parts.length - 1] && !child.attachment) continue;
    leaves(child, out);
  }
  return out;
}

/** The header lines and the body of one message, as the blocks of its first page. */
export function messageBlocks(headers: ReadonlyMap<string, string>, bodies: readonly { type: string; text: string }[]): Block[] {
  const blocks: Block[] = [];
  const subject = decodeWords(headers.get('subject') ?? '').trim();
  if (subject !== '') blocks.push({ kind: 'heading', level: 1, spans: [{ text: subject }] });
  for (const name of HEADERS) {
    const value = decodeWords(headers.get(name) ?? '').trim();
    if (value !== '') blocks.push({ kind: 'paragraph', spans: [{ text: `${name[0]!.toUpperCase()}${name.slice(1)}: `, bold: true }, { text: value }] });
  }
  for (const body of bodies) blocks.push(...(body.type === 'text/html' ? htmlBlocks(body.text) : textBlocks(body.text)));
  return blocks;
}

/**
 * Pages of an attachment read by a format reader, under a heading naming it; undefined when no
 * declarative reader reads it.
 */
export async function attachmentPages(attachment: FormatAttachment, depth: number): Promise<FormatPage[] | undefined> {
  const mime = sniffMime(attachment.bytes, attachment.name);
  const title: Block = { kind: 'heading', level: 2, spans: [{ text: `Attachment: ${attachment.name}` }] };
  if (mime === 'text/markdown' || /\.(txt|text|log)$/i.test(attachment.name)) {
    return [{ blocks: [title, ...textBlocks(new TextDecoder().decode(attachment.bytes))], label: attachment.name }];
  }
  const { isFormatMime, readFormatNested } = await import('./read.ts');
  if (!isFormatMime(mime) || depth >= MAX_NESTING) return undefined;
  const read = await readFormatNested(attachment.bytes, mime, depth + 1);
  return read.pages.map((page, i) => ({ ...page, blocks: i === 0 ? [title, ...page.blocks] : page.blocks, label: attachment.name }));
}

/**
 * Read an RFC 822 message.
 *
 * @example
 * const doc = await readEml(bytes);
 * doc.metadata?.subject
 */
export async function readEml(bytes: Uint8Array, depth = 0): Promise<FormatDocument> {
  const message = parseMime(bytes);
  const bodies: { type: string; text: string }[] = [];
  const attachments: FormatAttachment[] = [];
  for (const leaf of leaves(message)) {
    if (!leaf.attachment && (leaf.type === 'text/plain' || leaf.type === 'text/html') && bodies.length === 0)
      bodies.push({ type: leaf.type, text: partText(leaf) });
    else if (leaf.attachment || leaf.type === 'message/rfc822') attachments.push({ name: leaf.filename ?? 'message.eml', bytes: leaf.body });
  }
  const pages: FormatPage[] = [{ blocks: messageBlocks(message.headers, bodies), label: 'message' }];
  const unread: FormatAttachment[] = [];
  for (const attachment of attachments) {
    const read = await attachmentPages(attachment, depth);
    if (read) pages.push(...read);
    else unread.push(attachment);
  }
  const metadata = Object.fromEntries(['subject', ...HEADERS].flatMap((h) => (message.headers.has(h) ? [[h, decodeWords(message.headers.get(h)!)]] : [])));
  return { format: 'eml', pages, metadata, ...(unread.length === 0 ? {} : { attachments: unread }) };
}
