package dev.folio.elasticsearch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.index.VersionType;
import org.elasticsearch.ingest.IngestDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class FolioProcessorTest {
    @BeforeAll
    static void logging() {
        EsLogging.init();
    }

    private final ConvertClient client = new ConvertClient(4, new RetryPolicy(0, 0, 0), (ms, task) -> task.run(), null);
    // Port 9 (discard) on loopback: nothing listens, so a call that gets through fails fast.
    private final FolioProcessorFactory factory = new FolioProcessorFactory(client, List.of("http://127.0.0.1:9"), TimeValue.timeValueSeconds(5), Resumer.DIRECT);

    @AfterEach
    void close() {
        client.close();
    }

    private static IngestDocument document(Map<String, Object> source) {
        return new IngestDocument("docs", "1", 1, null, VersionType.INTERNAL, new HashMap<>(source));
    }

    private FolioProcessor processor(Map<String, Object> options) {
        return factory.create(Map.of(), null, null, new HashMap<>(options), null);
    }

    /** Run the processor and wait for its answer. */
    private static Exception failure(FolioProcessor processor, IngestDocument document) throws InterruptedException {
        AtomicReference<Exception> error = new AtomicReference<>();
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        processor.execute(document, (d, e) -> {
            error.set(e);
            done.countDown();
        });
        assertTrue(done.await(10, java.util.concurrent.TimeUnit.SECONDS), "the processor answered");
        return error.get();
    }

    @Test
    void failsAMissingFieldUnlessToldToIgnoreIt() throws Exception {
        Exception e = failure(processor(Map.of("field", "data")), document(Map.of("title", "x")));
        assertTrue(e.getMessage().contains("field [data] is missing in document [docs/1]"), e.getMessage());
        IngestDocument doc = document(Map.of("title", "x"));
        assertNull(failure(processor(Map.of("field", "data", "ignore_missing", true)), doc));
        assertFalse(doc.hasField("folio"));
    }

    @Test
    void namesBadBytes() throws Exception {
        FolioProcessor p = processor(Map.of("field", "data", "max_bytes", 10));
        assertTrue(failure(p, document(Map.of("data", "@@not base64@@"))).getMessage().contains("is not valid base64"));
        assertTrue(failure(p, document(Map.of("data", ""))).getMessage().contains("is empty (0 bytes)"));
        String big = Base64.getEncoder().encodeToString(new byte[64]);
        assertTrue(failure(p, document(Map.of("data", big))).getMessage().contains("more than max_bytes 10"));
        assertTrue(failure(p, document(Map.of("data", 42))).getMessage().contains("must hold base64 text, got Integer"));
    }

    @Test
    void failsWithTheServerAndCauseWhenNoServerAnswers() throws Exception {
        String data = Base64.getEncoder().encodeToString("%PDF-1.4".getBytes(StandardCharsets.US_ASCII));
        Exception e = failure(processor(Map.of("field", "data")), document(Map.of("data", data)));
        assertTrue(e instanceof ConvertFailure, String.valueOf(e));
        assertTrue(e.getMessage().contains("folio could not convert [docs/1] at http://127.0.0.1:9"), e.getMessage());
        assertTrue(e.getMessage().contains("connection failed"), e.getMessage());
        assertNull(e.getCause(), "the message stands alone: on_failure_message shows the innermost cause");
    }

    @Test
    void writesTheChosenPropertiesAndDropsTheBinary() {
        FolioProcessor p = processor(Map.of("field", "data", "properties", List.of("markdown", "chunks")));
        IngestDocument doc = document(Map.of("data", "JVBERi0=", "title", "t"));
        String body = "{\"markdown\":\"# Hi\",\"chunks\":[{\"text\":\"Hi\",\"pages\":[1]}],\"elements\":[],\"mime\":\"application/pdf\"}";
        p.write(doc, body.getBytes(StandardCharsets.UTF_8), "docs/1");
        @SuppressWarnings("unchecked")
        Map<String, Object> folio = doc.getFieldValue("folio", Map.class);
        assertEquals(List.of("markdown", "chunks"), new ArrayList<>(folio.keySet()));
        assertEquals("# Hi", folio.get("markdown"));
        assertFalse(doc.hasField("data"), "remove_binary defaults to true");
        assertSame(String.class, doc.getFieldValue("title", Object.class).getClass());

        IngestDocument kept = document(Map.of("data", "JVBERi0="));
        processor(Map.of("field", "data", "remove_binary", false)).write(kept, body.getBytes(StandardCharsets.UTF_8), "docs/1");
        assertTrue(kept.hasField("data"));
    }

    @Test
    void leavesOutRepeatedPartsPastMaxOutputBytesAndFailsWithTheSizesWhenThatIsNotEnough() {
        String text = "x".repeat(3000);
        String body = "{\"markdown\":\"" + text + "\",\"elements\":[{\"kind\":\"paragraph\",\"text\":\"" + text + "\"}],\"chunks\":[{\"text\":\"" + text + "\",\"pages\":[1]}]}";
        IngestDocument fits = document(Map.of("data", "JVBERi0="));
        processor(Map.of("field", "data", "max_output_bytes", 20_000)).write(fits, body.getBytes(StandardCharsets.UTF_8), "docs/1");
        @SuppressWarnings("unchecked")
        Map<String, Object> all = fits.getFieldValue("folio", Map.class);
        assertFalse(all.containsKey("omitted"));
        assertTrue(all.containsKey("elements"));

        IngestDocument smaller = document(Map.of("data", "JVBERi0="));
        processor(Map.of("field", "data", "max_output_bytes", 5000)).write(smaller, body.getBytes(StandardCharsets.UTF_8), "docs/1");
        @SuppressWarnings("unchecked")
        Map<String, Object> some = smaller.getFieldValue("folio", Map.class);
        assertEquals(List.of("elements", "markdown"), some.get("omitted"));
        assertTrue(some.containsKey("chunks"));

        IngestDocument tooLarge = document(Map.of("data", "JVBERi0="));
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(
            FolioProcessor.OutputTooLarge.class,
            () -> processor(Map.of("field", "data", "max_output_bytes", 1000)).write(tooLarge, body.getBytes(StandardCharsets.UTF_8), "docs/1")
        );
        assertTrue(e.getMessage().contains("the conversion of [docs/1] would write about 9") && e.getMessage().contains("more than max_output_bytes 1000"), e.getMessage());
        assertTrue(tooLarge.hasField("data"), "nothing written");
    }

    @Test
    @SuppressWarnings("unchecked")
    void keepsAttachmentsWithTheChosenPropertiesAndCountsThemTowardMaxOutputBytes() {
        String text = "y".repeat(3000);
        String attachment = "{\"doc_id\":\"a1\",\"parent_id\":\"m\",\"depth\":1,\"name\":\"report.pdf\",\"source\":\"upload:m.eml#attachment=report.pdf\",\"ok\":true,"
            + "\"mime\":\"application/pdf\",\"markdown\":\"" + text + "\",\"elements\":[{\"kind\":\"paragraph\",\"text\":\"" + text + "\"}],"
            + "\"chunks\":[{\"text\":\"" + text + "\",\"pages\":[1],\"parent_id\":\"m\"}]}";
        String body = "{\"markdown\":\"# Mail\",\"chunks\":[{\"text\":\"Mail\",\"pages\":[1]}],\"elements\":[],\"attachments\":[" + attachment + "]}";

        IngestDocument chosen = document(Map.of("data", "JVBERi0="));
        processor(Map.of("field", "data", "properties", List.of("markdown", "attachments"))).write(chosen, body.getBytes(StandardCharsets.UTF_8), "docs/1");
        Map<String, Object> folio = chosen.getFieldValue("folio", Map.class);
        assertEquals(List.of("markdown", "attachments"), new ArrayList<>(folio.keySet()));
        Map<String, Object> kept = ((List<Map<String, Object>>) folio.get("attachments")).get(0);
        assertEquals(List.of("doc_id", "parent_id", "depth", "name", "source", "ok", "markdown"), new ArrayList<>(kept.keySet()), "its identity and the chosen properties");

        IngestDocument without = document(Map.of("data", "JVBERi0="));
        processor(Map.of("field", "data", "properties", List.of("markdown", "chunks"))).write(without, body.getBytes(StandardCharsets.UTF_8), "docs/1");
        assertFalse(((Map<String, Object>) without.getFieldValue("folio", Map.class)).containsKey("attachments"));

        // The message alone is small: only its attachment's elements and Markdown push it past the bound.
        IngestDocument smaller = document(Map.of("data", "JVBERi0="));
        processor(Map.of("field", "data", "max_output_bytes", 5000)).write(smaller, body.getBytes(StandardCharsets.UTF_8), "docs/1");
        Map<String, Object> some = smaller.getFieldValue("folio", Map.class);
        assertEquals(List.of("elements", "markdown"), some.get("omitted"));
        Map<String, Object> left = ((List<Map<String, Object>>) some.get("attachments")).get(0);
        assertFalse(left.containsKey("elements") || left.containsKey("markdown"));
        assertTrue(left.containsKey("chunks"), "the chunks hold the attachment's text");

        Exception e = org.junit.jupiter.api.Assertions.assertThrows(
            FolioProcessor.OutputTooLarge.class,
            () -> processor(Map.of("field", "data", "max_output_bytes", 2000)).write(document(Map.of("data", "JVBERi0=")), body.getBytes(StandardCharsets.UTF_8), "docs/1")
        );
        assertTrue(e.getMessage().contains("more than max_output_bytes 2000"), e.getMessage());
    }
}
