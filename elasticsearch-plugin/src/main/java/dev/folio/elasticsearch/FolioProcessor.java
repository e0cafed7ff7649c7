package dev.folio.elasticsearch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.elasticsearch.common.xcontent.XContentHelper;
import org.elasticsearch.ingest.AbstractProcessor;
import org.elasticsearch.ingest.IngestDocument;
import org.elasticsearch.xcontent.XContentType;

/**
 * The {@code folio} processor: reads a document's bytes from {@code field}, has folio serve
 * convert them, and writes the chosen {@code properties} of the answer (Markdown, elements,
 * chunks with vectors, page routes, failures, and the same for each e-mail attachment under
 * {@code attachments}) under {@code target_field}. Asynchronous: no ingest
 * thread waits for OCR. A bad field or a failed conversion fails the document with a message
 * naming it, so {@code on_failure} can route it to a dead-letter index.
 */
public final class FolioProcessor extends AbstractProcessor {
    public static final String TYPE = "folio";

    /** What a processor may write, in the order it writes them. */
    static final List<String> PROPERTIES = List.of("title", "markdown", "elements", "chunks", "pages", "failures", "mime", "content_hash", "attachments");

    /** What names an attachment, kept whatever the properties: its id, its message, its place and its file name. */
    static final List<String> ATTACHMENT_IDENTITY = List.of("doc_id", "parent_id", "depth", "name", "source", "ok");

    /**
     * The parsed options of one processor.
     *
     * @param properties a subset of {@link #PROPERTIES}
     */
    record Options(
        String field, String targetField, ServerRing ring, String engine, boolean chunks, boolean embed,
        boolean removeBinary, boolean ignoreMissing, Duration timeout, long maxBytes, List<String> properties,
        Duration maxWait, long maxOutputBytes
    ) {}

    private final Options options;
    private final ConvertClient client;
    private final Resumer resumer;

    FolioProcessor(String tag, String description, Options options, ConvertClient client, Resumer resumer) {
        super(tag, description);
        this.options = options;
        this.client = client;
        this.resumer = resumer;
    }

    Options options() {
        return options;
    }

    @Override
    public String getType() {
        return TYPE;
    }

    @Override
    public boolean isAsync() {
        return true;
    }

    @Override
    public void execute(IngestDocument document, BiConsumer<IngestDocument, Exception> handler) {
        String name = documentName(document);
        byte[] bytes;
        try {
            Object value = document.getFieldValue(options.field(), Object.class, true);
            if (value == null) {
                if (options.ignoreMissing()) {
                    handler.accept(document, null);
                    return;
                }
                throw new IllegalArgumentException("folio: field [" + options.field() + "] is missing in document [" + name + "] (set ignore_missing to skip such documents)");
            }
            bytes = decode(value, name);
        } catch (IllegalArgumentException e) {
            handler.accept(null, e);
            return;
        }
        BiConsumer<IngestDocument, Exception> resume = resumer.wrap(handler);
        ConvertCall call = new ConvertCall(bytes, name, options.engine(), options.chunks(), options.embed(), options.timeout(), options.maxWait());
        client.convert(options.ring(), call, (body, failure) -> {
            if (failure != null) {
                resume.accept(null, failure);
                return;
            }
            try {
                write(document, body, name);
                resume.accept(document, null);
            } catch (OutputTooLarge e) {
                resume.accept(null, e);
            } catch (RuntimeException e) {
                resume.accept(null, new IllegalStateException("folio: could not store the conversion of [" + name + "]: " + e.getMessage()));
            }
        });
    }

