/**
 * Validation of a `POST /v1/convert` request: raw document bytes with their content type and the
 * options in the query string, or JSON with the bytes in base64 (`data`) or a `url`. Every problem
 * is a 4xx naming the field and what is wrong with it.
 */
import type { IncomingMessage } from 'node:http';
import { FORMAT_OF, READABLE_TYPES } from '../pipeline/formats/mime.ts';
import { HttpError } from './http-error.ts';

export interface ConvertRequest {
  /** The document bytes, when sent; undefined when `url` names it. */
  readonly bytes?: Uint8Array;
  readonly url?: string;
  /** A name for the document in errors and chunk sources (helps sniff `.md`). */
  readonly filename?: string;
  /** The Content-Type of a raw body; undefined for JSON. */
  readonly contentType?: string;
  /** `auto`, `text`, or the served OCR engine's name. */
  readonly engine: string;
  readonly chunks: boolean;
  readonly embed: boolean;
}

const bad = (message: string): HttpError => new HttpError(400, 'invalid_request_error', message);

/** Content types a raw body may carry (the bytes are sniffed anyway; this only turns away obvious mistakes). */
const RAW_TYPES = /^(application\/pdf|application\/octet-stream|image\/(png|jpeg|tiff|webp)|text\/(markdown|plain))$/;

/** A raw body's declared type is plausible: one above, or a format a reader reads (DOCX, HTML, EML, …). */
const rawTypeAllowed = (type: string): boolean => RAW_TYPES.test(type) || FORMAT_OF[type] !== undefined;

function flag(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw bad(`\`${name}\` must be true or false, got \`${String(value)}\``);
}

function text(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '') throw bad(`\`${name}\` must be a non-empty string`);
  return value;
}

/** Strict base64 (standard or URL-safe alphabet, padding optional): anything else is a 400, never silently skipped bytes. */
export function decodeBase64(value: string, field = 'data'): Uint8Array {
  const cleaned = value.replace(/\s+/g, '');
  if (cleaned.length === 0) throw bad(`\`${field}\` is empty: send the document's bytes in base64`);
  if (cleaned.length % 4 === 1 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(cleaned)) throw bad(`\`${field}\` is not valid base64`);
  return new Uint8Array(Buffer.from(cleaned, 'base64'));
}

const KNOWN_FIELDS = new Set(['data', 'url', 'filename', 'engine', 'chunks', 'embed']);

/**
 * @example
 * const request = parseConvertRequest(req, body)
 */
export function parseConvertRequest(req: IncomingMessage, body: Buffer): ConvertRequest {
  const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') return parseJson(body);
  if (type === '')
    throw new HttpError(
      415,
      'unsupported_media_type',
      "set Content-Type: the document's type (application/pdf, image/png, …) for raw bytes, or application/json",
    );
  if (!rawTypeAllowed(type))
    throw new HttpError(
      415,
      'unsupported_media_type',
      `unsupported Content-Type \`${type}\`; send the bytes of a type Folio reads (${READABLE_TYPES}), or JSON`,
    );
  if (body.length === 0) throw bad("the request body is empty: send the document's bytes");
  for (const key of query.keys())
    if (!KNOWN_FIELDS.has(key) || key === 'data' || key === 'url') throw bad(`unknown query parameter \`${key}\`; known: filename, engine, chunks, embed`);
  const filename = text('filename', query.get('filename') ?? undefined);
  return {
    bytes: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
    contentType: type,
    ...(filename === undefined ? {} : { filename }),
    engine: text('engine', query.get('engine') ?? undefined) ?? 'auto',
    chunks: flag('chunks', query.get('chunks') ?? undefined, true),
    embed: flag('embed', query.get('embed') ?? undefined, false),
  };
}

function parseJson(body: Buffer): ConvertRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw bad('the request body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad('the request body must be a JSON object');
  const fields = parsed as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (!KNOWN_FIELDS.has(key)) throw bad(`unknown field \`${key}\`; known: ${[...KNOWN_FIELDS].join(', ')}`);
  const data = fields['data'];
  const url = text('url', fields['url']);
  if ((data === undefined) === (url === undefined)) throw bad('send exactly one of `data` (the document in base64) and `url`');
  if (data !== undefined && typeof data !== 'string') throw bad('`data` must be a base64 string');
  const filename = text('filename', fields['filename']);
  return {
    ...(data === undefined ? {} : { bytes: decodeBase64(data) }),
    ...(url === undefined ? {} : { url }),
    ...(filename === undefined ? {} : { filename }),
    engine: text('engine', fields['engine']) ?? 'auto',
    chunks: flag('chunks', fields['chunks'], true),
    embed: flag('embed', fields['embed'], false),
  };
}
