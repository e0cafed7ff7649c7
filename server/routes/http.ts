/** Small HTTP helpers of the app's routes: JSON answers, bounded bodies, checked parameters. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../http-error.ts';

export function sendJson(res: ServerResponse, status: number, body: unknown): number {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
  return status;
}

/** The request body, refused with 413 past `maxBytes` (declared or counted). */
export async function readBytes(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new HttpError(413, 'request_too_large', `the upload is ${declared} bytes; the limit is ${maxBytes}`);
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req) {
    size += (part as Buffer).length;
    if (size > maxBytes) throw new HttpError(413, 'request_too_large', `the upload exceeds ${maxBytes} bytes`);
    parts.push(part as Buffer);
  }
  return Buffer.concat(parts);
}

export async function readJson(req: IncomingMessage, maxBytes: number): Promise<Record<string, unknown>> {
  const raw = (await readBytes(req, maxBytes)).toString('utf8');
  try {
    const body = JSON.parse(raw) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // fall through to the one message below
  }
  throw new HttpError(400, 'invalid_request_error', 'the request body must be a JSON object');
}

/** One of `allowed`, or `fallback` when absent; anything else is a 400 naming the parameter. */
export function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new HttpError(400, 'invalid_request_error', `\`${name}\` must be one of ${allowed.join(', ')}, got \`${String(value)}\``);
}

/** An integer within [min, max], or `fallback` when absent. */
export function intParam(name: string, value: unknown, min: number, max: number, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new HttpError(400, 'invalid_request_error', `\`${name}\` must be an integer from ${min} to ${max}, got \`${String(value)}\``);
  return n;
}

/** Document and conversion ids are short hex-like tokens; anything else never reaches a lookup. */
export function checkId(id: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id))
    throw new HttpError(400, 'invalid_request_error', `\`${id.slice(0, 80)}\` is not a document id (letters, digits, - and _)`);
  return id;
}
