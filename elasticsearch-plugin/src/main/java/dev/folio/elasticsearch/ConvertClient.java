package dev.folio.elasticsearch;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sends documents to folio serve's {@code POST /v1/convert}: non-blocking, at most
 * {@code maxInFlight} calls open per node (lowered to what the servers advertise, see
 * {@link ServerLimits}), spread over the servers, transient faults retried on the next server
 * for as long as the document's total wait allows (see {@link RetryPolicy}), every final failure
 * a {@link ConvertFailure} naming server, status, attempts and cause.
 */
final class ConvertClient implements Closeable {
    /** Waits without holding a thread: Elasticsearch's scheduler in the plugin, a timer in tests. */
    interface Delayer {
        void schedule(long delayMs, Runnable task);
    }

    private static final Pattern ERROR_MESSAGE = Pattern.compile("\"message\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final HttpClient http;
    private final InFlightLimiter limiter;
    private final ServerLimits limits;
    private final RetryPolicy retry;
    private final Delayer delayer;
    private final String apiKey;

    /**
     * @param apiKey bearer token for folio serve, or null
     */
    ConvertClient(int maxInFlight, RetryPolicy retry, Delayer delayer, String apiKey) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        this.limiter = new InFlightLimiter(maxInFlight);
        this.limits = new ServerLimits(http, limiter, maxInFlight, () -> System.nanoTime() / 1_000_000);
        this.retry = retry;
        this.delayer = delayer;
        this.apiKey = apiKey == null || apiKey.isEmpty() ? null : apiKey;
    }

    /** Convert {@code call} on one of {@code ring}'s servers; {@code done} gets the JSON body or a {@link ConvertFailure}. */
    void convert(ServerRing ring, ConvertCall call, BiConsumer<byte[], ConvertFailure> done) {
        int start = ring.start();
        limits.refresh(ring);
        long began = System.nanoTime();
        limiter.submit(() -> attempt(ring, start, 1, began, call, (body, failure) -> {
            limiter.release();
            done.accept(body, failure);
        }));
    }

    int inFlight() {
        return limiter.running();
    }

    /** The in-flight bound now (the node setting, or less when the servers advertise less). */
    int inFlightLimit() {
        return limiter.limit();
    }

    /**
     * @param began when the document first asked for a slot ({@link System#nanoTime()}): its
     *              total wait counts from there, queueing on this node included
     */
    private void attempt(ServerRing ring, int start, int attempt, long began, ConvertCall call, BiConsumer<byte[], ConvertFailure> done) {
        URI server = ring.server(start, attempt);
        HttpRequest request = request(server, call);
        CompletableFuture<HttpResponse<byte[]>> response;
        try {
            response = http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (RuntimeException e) {
            // e.g. NotEntitledException without the plugin's entitlement policy: thrown right here.
            done.accept(null, new ConvertFailure(describe(call, server) + ": the request could not be sent: " + e, 0));
            return;
        }
        response.whenComplete((answer, error) -> {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (cause == null && answer.statusCode() == 200) {
                done.accept(answer.body(), null);
                return;
            }
            boolean retryable = cause == null ? RetryPolicy.isRetryableStatus(answer.statusCode()) : RetryPolicy.isRetryableError(cause);
            String reason = cause == null ? "HTTP " + answer.statusCode() + " " + errorMessage(answer.body()) : fault(cause, call.timeout());
            int status = cause == null ? answer.statusCode() : 0;
            long elapsedMs = (System.nanoTime() - began) / 1_000_000;
            long retryAfter = cause == null ? retryAfterMs(answer) : 0;
            long delay = retryable ? retry.nextDelayMs(attempt, retryAfter, elapsedMs, call.maxWait().toMillis()) : -1;
            if (delay < 0) {
                String tries = attempt > 1 ? " after " + attempt + " attempts in " + Math.round(elapsedMs / 1000.0) + " s" : "";
                String spent = retryable && retry.mayRetry(attempt) ? " (max_wait " + call.maxWait().toSeconds() + " s spent)" : "";
                done.accept(null, new ConvertFailure(describe(call, server) + tries + spent + ": " + reason, status));
                return;
            }
            delayer.schedule(delay, () -> attempt(ring, start, attempt + 1, began, call, done));
        });
    }

    private HttpRequest request(URI server, ConvertCall call) {
        String query = "?engine=" + encode(call.engine()) + "&chunks=" + call.chunks() + "&embed=" + call.embed() + "&filename=" + encode(call.name());
        HttpRequest.Builder builder = HttpRequest.newBuilder(server.resolve("/v1/convert" + query))
            .timeout(call.timeout())
            .header("content-type", "application/octet-stream")
            .POST(HttpRequest.BodyPublishers.ofByteArray(call.bytes()));
        if (apiKey != null) builder.header("authorization", "Bearer " + apiKey);
        return builder.build();
    }

    private static String describe(ConvertCall call, URI server) {
        return "folio could not convert [" + call.name() + "] at " + server;
    }

    private static String fault(Throwable cause, Duration timeout) {
        if (cause instanceof HttpTimeoutException) return "no answer within " + timeout.toMillis() + " ms (" + cause.getClass().getSimpleName() + ")";
        String message = cause.getMessage();
        return (cause instanceof IOException ? "connection failed: " : "") + cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /** The server's {@code error.message}, or the start of the body when it is not folio's error shape. */
    static String errorMessage(byte[] body) {
        String text = body == null ? "" : new String(body, StandardCharsets.UTF_8);
        Matcher match = ERROR_MESSAGE.matcher(text);
        if (match.find()) return match.group(1).replace("\\\"", "\"").replace("\\\\", "\\");
        return text.length() > 300 ? text.substring(0, 300) + "…" : text;
    }

    private static long retryAfterMs(HttpResponse<?> answer) {
        return answer.headers().firstValue("retry-after").map(value -> {
            try {
                return Long.parseLong(value.trim()) * 1000;
            } catch (NumberFormatException e) {
                return 0L;
            }
        }).orElse(0L);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        http.close();
    }
}
