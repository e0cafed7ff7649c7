package dev.folio.elasticsearch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.elasticsearch.ElasticsearchParseException;
import org.elasticsearch.core.TimeValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class FolioProcessorFactoryTest {
    @BeforeAll
    static void logging() {
        EsLogging.init();
    }

    private final ConvertClient client = new ConvertClient(4, new RetryPolicy(0, 0, 0), (ms, task) -> task.run(), null);
    private final FolioProcessorFactory factory = new FolioProcessorFactory(client, List.of("http://node-default:8000"), TimeValue.timeValueSeconds(120), Resumer.DIRECT);

    @AfterEach
    void close() {
        client.close();
    }

    private FolioProcessor create(Map<String, Object> options) {
        return factory.create(Map.of(), "tag", null, new HashMap<>(options), null);
    }

    private String rejected(Map<String, Object> options) {
        return assertThrows(ElasticsearchParseException.class, () -> create(options)).getMessage();
    }

    @Test
    void fillsInTheDefaults() {
        FolioProcessor.Options o = create(Map.of("field", "data")).options();
        assertEquals("folio", o.targetField());
        assertEquals(List.of(URI.create("http://node-default:8000")), o.ring().servers());
        assertEquals("auto", o.engine());
        assertTrue(o.chunks());
        assertFalse(o.embed());
        assertTrue(o.removeBinary());
        assertFalse(o.ignoreMissing());
        assertEquals(Duration.ofSeconds(120), o.timeout());
        assertEquals(FolioProcessorFactory.DEFAULT_MAX_BYTES, o.maxBytes());
        assertEquals(FolioProcessor.PROPERTIES, o.properties());
    }

    @Test
    void readsEveryOption() {
        Map<String, Object> options = new HashMap<>();
        options.put("field", "blob");
        options.put("target_field", "doc");
        options.put("server", List.of("http://a:1", "https://b:2"));
        options.put("engine", "paddle");
        options.put("embed", true);
        options.put("remove_binary", false);
        options.put("ignore_missing", true);
        options.put("timeout", "5s");
        options.put("max_bytes", "2mb");
        options.put("properties", List.of("markdown", "chunks"));
        FolioProcessor.Options o = create(options).options();
        assertEquals("doc", o.targetField());
        assertEquals(2, o.ring().servers().size());
        assertEquals("paddle", o.engine());
        assertTrue(o.embed());
        assertFalse(o.removeBinary());
        assertTrue(o.ignoreMissing());
        assertEquals(Duration.ofSeconds(5), o.timeout());
        assertEquals(2L * 1024 * 1024, o.maxBytes());
        assertEquals(List.of("markdown", "chunks"), o.properties());
        assertEquals(1234, create(Map.of("field", "d", "max_bytes", 1234)).options().maxBytes());
        assertEquals(1, create(Map.of("field", "d", "server", "http://one:8000")).options().ring().servers().size());
    }

    @Test
    void namesTheWrongOption() {
        assertTrue(rejected(Map.of()).contains("[field] required property is missing"));
        assertTrue(rejected(Map.of("field", "d", "engine", "tesseract")).contains("[engine] must be one of"));
        assertTrue(rejected(Map.of("field", "d", "chunks", "maybe")).contains("[chunks]"));
        assertTrue(rejected(Map.of("field", "d", "timeout", "soon")).contains("[timeout]"));
        assertTrue(rejected(Map.of("field", "d", "max_bytes", "lots")).contains("[max_bytes]"));
        assertTrue(rejected(Map.of("field", "d", "max_bytes", 0)).contains("[max_bytes]"));
        assertTrue(rejected(Map.of("field", "d", "server", "ftp://x")).contains("[server] [ftp://x] is not a valid folio serve URL"));
        assertTrue(rejected(Map.of("field", "d", "properties", List.of("markdown", "colour"))).contains("[properties] [colour] is not one of"));
        assertTrue(rejected(Map.of("field", "d", "embed", true, "chunks", false)).contains("[embed] needs chunks"));
    }

    @Test
    void refusesAnApiKeyInThePipeline() {
        assertTrue(rejected(Map.of("field", "d", "api_key", "secret")).contains("[api_key] is a secure setting"));
    }

    @Test
    void needsAServerFromThePipelineOrTheNode() {
        FolioProcessorFactory bare = new FolioProcessorFactory(client, List.of(), TimeValue.timeValueSeconds(1), Resumer.DIRECT);
        ElasticsearchParseException e = assertThrows(ElasticsearchParseException.class, () -> bare.create(Map.of(), null, null, new HashMap<>(Map.of("field", "d")), null));
        assertTrue(e.getMessage().contains("folio.servers"), e.getMessage());
    }
}
