/**
 * Validation of an OpenAI-style chat-completion request that carries one page image. Every
 * problem is a 4xx with a message that says what is wrong, so a client can fix its request.
 */
import sharp, { type OutputInfo } from 'sharp';
import type { PageImage } from '../inference/engine.ts';
import { HttpError } from './http-error.ts';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/tiff']);

export interface OcrRequest {
  readonly model: string;
  readonly stream: boolean;
  readonly image: PageImage;
}

interface ChatBody {
  model?: unknown;
  stream?: unknown;
  messages?: unknown;
}

/** The first `image_url` of the last user message. */
function findImageUrl(messages: unknown): string {
  if (!Array.isArray(messages) || messages.length === 0) throw new HttpError(400, 'invalid_request_error', '`messages` must be a non-empty array');
  for (const message of [...messages].reverse()) {
    const content = (message as { content?: unknown }).content;
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      const p = part as { type?: unknown; image_url?: { url?: unknown } | string };
      if (p.type !== 'image_url') continue;
      const url = typeof p.image_url === 'string' ? p.image_url : p.image_url?.url;
      if (typeof url === 'string') return url;
    }
  }
  throw new HttpError(
    400,
    'invalid_request_error',
    'no image found: send the page as a content part {"type": "image_url", "image_url": {"url": "data:image/png;base64,…"}}',
  );
}

export interface ParseRequestOptions {
  readonly models: readonly string[];
  readonly maxPixels: number;
  readonly requestId: string;
}

export async function parseOcrRequest(raw: string, options: Readonly<ParseRequestOptions>): Promise<OcrRequest> {
  let body: ChatBody;
  try {
    body = JSON.parse(raw) as ChatBody;
  } catch {
    throw new HttpError(400, 'invalid_request_error', 'the request body is not valid JSON');
  }
  const model = typeof body.model === 'string' ? body.model : options.models[0]!;
  if (!options.models.includes(model))
    throw new HttpError(404, 'model_not_found', `model \`${model}\` is not served here; available: ${options.models.join(', ')}`);
  const url = findImageUrl(body.messages);
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!match)
    throw new HttpError(400, 'invalid_request_error', 'the image must be a base64 data URL (data:image/png;base64,…); remote image URLs are not fetched');
  const [, mime, base64] = match as unknown as [string, string, string];
  if (!IMAGE_TYPES.has(mime)) throw new HttpError(415, 'unsupported_media_type', `unsupported image type \`${mime}\`; send PNG, JPEG, WebP or TIFF`);
  const cleaned = base64.replace(/\s+/g, '');
  if (cleaned.length === 0 || cleaned.length % 4 === 1 || /[^A-Za-z0-9+/=_-]/.test(cleaned))
    throw new HttpError(400, 'invalid_request_error', 'the image data is not valid base64');
  const bytes = Buffer.from(cleaned, 'base64');
  if (bytes.length === 0) throw new HttpError(400, 'invalid_request_error', 'the image is empty');

  let decoded: { data: Buffer; info: OutputInfo };
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    const pixels = (meta.width ?? 0) * (meta.height ?? 0);
    if (pixels > options.maxPixels)
      throw new HttpError(413, 'image_too_large', `the image has ${meta.width}×${meta.height} = ${pixels} pixels; the limit is ${options.maxPixels}`);
    decoded = await sharp(bytes, { limitInputPixels: options.maxPixels })
      .rotate()
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, 'invalid_image', `the image cannot be decoded: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { data, info } = decoded;
  return {
    model,
    stream: body.stream === true,
    image: {
      docId: options.requestId,
      source: `request ${options.requestId}`,
      pageNumber: 1,
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
      channels: info.channels as 3,
    },
  };
}
