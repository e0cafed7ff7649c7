/**
 * The one module that loads the AWS SDK for JavaScript v3, lazily: runs that never read an
 * `s3://` input never pay for it. Configuration follows the SDK's own conventions (credentials
 * from the environment, the shared `~/.aws` profile, SSO, instance roles; region from
 * `AWS_REGION` or the profile; `AWS_ENDPOINT_URL_S3`/`AWS_ENDPOINT_URL`), with Folio's options
 * on top. The SDK's own retries are off: Folio retries by the one policy of `core/retry.ts`.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { ConfigurationError } from '../core/errors.ts';
import { isTransientError, isTransientStatus } from '../core/retry.ts';

export interface S3ConnectionOptions {
  /**
   * The S3-compatible server (MinIO, Ceph, s3proxy, a GCS or Azure gateway), e.g.
   * `http://127.0.0.1:9000`.
   * @default the SDK's: `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, the profile's, else AWS
   */
  readonly endpoint?: string;
  /**
   * @default the SDK's (`AWS_REGION`, the profile); `us-east-1` for a custom endpoint without one
   */
  readonly region?: string;
  /**
   * Address buckets as `endpoint/bucket/key` rather than `bucket.endpoint/key`, as most
   * S3-compatible servers want.
   * @default true when `endpoint` is given, else false
   */
  readonly forcePathStyle?: boolean;
  /**
   * Time for one request (connect, headers and body), in ms.
   * @default 30000
   */
  readonly timeoutMs?: number;
}

/** What Folio uses of the SDK: the client and the two commands. */
export interface S3Kit {
  readonly client: S3Client;
  readonly ListObjectsV2Command: typeof import('@aws-sdk/client-s3').ListObjectsV2Command;
  readonly GetObjectCommand: typeof import('@aws-sdk/client-s3').GetObjectCommand;
}

/**
 * An S3 client configured from `options` and the SDK's conventions. The caller destroys it.
 *
 * @example
 * const kit = await openS3({ endpoint: 'http://127.0.0.1:9000' });
 * try { … } finally { kit.client.destroy(); }
 */
export async function openS3(options: Readonly<S3ConnectionOptions> = {}): Promise<S3Kit> {
  const { endpoint, timeoutMs = 30_000 } = options;
  if (endpoint !== undefined && !/^https?:\/\/[^/]/i.test(endpoint)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`s3Endpoint\` to be an http(s) URL, got \`${endpoint}\``);
  }
  let sdk: typeof import('@aws-sdk/client-s3');
  try {
    sdk = await import('@aws-sdk/client-s3');
  } catch (cause) {
    // A trimmed install (or a bundler) left the SDK out: say what to add rather than a module error.
    throw new ConfigurationError('FOLIO_BAD_OPTION', `s3:// inputs need the AWS SDK for JavaScript v3: npm install @aws-sdk/client-s3 (${String(cause)})`, {
      cause,
    });
  }
  const customEndpoint = endpoint ?? process.env['AWS_ENDPOINT_URL_S3'] ?? process.env['AWS_ENDPOINT_URL'];
  const envRegion = process.env['AWS_REGION'] ?? process.env['AWS_DEFAULT_REGION'];
  // An S3-compatible server rarely cares about the region, but the SDK refuses to sign without one.
  const region = options.region ?? envRegion ?? (customEndpoint !== undefined && process.env['AWS_PROFILE'] === undefined ? 'us-east-1' : undefined);
  const client = new sdk.S3Client({
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(region === undefined ? {} : { region }),
    forcePathStyle: options.forcePathStyle ?? customEndpoint !== undefined,
    // Flexible checksums (CRC headers on every request) are AWS's; many S3-compatible servers
    // answer them with 501 NotImplemented. AWS itself keeps the SDK's default.
    ...(customEndpoint === undefined ? {} : { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }),
    maxAttempts: 1,
    requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs },
  });
  return { client, ListObjectsV2Command: sdk.ListObjectsV2Command, GetObjectCommand: sdk.GetObjectCommand };
}

/** What the SDK's errors carry. */
interface SdkError {
  readonly name?: string;
  readonly code?: string;
  readonly message?: string;
  readonly $metadata?: { readonly httpStatusCode?: number };
}

/** S3 error names that a retry may cure. */
const TRANSIENT_NAMES = new Set([
  'SlowDown',
  'InternalError',
  'ServiceUnavailable',
  'RequestTimeout',
  'RequestTimeTooSkewed',
  'TimeoutError',
  'ThrottlingException',
]);

/** S3 error names that say the credentials are wrong or missing, or do not allow the read. */
const CREDENTIAL_NAMES = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AccessDenied',
  'ExpiredToken',
  'InvalidToken',
  'CredentialsProviderError',
  'AuthorizationHeaderMalformed',
]);

export function s3Status(error: unknown): number | undefined {
  return (error as SdkError | null)?.$metadata?.httpStatusCode;
}

/** A dropped connection, a timeout, a 5xx or a throttle: worth another try. */
export function isTransientS3Error(error: unknown): boolean {
  const name = (error as SdkError | null)?.name ?? '';
  if (TRANSIENT_NAMES.has(name)) return true;
  const status = s3Status(error);
  if (status !== undefined && (isTransientStatus(status) || status === 500)) return true;
  return isTransientError(error);
}

/** The connection itself failed (refused, reset, timed out): the server is not answering. */
export function isConnectionError(error: unknown): boolean {
  return s3Status(error) === undefined && isTransientS3Error(error);
}

/** Wrong, missing or insufficient credentials: a configuration problem, not a document's. */
export function isCredentialError(error: unknown): boolean {
  const name = (error as SdkError | null)?.name ?? '';
  return CREDENTIAL_NAMES.has(name) || s3Status(error) === 403 || /Could not load credentials/i.test(describeS3Error(error));
}

/** The SDK error as one line: its name, status and message. */
export function describeS3Error(error: unknown): string {
  const e = error as SdkError | null;
  const status = s3Status(error);
  const name = e?.name && e.name !== 'Error' ? e.name : (e?.code ?? '');
  const message = e?.message && e.message !== 'UnknownError' ? e.message : '';
  return [name, status === undefined ? '' : `HTTP ${status}`, message].filter((part) => part !== '').join(': ') || String(error);
}
