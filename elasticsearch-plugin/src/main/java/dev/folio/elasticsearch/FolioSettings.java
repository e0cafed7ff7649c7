package dev.folio.elasticsearch;

import java.util.List;
import java.util.function.Function;
import org.elasticsearch.common.settings.SecureSetting;
import org.elasticsearch.common.settings.SecureString;
import org.elasticsearch.common.settings.Setting;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.common.unit.ByteSizeValue;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.index.IndexingPressure;

/** The node settings of the plugin ({@code elasticsearch.yml}, and the keystore for the key). */
final class FolioSettings {
    private FolioSettings() {}

    /** The folio serve URLs a processor uses when its pipeline names none. @default none */
    static final Setting<List<String>> SERVERS = Setting.listSetting("folio.servers", List.of(), Function.identity(), Setting.Property.NodeScope);

    /** The bearer token for folio serve: a secure setting (keystore), never in a pipeline body. */
    static final Setting<SecureString> API_KEY = SecureSetting.secureString("folio.api_key", null);

    /** Calls to folio serve open at once on this node; the rest wait in a queue. @default 16 */
    static final Setting<Integer> MAX_IN_FLIGHT = Setting.intSetting("folio.max_in_flight", 16, 1, Setting.Property.NodeScope);

    /**
     * A cap on extra attempts after a transient fault (429, 503, timeout, connection); -1 for
     * none, so that only {@link #MAX_WAIT} bounds them. @default -1
     */
    static final Setting<Integer> RETRIES = Setting.intSetting("folio.retries", RetryPolicy.UNLIMITED, RetryPolicy.UNLIMITED, Setting.Property.NodeScope);

    /**
     * How long a document may keep retrying transient faults (a busy server's 429 included,
     * waiting as its Retry-After says) before it fails for {@code on_failure}; a processor's
     * {@code max_wait} overrides it. @default 5m
     */
    static final Setting<TimeValue> MAX_WAIT = Setting.timeSetting("folio.max_wait", TimeValue.timeValueMinutes(5), TimeValue.ZERO, Setting.Property.NodeScope);

    /** First back-off when the server gave no Retry-After, doubled each retry. @default 250ms */
    static final Setting<TimeValue> RETRY_DELAY = Setting.timeSetting("folio.retry_delay", TimeValue.timeValueMillis(250), TimeValue.ZERO, Setting.Property.NodeScope);

    /** The longest single back-off when the server gave no Retry-After (one it gave is honoured). @default 10s */
    static final Setting<TimeValue> MAX_RETRY_DELAY = Setting.timeSetting("folio.max_retry_delay", TimeValue.timeValueSeconds(10), TimeValue.ZERO, Setting.Property.NodeScope);

    /** A processor's {@code timeout} when its pipeline gives none (per attempt). @default 120s */
    static final Setting<TimeValue> TIMEOUT = Setting.timeSetting("folio.timeout", TimeValue.timeValueSeconds(120), TimeValue.timeValueMillis(1), Setting.Property.NodeScope);

    /**
     * The largest output a processor writes by default ({@code max_output_bytes}): unset, 40% of
     * the smaller of this node's indexing-pressure limits for a primary and for one operation
     * (10% of the heap by default), so one converted document leaves room for the others of its
     * bulk. @default unset
     */
    static final Setting<ByteSizeValue> MAX_OUTPUT_BYTES = Setting.byteSizeSetting("folio.max_output_bytes", ByteSizeValue.MINUS_ONE, Setting.Property.NodeScope);

    static long maxOutputBytes(Settings settings) {
        long configured = MAX_OUTPUT_BYTES.get(settings).getBytes();
        if (configured > 0) return configured;
        long primary = IndexingPressure.MAX_PRIMARY_BYTES.get(settings).getBytes();
        long operation = IndexingPressure.MAX_OPERATION_SIZE.get(settings).getBytes();
        long limit = operation > 0 ? Math.min(primary, operation) : primary;
        return Math.max(1024 * 1024, limit * 2 / 5);
    }

    static List<Setting<?>> all() {
        return List.of(SERVERS, API_KEY, MAX_IN_FLIGHT, RETRIES, MAX_WAIT, RETRY_DELAY, MAX_RETRY_DELAY, TIMEOUT, MAX_OUTPUT_BYTES);
    }
}
