/**
 * Outlook MSG (an OLE compound file of MAPI properties): subject, sender, recipients, the HTML or
 * plain body; attached files are handed to the caller as child documents like an EML's, embedded
 * messages (storages inside the file, not files) follow as pages.
 */
import type { Block } from './blocks.ts';
import { CompoundFile } from './cfb.ts';
import { attachmentList, messageBlocks } from './email.ts';
import type { FormatAttachment, FormatDocument, FormatPage } from './types.ts';

/** A MAPI property of a storage: UTF-16 (`001F`), 8-bit (`001E`) or binary (`0102`). */
function property(cfb: CompoundFile, prefix: string, id: string): { text?: string; bytes?: Uint8Array } {
  const unicode = cfb.read(`${prefix}__substg1.0_${id}001F`);
  if (unicode) return { text: new TextDecoder('utf-16le').decode(unicode).replace(/\0+$/, '') };
  const ansi = cfb.read(`${prefix}__substg1.0_${id}001E`);
  if (ansi) return { text: new TextDecoder('windows-1252').decode(ansi).replace(/\0+$/, '') };
  const binary = cfb.read(`${prefix}__substg1.0_${id}0102`);
  return binary ? { bytes: binary } : {};
}

function messagePages(cfb: CompoundFile, prefix: string): { blocks: Block[]; attachments: FormatAttachment[]; nested: string[] } {
  const text = (id: string): string => property(cfb, prefix, id).text?.trim() ?? '';
  const headers = new Map<string, string>();
  const from = [text('0C1A'), text('5D01') || text('0C1F')].filter((s) => s !== '');
  if (text('0037') !== '') headers.set('subject', text('0037'));
  if (from.length > 0) headers.set('from', from.length === 2 ? `${from[0]} <${from[1]}>` : from[0]!);
  if (text('0E04') !== '') headers.set('to', text('0E04'));
  if (text('0E03') !== '') headers.set('cc', text('0E03'));
  const html = property(cfb, prefix, '1013');
  const htmlText = html.text ?? (html.bytes ? new TextDecoder('utf-8').decode(html.bytes) : '');
  const plain = text('1000');
  const bodies = htmlText.trim() !== '' ? [{ type: 'text/html', text: htmlText }] : plain !== '' ? [{ type: 'text/plain', text: plain }] : [];
  const attachments: FormatAttachment[] = [];
  const nested: string[] = [];
  const storages = new Set(
    cfb
      .entries()
      .map((e) => e.path)
      .filter((p) => p.startsWith(`${prefix}__attach_version1.0_#`) && p.slice(prefix.length).split('/').length === 1),
  );
  for (const storage of [...storages].sort()) {
    const at = `${storage}/`;
    const name = property(cfb, at, '3707').text || property(cfb, at, '3704').text || 'attachment';
    const data = property(cfb, at, '3701').bytes;
    if (data) attachments.push({ name: name.replace(/\0/g, ''), bytes: data });
    else if (cfb.entries().some((e) => e.path === `${at}__substg1.0_3701000D`)) nested.push(`${at}__substg1.0_3701000D/`);
  }
  return { blocks: [...messageBlocks(headers, bodies), ...attachmentList(attachments)], attachments, nested };
}

/**
 * @example
 * const doc = readMsg(bytes);
 * doc.pages[0].blocks[0] // the subject, as a heading
 */
export function readMsg(bytes: Uint8Array): FormatDocument {
  const cfb = new CompoundFile(bytes);
  const pages: FormatPage[] = [];
  const all: FormatAttachment[] = [];
  const visit = (prefix: string, level: number): void => {
    const { blocks, attachments, nested } = messagePages(cfb, prefix);
    pages.push({ blocks, label: prefix === '' ? 'message' : 'embedded message' });
    all.push(...attachments);
    // Embedded messages nest in one file, whose size bounds them; the depth bound is for loops.
    if (level < 10) for (const inner of nested) visit(inner, level + 1);
  };
  visit('', 0);
  return { format: 'msg', pages, ...(all.length === 0 ? {} : { attachments: all }) };
}
