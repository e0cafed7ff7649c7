package dev.folio.elasticsearch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerRingTest {
    private final URI a = URI.create("http://a:8000");
    private final URI b = URI.create("http://b:8000");
    private final URI c = URI.create("http://c:8000");

    @Test
    void spreadsNewDocumentsEvenly() {
        ServerRing ring = new ServerRing(List.of(a, b, c));
        Map<URI, Integer> counts = new HashMap<>();
        for (int i = 0; i < 300; i++) counts.merge(ring.server(ring.start(), 1), 1, Integer::sum);
        assertEquals(Map.of(a, 100, b, 100, c, 100), counts);
    }

    @Test
    void movesARetryToTheNextServer() {
        ServerRing ring = new ServerRing(List.of(a, b));
        int start = ring.start();
        assertNotEquals(ring.server(start, 1), ring.server(start, 2));
        assertEquals(ring.server(start, 1), ring.server(start, 3));
    }

    @Test
    void needsAServer() {
        assertThrows(IllegalArgumentException.class, () -> new ServerRing(List.of()));
    }
}
