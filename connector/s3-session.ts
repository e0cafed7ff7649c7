/**
 * The calls of one S3 source run through a session: each with retries by `core/retry.ts`, and the
 * faults that end a run turned into Folio errors: refused credentials a ConfigurationError (exit
 * 2), a server silent from the start a ConfigurationError too, a server lost after it answered a
 * SourceError `FOLIO_SOURCE_LOST` (exit 3).
 */
import { ConfigurationError, SourceError } from '../core/errors.ts';
import { RetriesExhausted, withRetry } from '../core/retry.ts';
import { describeS3Error, isConnectionError, isCredentialError, isTransientS3Error, type S3Kit, s3Status } from './s3-client.ts';

export type SessionSettings = { readonly retries: number; readonly retryDelayMs: number; readonly signal: AbortSignal | undefined };

/** One client and what it has learnt: whether the server ever answered (a fault after that is a lost server). */
export class Session {
  readonly kit: S3Kit;
  readonly settings: SessionSettings;
  answered = false;

  constructor(kit: S3Kit, settings: SessionSettings) {
    this.kit = kit;
    this.settings = settings;
  }

  /** `task` with retries; a fault that ends the run is rethrown as a Folio error, others as they are. */
  async call<T>(what: string, task: () => Promise<T>): Promise<T> {
    const { retries, retryDelayMs, signal } = this.settings;
    try {
      const result = await withRetry(task, { retries, baseDelayMs: retryDelayMs, maxDelayMs: 30_000, isTransient: isTransientS3Error, signal });
      this.answered = true;
      return result;
    } catch (caught) {
      if (signal?.aborted) throw signal.reason;
      const error = caught instanceof RetriesExhausted ? caught.cause : caught;
      const tries = caught instanceof RetriesExhausted ? ` (after ${caught.attempts} attempts)` : '';
      if (isCredentialError(error)) {
        throw new ConfigurationError(
          'FOLIO_S3_CREDENTIALS',
          `${what}: ${(error as { name?: string } | null)?.name === 'CredentialsProviderError' ? 'no S3 credentials found' : 'the S3 server refused the credentials'} (${describeS3Error(error)}). Folio reads them as the AWS SDK does: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE and ~/.aws`,
          { cause: error },
        );
      }
      if (/Region is missing/i.test(describeS3Error(error))) {
        throw new ConfigurationError('FOLIO_BAD_OPTION', `${what}: no AWS region: set AWS_REGION, a profile's region, or --s3-region`, { cause: error });
      }
      // A transient fault that outlived the retries (refused, reset, timeouts, 5xx): the server,
      // not this object, is the problem, and every further request would fail the same way.
      if (caught instanceof RetriesExhausted || isConnectionError(error)) {
        const where = this.kit.client.config.endpoint === undefined ? 'the S3 server' : 'the S3 endpoint';
        if (!this.answered) {
          throw new ConfigurationError('FOLIO_S3_UNREACHABLE', `${what}: ${where} does not answer${tries}: ${describeS3Error(error)}`, { cause: error });
        }
        throw new SourceError(
          'FOLIO_SOURCE_LOST',
          `${what}: ${where} stopped answering${tries}: ${describeS3Error(error)}; nothing was pruned, rerun once it is back`,
          {
            cause: error,
          },
        );
      }
      throw Object.assign(new Error(`${describeS3Error(error)}${tries}`, { cause: error }), { status: s3Status(error) });
    }
  }
}
