/**
 * RFC 822 / MIME messages: headers (folded lines, RFC 2047 encoded words), multipart bodies split
 * at their boundaries, base64 and quoted-printable decoded, text in its declared charset. Bounded
 * in parts and nesting, so a message nested a thousand deep cannot exhaust the stack.
 */
import { SourceError } from '../../core/errors.ts';

export interface MimePart {
  readonly headers: ReadonlyMap<string, string>;
  /** `text/plain`, `multipart/mixed`, …, lower case, without parameters. */
  readonly type: string;
  readonly params: Readonly<Record<string, string>>;
  /** Decoded body bytes (leaf parts). */
  readonly body: Uint8Array;
  readonly parts: readonly MimePart[];
  /** The attachment's file name, when it has one. */
  readonly filename?: string;
  readonly attachment: boolean;
}

const latin1 = new TextDecoder('latin1');

/** `=?utf-8?B?…?=` and `=?iso-8859-1?Q?…?=` words decoded. */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([\w-]+)(?:\*[\w-]+)?\?([BbQq])\?([^?]*)\?=/g, (whole, charset: string, encoding: string, text: string) => {
      try {
        const bytes = encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : quotedPrintable(text.replace(/_/g, ' '));
        return new TextDecoder(charset.toLowerCase()).decode(bytes);
      } catch {
        return whole;
      }
    });
}

function quotedPrintable(text: string): Uint8Array {
  const bytes: number[] = [];
  const clean = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < clean.length; i++) {
    const c = clean.charCodeAt(i);
    if (clean[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(clean.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(clean.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(c & 0xff);
  }
  return new Uint8Array(bytes);
}

/** `text/plain; charset="utf-8"; name=a.txt` → type and parameters. */
function parameters(value: string): { value: string; params: Record<string, string> } {
  const [head, ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const piece of rest) {
    const eq = piece.indexOf('=');
    if (eq < 0) continue;
    const name = piece
      .slice(0, eq)
      .trim()
      .toLowerCase()
      .replace(/\*\d*\*?$/, '');
    let v = piece
      .slice(eq + 1)
      .trim()
      .replace(/^"|"$/g, '');
    // RFC 2231: charset''percent-encoded
    if (/^[\w-]+''/.test(v)) v = decodeURIComponent(v.replace(/^[\w-]+''/, ''));
    params[name] = (params[name] ?? '') + decodeWords(v);
  }
  return { value: (head ?? '').trim().toLowerCase(), params };
}

function splitHeaders(bytes: Uint8Array): { headers: Map<string, string>; body: Uint8Array } {
  const text = latin1.decode(bytes.subarray(0, Math.min(bytes.length, 256 * 1024)));
  const match = /\r?\n\r?\n/.exec(text);
  const end = match ? match.index : text.length;
  const bodyStart = match ? match.index + match[0].length : bytes.length;
  const headers = new Map<string, string>();
  let last: string | undefined;
  for (const line of text.slice(0, end).split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && last !== undefined) {
      headers.set(last, `${headers.get(last)} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    last = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(last)) headers.set(last, line.slice(colon + 1).trim());
  }
  return { headers, body: bytes.subarray(bodyStart) };
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

export interface MimeLimits {
  /** @default 10 */
  readonly maxDepth?: number;
  /** @default 1000 */
  readonly maxParts?: number;
}

/**
 * Parse a message (or a part of one).
 *
 * @example
 * parseMime(new TextEncoder().encode('Subject: Hi\n\nBody')).headers.get('subject') // 'Hi'
 */
export function parseMime(bytes: Uint8Array, limits: Readonly<MimeLimits> = {}, depth = 0, counter = { parts: 0 }): MimePart {
  const { maxDepth = 10, maxParts = 1000 } = limits;
  if (++counter.parts > maxParts) throw new SourceError('FOLIO_FORMAT_TOO_LARGE', `the message has more than ${maxParts} MIME parts`);
  const { headers, body } = splitHeaders(bytes);
  const { value: type, params } = parameters(headers.get('content-type') ?? 'text/plain');
  const disposition = parameters(headers.get('content-disposition') ?? '');
  const filename = disposition.params['filename'] ?? params['name'];
  const attachment = disposition.value === 'attachment' || (filename !== undefined && !type.startsWith('multipart/'));
  const base = { headers, type, params, attachment, ...(filename === undefined ? {} : { filename }) };
  if (type.startsWith('multipart/') && params['boundary'] && depth < maxDepth) {
    const boundary = new TextEncoder().encode(`--${params['boundary']}`);
    const parts: MimePart[] = [];
    let at = indexOfBytes(body, boundary, 0);
    while (at >= 0) {
      let start = at + boundary.length;
      if (body[start] === 0x2d && body[start + 1] === 0x2d) break;
      while (body[start] === 0x0d || body[start] === 0x0a || body[start] === 0x20 || body[start] === 0x09) start++;
      const next = indexOfBytes(body, boundary, start);
      const end = next < 0 ? body.length : next;
      parts.push(parseMime(body.subarray(start, end), limits, depth + 1, counter));
      at = next;
    }
    return { ...base, body: new Uint8Array(), parts };
  }
  if (type.startsWith('multipart/')) throw new SourceError('FOLIO_FORMAT_TOO_LARGE', `the message nests deeper than ${maxDepth} levels`);
  const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase().trim();
  let decoded: Uint8Array = body;
  if (encoding === 'base64') decoded = new Uint8Array(Buffer.from(latin1.decode(body).replace(/[^A-Za-z0-9+/=]/g, ''), 'base64'));
  else if (encoding === 'quoted-printable') decoded = quotedPrintable(latin1.decode(body));
  return { ...base, body: decoded, parts: [] };
}

/** A text part's body in its charset. */
export function partText(part: MimePart): string {
  const charset = (part.params['charset'] ?? 'utf-8').toLowerCase();
  try {
    return new TextDecoder(charset).decode(part.body);
  } catch {
    return new TextDecoder('utf-8').decode(part.body);
  }
}
