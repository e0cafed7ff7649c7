package dev.folio.elasticsearch;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes this node's calls by what the servers say they take. folio serve's {@code GET /health}
 * advertises {@code convert.accepts}: the documents it converts or queues at once before it
 * answers 429. Keeping no more than that open (summed over the servers known) means a burst
 * queues at the server instead of bouncing, while the node setting {@code folio.max_in_flight}
 * stays the upper bound. A server is asked again after {@link #REFRESH_MS}; one that does not
 * answer drops out of the sum until it does.
 */
final class ServerLimits {
    static final long REFRESH_MS = 60_000;
    private static final Pattern ACCEPTS = Pattern.compile("\"accepts\"\\s*:\\s*(\\d+)");

    private final HttpClient http;
    private final InFlightLimiter limiter;
    private final int configured;
    private final LongSupplier clock;
    private final Map<URI, Integer> accepts = new ConcurrentHashMap<>();
    private final Map<URI, Long> askedAt = new ConcurrentHashMap<>();

    ServerLimits(HttpClient http, InFlightLimiter limiter, int configured, LongSupplier clock) {
        this.http = http;
        this.limiter = limiter;
        this.configured = configured;
        this.clock = clock;
    }

    /** Ask the ring's servers for their limits when not asked lately; never blocks. */
    void refresh(ServerRing ring) {
        long now = clock.getAsLong();
        for (URI server : ring.servers()) {
            Long last = askedAt.get(server);
            if (last != null && now - last < REFRESH_MS) continue;
            if (last == null ? askedAt.putIfAbsent(server, now) != null : !askedAt.replace(server, last, now)) continue;
            HttpRequest request = HttpRequest.newBuilder(server.resolve("/health")).timeout(Duration.ofSeconds(5)).GET().build();
            try {
                http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((answer, error) -> {
                    Integer advertised = error == null && answer.statusCode() == 200 ? parseAccepts(answer.body()) : null;
                    if (advertised == null) accepts.remove(server);
                    else accepts.put(server, advertised);
                    apply();
                });
            } catch (RuntimeException e) {
                // Not entitled or a bad URL: the convert call itself reports it with its reason.
                accepts.remove(server);
            }
        }
    }

    /** The bound now: the node setting, lowered to the servers' advertised total when that is smaller. */
    int bound() {
        int total = accepts.values().stream().mapToInt(Integer::intValue).sum();
        return total > 0 ? Math.min(configured, total) : configured;
    }

    private void apply() {
        limiter.setLimit(bound());
    }

    /** {@code convert.accepts} from a {@code /health} body, or null when it is not there (an older server). */
    static Integer parseAccepts(byte[] body) {
        Matcher match = ACCEPTS.matcher(new String(body, StandardCharsets.UTF_8));
        if (!match.find()) return null;
        try {
            int value = Integer.parseInt(match.group(1));
            return value > 0 ? value : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
