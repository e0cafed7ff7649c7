package dev.folio.elasticsearch;

import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Which failures of a call to folio serve are worth another try, and how long to wait first.
 * Only transient faults retry: 429 (busy), 503 (closing or overloaded), timeouts, and a server
 * that cannot be reached or dropped the connection (the 503 of a server that is gone; converting
 * is idempotent, so a request it may have half-done is safe to send again). Everything else (a
 * bad document, a wrong token, a 500) fails the document at once with its reason.
 */
final class RetryPolicy {
    private final int retries;
    private final long baseDelayMs;
    private final long maxDelayMs;

    /**
     * @param retries     extra attempts after the first
     * @param baseDelayMs first back-off; doubles each retry
     * @param maxDelayMs  cap on one back-off, also on a server's Retry-After
     */
    RetryPolicy(int retries, long baseDelayMs, long maxDelayMs) {
        if (retries < 0) throw new IllegalArgumentException("retries must be >= 0, got " + retries);
        if (baseDelayMs < 0 || maxDelayMs < baseDelayMs) throw new IllegalArgumentException("need 0 <= baseDelayMs <= maxDelayMs");
        this.retries = retries;
        this.baseDelayMs = baseDelayMs;
        this.maxDelayMs = maxDelayMs;
    }

    int retries() {
        return retries;
    }

    static boolean isRetryableStatus(int status) {
        return status == 429 || status == 503;
    }

    static boolean isRetryableError(Throwable error) {
        // HttpTimeoutException and HttpConnectTimeoutException are IOExceptions too; named for the reader.
        return error instanceof HttpTimeoutException || error instanceof IOException;
    }

    /** May attempt number {@code attempt} (1-based, the one that just failed) be followed by another? */
    boolean mayRetry(int attempt) {
        return attempt <= retries;
    }

    /**
     * The wait before the retry after attempt {@code attempt}: exponential with "equal jitter"
     * (half fixed, half random, so many processors do not retry in step), or the server's
     * Retry-After when it gave one; never more than the cap.
     */
    long delayMs(int attempt, long retryAfterMs) {
        if (retryAfterMs > 0) return Math.min(retryAfterMs, maxDelayMs);
        long exponential = Math.min(maxDelayMs, baseDelayMs << Math.min(attempt - 1, 20));
        long half = exponential / 2;
        return half + (half == 0 ? 0 : ThreadLocalRandom.current().nextLong(half + 1));
    }
}
