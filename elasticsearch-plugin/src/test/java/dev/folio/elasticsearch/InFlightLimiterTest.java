package dev.folio.elasticsearch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InFlightLimiterTest {
    @Test
    void runsAtMostTheLimitAndStartsTheNextOnRelease() {
        InFlightLimiter limiter = new InFlightLimiter(2);
        List<Integer> started = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int n = i;
            limiter.submit(() -> started.add(n));
        }
        assertEquals(List.of(0, 1), started);
        assertEquals(2, limiter.running());
        assertEquals(3, limiter.waiting());
        limiter.release();
        assertEquals(List.of(0, 1, 2), started);
        assertEquals(2, limiter.running());
        limiter.release();
        limiter.release();
        limiter.release();
        limiter.release();
        assertEquals(List.of(0, 1, 2, 3, 4), started);
        assertEquals(0, limiter.running());
        assertEquals(0, limiter.waiting());
    }
}
