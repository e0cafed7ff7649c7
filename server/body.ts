/** Reading a request body under a byte limit: a lying or missing Content-Length cannot blow the memory. */
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.ts';

export async function readBytes(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new HttpError(413, 'request_too_large', `the request body is ${declared} bytes; the limit is ${maxBytes}`);
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req) {
    size += (part as Buffer).length;
    if (size > maxBytes) throw new HttpError(413, 'request_too_large', `the request body exceeds ${maxBytes} bytes`);
    parts.push(part as Buffer);
  }
  return Buffer.concat(parts);
}
