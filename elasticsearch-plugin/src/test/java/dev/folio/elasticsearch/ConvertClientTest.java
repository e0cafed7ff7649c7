package dev.folio.elasticsearch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Fault injection with stub servers (the real folio serve is tested from the Node suite). */
class ConvertClientTest {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final ConvertClient.Delayer delayer = (ms, task) -> timer.schedule(task, ms, TimeUnit.MILLISECONDS);
    private final List<HttpServer> servers = new java.util.ArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(s -> s.stop(0));
        timer.shutdownNow();
    }

    /** A stub answering {@code status} with {@code body}; counts its requests. */
    private URI stub(int status, String body, AtomicInteger hits) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            // The client asks /health for the server's limits: only conversions count.
            if (exchange.getRequestURI().getPath().startsWith("/v1/convert")) hits.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("content-type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        servers.add(server);
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private record Result(byte[] body, ConvertFailure failure) {}

    private static Result call(ConvertClient client, ServerRing ring) throws Exception {
        return call(client, ring, ConvertCall.DEFAULT_MAX_WAIT);
    }

    private static Result call(ConvertClient client, ServerRing ring, Duration maxWait) throws Exception {
        CompletableFuture<Result> result = new CompletableFuture<>();
        client.convert(ring, new ConvertCall(new byte[] {1}, "docs/1", "auto", true, false, Duration.ofSeconds(5), maxWait), (b, f) -> result.complete(new Result(b, f)));
        return result.get(20, TimeUnit.SECONDS);
    }

    @Test
    void waitsAsTheServerSaysUntilItHasRoom() throws Exception {
        AtomicInteger hits = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        long[] times = new long[3];
        server.createContext("/v1/convert", exchange -> {
            exchange.getRequestBody().readAllBytes();
            int n = hits.getAndIncrement();
            if (n < times.length) times[n] = System.nanoTime();
            boolean busy = n < 2;
            byte[] bytes = (busy ? "{\"error\":{\"message\":\"busy\"}}" : "{\"markdown\":\"x\"}").getBytes(StandardCharsets.UTF_8);
            if (busy) exchange.getResponseHeaders().add("retry-after", "1");
            exchange.sendResponseHeaders(busy ? 429 : 200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        servers.add(server);
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        // No count cap: the default.
        try (ConvertClient client = new ConvertClient(4, new RetryPolicy(RetryPolicy.UNLIMITED, 1, 5), delayer, null)) {
            Result r = call(client, new ServerRing(List.of(uri)));
            assertNull(r.failure());
            assertEquals(3, hits.get());
            assertTrue((times[1] - times[0]) / 1_000_000 >= 1000, "waited the Retry-After");
        }
    }

    @Test
    void givesUpWhenTheTotalWaitIsSpentNamingIt() throws Exception {
        AtomicInteger hits = new AtomicInteger();
        URI busy = stub(429, "{\"error\":{\"message\":\"the server is busy\"}}", hits);
        try (ConvertClient client = new ConvertClient(4, new RetryPolicy(RetryPolicy.UNLIMITED, 50, 100), delayer, null)) {
            Result r = call(client, new ServerRing(List.of(busy)), Duration.ofMillis(600));
            assertTrue(hits.get() >= 3, "hits " + hits.get());
            String message = r.failure().getMessage();
            assertTrue(message.contains("(max_wait 0 s spent): HTTP 429 the server is busy"), message);
        }
    }

    @Test
    void boundsItsCallsByWhatTheServerAdvertises() throws Exception {
        AtomicInteger hits = new AtomicInteger();
        URI server = stub(200, "{\"status\":\"ok\",\"convert\":{\"running\":0,\"accepts\":3}}", hits);
        try (ConvertClient client = new ConvertClient(16, new RetryPolicy(0, 1, 5), delayer, null)) {
            assertEquals(16, client.inFlightLimit());
            call(client, new ServerRing(List.of(server)));
            for (int i = 0; i < 100 && client.inFlightLimit() != 3; i++) Thread.sleep(20);
            assertEquals(3, client.inFlightLimit(), "lowered to the server's convert.accepts");
        }
        assertEquals(Integer.valueOf(72), ServerLimits.parseAccepts("{\"convert\":{\"accepts\": 72}}".getBytes(StandardCharsets.UTF_8)));
        assertNull(ServerLimits.parseAccepts("{\"status\":\"ok\"}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void retriesA429OnTheOtherServer() throws Exception {
        AtomicInteger busyHits = new AtomicInteger();
        AtomicInteger okHits = new AtomicInteger();
        URI busy = stub(429, "{\"error\":{\"message\":\"the server is busy\"}}", busyHits);
        URI ok = stub(200, "{\"markdown\":\"x\"}", okHits);
        try (ConvertClient client = new ConvertClient(4, new RetryPolicy(3, 1, 5), delayer, null)) {
            ServerRing ring = new ServerRing(List.of(busy, ok));
            for (int i = 0; i < 4; i++) {
                Result r = call(client, ring);
                assertNull(r.failure());
                assertEquals("{\"markdown\":\"x\"}", new String(r.body(), StandardCharsets.UTF_8));
            }
            assertEquals(4, okHits.get());
            assertEquals(2, busyHits.get(), "every other document starts at the busy server");
        }
    }

    @Test
    void givesUpAfterTheRetriesNamingServerStatusAndReason() throws Exception {
        AtomicInteger hits = new AtomicInteger();
        URI busy = stub(429, "{\"error\":{\"message\":\"the server is busy (64 pages queued)\"}}", hits);
        try (ConvertClient client = new ConvertClient(4, new RetryPolicy(2, 1, 5), delayer, null)) {
            Result r = call(client, new ServerRing(List.of(busy)));
            assertEquals(3, hits.get());
            String message = r.failure().getMessage();
            assertTrue(message.contains("at " + busy) && message.contains("after 3 attempts") && message.contains("HTTP 429 the server is busy (64 pages queued)"), message);
            assertEquals(429, r.failure().status());
        }
    }

    @Test
    void doesNotRetryADocumentTheServerRefused() throws Exception {
        AtomicInteger hits = new AtomicInteger();
        URI refusing = stub(422, "{\"error\":{\"message\":\"upload:docs/1: not a PDF\"}}", hits);
        try (ConvertClient client = new ConvertClient(4, new RetryPolicy(3, 1, 5), delayer, null)) {
            Result r = call(client, new ServerRing(List.of(refusing)));
            assertEquals(1, hits.get());
            assertTrue(r.failure().getMessage().endsWith("HTTP 422 upload:docs/1: not a PDF"), r.failure().getMessage());
        }
    }

    @Test
    void movesOnFromADeadServer() throws Exception {
        AtomicInteger hits = new AtomicInteger();
        URI ok = stub(200, "{}", hits);
        URI dead = URI.create("http://127.0.0.1:9");
        try (ConvertClient client = new ConvertClient(4, new RetryPolicy(1, 1, 5), delayer, null)) {
            ServerRing ring = new ServerRing(List.of(dead, ok));
            for (int i = 0; i < 6; i++) assertNull(call(client, ring).failure());
            assertEquals(6, hits.get());
        }
    }
}
