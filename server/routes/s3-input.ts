/**
 * `s3://bucket/key` inputs of the app's convert view, read with the connector `folio ingest`
 * and `folio convert` use. Like URL fetching on `/v1/convert`, the server reads S3 only when it
 * was set up to: here, when its own environment names S3 credentials or an endpoint (nothing a
 * request carries can point it at a bucket it was not given). Each refusal says why.
 */
import { isSourceFailure, readS3Object, type S3ConnectionOptions } from '../../connector/index.ts';
import { ConfigurationError, SourceError } from '../../core/errors.ts';
import type { SourceDocument } from '../../core/types.ts';
import { HttpError } from '../http-error.ts';

/** The variables by which the AWS SDK finds credentials or an endpoint. */
const S3_VARIABLES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_PROFILE',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  'AWS_ENDPOINT_URL_S3',
  'AWS_ENDPOINT_URL',
] as const;

/**
 * S3 reading as the server's environment sets it up: on (the SDK's own configuration) when one
 * of the AWS variables is set, else off.
 *
 * @example
 * s3FromEnvironment({ AWS_PROFILE: 'docs' }) // {}
 * s3FromEnvironment({}) // undefined
 */
export function s3FromEnvironment(env: NodeJS.ProcessEnv = process.env): S3ConnectionOptions | undefined {
  return S3_VARIABLES.some((name) => (env[name] ?? '') !== '') ? {} : undefined;
}

const STATUS_OF: Readonly<Record<string, number>> = {
  FOLIO_BAD_URL: 400,
  FOLIO_EMPTY_FILE: 400,
  FOLIO_NOT_FOUND: 404,
  FOLIO_TOO_LARGE: 413,
  FOLIO_UNSUPPORTED_TYPE: 415,
};

/** The object `source` names, or an HttpError saying why it cannot be read. */
export async function readS3Input(
  source: string,
  options: Readonly<{ s3: S3ConnectionOptions | undefined; maxBytes: number; signal?: AbortSignal }>,
): Promise<SourceDocument> {
  const { s3, maxBytes, signal } = options;
  if (!/^s3:\/\//i.test(source))
    throw new HttpError(
      400,
      'invalid_request_error',
      `\`source\` must be an s3://bucket/key address, got \`${source.slice(0, 200)}\` (other files are uploaded)`,
    );
  if (s3 === undefined)
    throw new HttpError(
      403,
      's3_refused',
      `refusing to read ${source}: this server reads S3 only when its own environment configures it (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE; AWS_ENDPOINT_URL_S3 for an S3-compatible server), and folio serve was started without`,
    );
  let item: Awaited<ReturnType<typeof readS3Object>>;
  try {
    item = await readS3Object(source, { ...s3, maxBytes, retries: 1, ...(signal === undefined ? {} : { signal }) });
  } catch (error) {
    // Credentials refused, no answer, a server lost: the server's set-up, not the request, is wrong.
    if (error instanceof ConfigurationError || error instanceof SourceError) throw new HttpError(502, 's3_error', error.message);
    throw error;
  }
  if (isSourceFailure(item)) throw new HttpError(STATUS_OF[item.code] ?? 502, item.code === 'FOLIO_NOT_FOUND' ? 'not_found' : 's3_error', item.reason);
  return item;
}
