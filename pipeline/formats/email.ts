/**
 * E-mail (EML): the subject as the title, sender, recipients and date as metadata lines, the body
 * (HTML through the HTML reader, else the plain text) and the attachments' names. The attachments
 * themselves (a forwarded message too) are handed to the caller, which converts each as a child
 * document of its own (`pipeline/run/attachment-children.ts`), nesting bounded there.
 */
import type { Block } from './blocks.ts';
import { htmlBlocks } from './html.ts';
import { decodeWords, type MimePart, parseMime, partText } from './mime-message.ts';
import type { FormatAttachment, FormatDocument, FormatPage } from './types.ts';

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

/** The names of a message's attachments, a line on its page: the parent is found by them too. */
export function attachmentList(attachments: readonly FormatAttachment[]): Block[] {
  if (attachments.length === 0) return [];
  return [{ kind: 'paragraph', spans: [{ text: 'Attachments: ', bold: true }, { text: attachments.map((a) => a.name).join(', ') }] }];
}

/**
 * Read an RFC 822 message.
 *
 * @example
 * const doc = readEml(bytes);
 * doc.metadata?.subject
 */
export function readEml(bytes: Uint8Array): FormatDocument {
  const message = parseMime(bytes);
  const bodies: { type: string; text: string }[] = [];
  const attachments: FormatAttachment[] = [];
  for (const leaf of leaves(message)) {
    if (!leaf.attachment && (leaf.type === 'text/plain' || leaf.type === 'text/html') && bodies.length === 0)
      bodies.push({ type: leaf.type, text: partText(leaf) });
    else if (leaf.attachment || leaf.type === 'message/rfc822') attachments.push({ name: leaf.filename ?? 'message.eml', bytes: leaf.body });
  }
  const pages: FormatPage[] = [{ blocks: [...messageBlocks(message.headers, bodies), ...attachmentList(attachments)], label: 'message' }];
  const metadata = Object.fromEntries(['subject', ...HEADERS].flatMap((h) => (message.headers.has(h) ? [[h, decodeWords(message.headers.get(h)!)]] : [])));
  return { format: 'eml', pages, metadata, ...(attachments.length === 0 ? {} : { attachments }) };
}
