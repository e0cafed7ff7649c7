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
 *
 * <p>Busy is not failed: a document keeps trying until its total wait ({@code max_wait}, minutes
 * by default) is spent, waiting as long as the server's {@code Retry-After} says (plus jitter, so
 * processors turned away together do not come back together). An optional count cap stays for
 * those who want one.
 */
final class RetryPolicy {
    /** No cap on the number of attempts: only the total wait bounds them. */
    static final int UNLIMITED = -1;

    private final int retries;
    private final long baseDelayMs;
    private final long maxDelayMs;

    /**
     * @param retries     extra attempts after the first, or {@link #UNLIMITED}
     * @param baseDelayMs first back-off when the server gave no Retry-After; doubles each retry
     * @param maxDelayMs  cap on one such back-off (a server's Retry-After is honoured as given)
     */
    RetryPolicy(int retries, long baseDelayMs, long maxDelayMs) {
        if (retries < UNLIMITED) throw new IllegalArgumentException("retries must be >= 0 or -1 (no cap), got " + retries);
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

    /** May attempt number {@code attempt} (1-based, the one that just failed) be followed by another, by count? */
    boolean mayRetry(int attempt) {
        return retries == UNLIMITED || attempt <= retries;
    }

    /**
     * The wait before the retry after attempt {@code attempt}, or -1 when the document should
     * give up: the count cap is reached, or {@code elapsedMs} (since the first attempt) plus the
     * wait would pass {@code maxWaitMs}.
     */
    long nextDelayMs(int attempt, long retryAfterMs, long elapsedMs, long maxWaitMs) {
        if (!mayRetry(attempt)) return -1;
        long delay = delayMs(attempt, retryAfterMs);
        long left = maxWaitMs - elapsedMs;
        if (left <= 0) return -1;
        // The last try goes in whatever time is left rather than not at all.
        return Math.min(delay, left);
    }

    /**
     * The wait before the retry after attempt {@code attempt}: the server's Retry-After plus up
     * to a quarter more (never less than told), or, without one, exponential with "equal
     * jitter" (half fixed, half random) under the cap.
     */
    long delayMs(int attempt, long retryAfterMs) {
        if (retryAfterMs > 0) return retryAfterMs + ThreadLocalRandom.current().nextLong(retryAfterMs / 4 + 1);
        long exponential = Math.min(maxDelayMs, baseDelayMs << Math.min(attempt - 1, 20));
        long half = exponential / 2;
        return half + (half == 0 ? 0 : ThreadLocalRandom.current().nextLong(half + 1));
    }
}
