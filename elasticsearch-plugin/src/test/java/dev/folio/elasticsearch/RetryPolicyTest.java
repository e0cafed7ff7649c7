package dev.folio.elasticsearch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    @Test
    void retriesOnlyTransientStatuses() {
        assertTrue(RetryPolicy.isRetryableStatus(429));
        assertTrue(RetryPolicy.isRetryableStatus(503));
        for (int status : new int[] {400, 401, 403, 404, 413, 415, 422, 500, 502}) assertFalse(RetryPolicy.isRetryableStatus(status), "status " + status);
    }

    @Test
    void retriesTimeoutsAndConnectionFaultsOnly() {
        assertTrue(RetryPolicy.isRetryableError(new HttpTimeoutException("slow")));
        assertTrue(RetryPolicy.isRetryableError(new ConnectException("refused")));
        assertTrue(RetryPolicy.isRetryableError(new IOException("reset")));
        assertFalse(RetryPolicy.isRetryableError(new IllegalStateException("bug")));
    }

    @Test
    void boundsTheAttempts() {
        RetryPolicy policy = new RetryPolicy(2, 100, 1000);
        assertTrue(policy.mayRetry(1));
        assertTrue(policy.mayRetry(2));
        assertFalse(policy.mayRetry(3));
    }

    @Test
    void backsOffExponentiallyWithJitterUnderTheCap() {
        RetryPolicy policy = new RetryPolicy(10, 100, 1000);
        for (int i = 0; i < 50; i++) {
            long first = policy.delayMs(1, 0);
            long third = policy.delayMs(3, 0);
            long tenth = policy.delayMs(10, 0);
            assertTrue(first >= 50 && first <= 100, "first " + first);
            assertTrue(third >= 200 && third <= 400, "third " + third);
            assertTrue(tenth >= 500 && tenth <= 1000, "tenth " + tenth);
        }
    }

    @Test
    void waitsAtLeastAsLongAsTheServerSaysWithJitter() {
        RetryPolicy policy = new RetryPolicy(3, 100, 5000);
        for (int i = 0; i < 50; i++) {
            long delay = policy.delayMs(1, 2000);
            assertTrue(delay >= 2000 && delay <= 2500, "delay " + delay);
            // Not capped by max_retry_delay: a server that needs a minute gets it.
            assertTrue(policy.delayMs(1, 60_000) >= 60_000);
        }
    }

    @Test
    void retriesUntilTheTotalWaitIsSpent() {
        RetryPolicy unlimited = new RetryPolicy(RetryPolicy.UNLIMITED, 100, 1000);
        assertTrue(unlimited.mayRetry(1_000_000));
        assertTrue(unlimited.nextDelayMs(50, 2000, 10_000, 300_000) >= 2000);
        // The last retry goes in what is left of the wait; none once it is spent.
        assertEquals(1000, unlimited.nextDelayMs(50, 2000, 299_000, 300_000));
        assertEquals(-1, unlimited.nextDelayMs(50, 2000, 300_000, 300_000));
        assertEquals(-1, new RetryPolicy(2, 100, 1000).nextDelayMs(3, 0, 0, 300_000));
    }
}
