package dev.folio.elasticsearch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Keeps a processor's output under {@code max_output_bytes}. Elasticsearch refuses a document
 * larger than its indexing-pressure limit with a 429 that no {@code on_failure} sees (the
 * document lands nowhere, and every client retry repeats the conversion); a 400-page book with
 * vectors writes ~67 MB. So the output is estimated before it is written and, past the bound,
 * properties that other ones repeat are left out (elements, whose text the Markdown and chunks
 * hold; then the Markdown, whose text the chunks hold; each from the message and its
 * attachments alike, which count toward the estimate like the rest), and if that is not enough
 * the document fails here, with a reason {@code on_failure} can record.
 */
final class OutputSize {
    /** Left out in this order when the output is too large. */
    static final List<String> DROP_ORDER = List.of("elements", "markdown", "pages");

    private OutputSize() {}

    /** What was left out, and the estimate of what remains. */
    record Fit(List<String> omitted, long bytes) {}

    /**
     * Drop properties of {@code target} (in {@link #DROP_ORDER}) until its estimate plus
     * {@code otherBytes} fits {@code maxBytes}; returns null when even then it does not.
     */
    static Fit fit(Map<String, Object> target, long otherBytes, long maxBytes) {
        List<String> omitted = new ArrayList<>();
        long bytes = estimate(target) + otherBytes;
        for (String property : DROP_ORDER) {
            if (bytes <= maxBytes) break;
            long removed = remove(target, property);
            // An e-mail's attachments repeat the same properties: they go with the message's.
            if (target.get("attachments") instanceof List<?> attachments) {
                for (Object attachment : attachments) {
                    if (attachment instanceof Map<?, ?> map) removed += remove(map, property);
                }
            }
            if (removed == 0) continue;
            omitted.add(property);
            bytes -= removed;
        }
        return bytes <= maxBytes ? new Fit(List.copyOf(omitted), bytes) : null;
    }

    /** Removes {@code property} from {@code map}; returns the bytes its estimate loses (0 when absent). */
    private static long remove(Map<?, ?> map, String property) {
        Object value = map.remove(property);
        return value == null ? 0 : estimate(value) + property.length() + 4;
    }

    /** Roughly the bytes of {@code value} as JSON source: close enough to stay clear of a limit, cheap to compute. */
    static long estimate(Object value) {
        if (value == null) return 4;
        if (value instanceof String text) return utf8Length(text) + 2;
        if (value instanceof Double || value instanceof Float) return 20;
        if (value instanceof Number) return 11;
        if (value instanceof Boolean) return 5;
        if (value instanceof byte[] bytes) return bytes.length * 4L / 3 + 2;
        if (value instanceof Map<?, ?> map) {
            long total = 2;
            for (Map.Entry<?, ?> entry : map.entrySet()) total += String.valueOf(entry.getKey()).length() + 4 + estimate(entry.getValue());
            return total;
        }
        if (value instanceof List<?> list) {
            long total = 2;
            for (Object item : list) total += estimate(item) + 1;
            return total;
        }
        return String.valueOf(value).length() + 2;
    }

    private static long utf8Length(String text) {
        long length = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            // JSON escapes quotes, backslashes and control characters; non-ASCII takes 2–3 bytes.
            length += c < 0x20 || c == '"' || c == '\\' ? 2 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
        }
        return length;
    }
}