    /** The bytes in the field: base64 text (as JSON carries them) or raw bytes (CBOR, SMILE). */
    byte[] decode(Object value, String name) {
        String field = options.field();
        byte[] bytes;
        if (value instanceof byte[] raw) {
            bytes = raw;
        } else if (value instanceof String text) {
            String cleaned = text.strip();
            // Check the size before decoding: a huge field must not cost its decoded copy first.
            if ((long) cleaned.length() / 4 * 3 > options.maxBytes() + 3) throw tooLarge(name, (long) cleaned.length() / 4 * 3);
            try {
                bytes = Base64.getDecoder().decode(cleaned.replaceAll("\\s+", ""));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("folio: field [" + field + "] of document [" + name + "] is not valid base64 (" + e.getMessage() + ")");
            }
        } else {
            throw new IllegalArgumentException("folio: field [" + field + "] of document [" + name + "] must hold base64 text, got " + value.getClass().getSimpleName());
        }
        if (bytes.length == 0) throw new IllegalArgumentException("folio: field [" + field + "] of document [" + name + "] is empty (0 bytes)");
        if (bytes.length > options.maxBytes()) throw tooLarge(name, bytes.length);
        return bytes;
    }

    private IllegalArgumentException tooLarge(String name, long size) {
        return new IllegalArgumentException("folio: field [" + options.field() + "] of document [" + name + "] holds about " + size + " bytes, more than max_bytes " + options.maxBytes());
    }

    /** The document's output would pass {@code max_output_bytes} even with the repeatable parts left out. */
    static final class OutputTooLarge extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        OutputTooLarge(String message) {
            super(message);
        }
    }

    /**
     * Store the chosen parts of folio serve's answer; drop the binary when asked. Past
     * {@code max_output_bytes} the repeatable parts are left out (named in {@code omitted}),
     * or the document fails with the sizes (see {@link OutputSize}).
     */
    void write(IngestDocument document, byte[] body, String name) {
        Map<String, Object> answer = XContentHelper.convertToMap(XContentType.JSON.xContent(), body, 0, body.length, true);
        Map<String, Object> target = new LinkedHashMap<>();
        for (String property : options.properties()) {
            Object value = property.equals("attachments") ? attachments(answer.get(property)) : answer.get(property);
            if (value != null) target.put(property, value);
        }
        boolean dropBinary = options.removeBinary() && !options.field().equals(options.targetField());
        // The rest of the document stays as it is: the binary when kept, and the other fields.
        long other = OutputSize.estimate(document.getSource()) - (dropBinary ? OutputSize.estimate(document.getFieldValue(options.field(), Object.class, true)) : 0);
        long before = OutputSize.estimate(target) + other;
        OutputSize.Fit fit = OutputSize.fit(target, other, options.maxOutputBytes());
        if (fit == null) {
            throw new OutputTooLarge("folio: the conversion of [" + name + "] would write about " + before + " bytes, more than max_output_bytes "
                + options.maxOutputBytes() + " even without " + OutputSize.DROP_ORDER
                + " (Elasticsearch refuses documents past its indexing pressure limit); index it with `folio ingest`, which writes one document per chunk, or choose fewer properties");
        }
        if (!fit.omitted().isEmpty()) target.put("omitted", fit.omitted());
        document.setFieldValue(options.targetField(), target);
        if (dropBinary) document.removeField(options.field());
    }

    /**
     * An e-mail's attachments (folio serve's flat list, each naming its parent) with the same
     * chosen properties as the message, so a search on an attachment's text finds the message;
     * null when there are none.
     */
    private Object attachments(Object value) {
        if (!(value instanceof List<?> list) || list.isEmpty()) return null;
        List<Map<String, Object>> kept = new ArrayList<>(list.size());
        for (Object item : list) {
            if (!(item instanceof Map<?, ?> attachment)) continue;
            Map<String, Object> one = new LinkedHashMap<>();
            for (String key : ATTACHMENT_IDENTITY) {
                Object field = attachment.get(key);
                if (field != null) one.put(key, field);
            }
            for (String property : options.properties()) {
                Object field = property.equals("attachments") ? null : attachment.get(property);
                if (field != null) one.put(property, field);
            }
            kept.add(one);
        }
        return kept.isEmpty() ? null : kept;
    }

    private static String documentName(IngestDocument document) {
        String index = document.getMetadata().getIndex();
        String id = document.getMetadata().getId();
        return (index == null ? "_" : index) + "/" + (id == null ? "_" : id);
    }
}
