package dev.folio.elasticsearch;

import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The folio serve URLs a processor spreads its requests over: each new document starts at the
 * next server in turn, and each retry of a document moves on to the server after the one that
 * failed, so a dead or busy server costs one attempt, not the document.
 */
final class ServerRing {
    private final List<URI> servers;
    private final AtomicInteger next = new AtomicInteger();

    ServerRing(List<URI> servers) {
        if (servers.isEmpty()) throw new IllegalArgumentException("at least one server is needed");
        this.servers = List.copyOf(servers);
    }

    /** Where a new document's first attempt goes. */
    int start() {
        return Math.floorMod(next.getAndIncrement(), servers.size());
    }

    /** The server for attempt {@code attempt} (1-based) of a document that started at {@code start}. */
    URI server(int start, int attempt) {
        return servers.get(Math.floorMod(start + attempt - 1, servers.size()));
    }

    List<URI> servers() {
        return servers;
    }
}
