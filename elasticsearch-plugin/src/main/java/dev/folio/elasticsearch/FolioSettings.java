package dev.folio.elasticsearch;

import java.util.List;
import java.util.function.Function;
import org.elasticsearch.common.settings.SecureSetting;
import org.elasticsearch.common.settings.SecureString;
import org.elasticsearch.common.settings.Setting;
import org.elasticsearch.core.TimeValue;

/** The node settings of the plugin ({@code elasticsearch.yml}, and the keystore for the key). */
final class FolioSettings {
    private FolioSettings() {}

    /** The folio serve URLs a processor uses when its pipeline names none. @default none */
    static final Setting<List<String>> SERVERS = Setting.listSetting("folio.servers", List.of(), Function.identity(), Setting.Property.NodeScope);

    /** The bearer token for folio serve: a secure setting (keystore), never in a pipeline body. */
    static final Setting<SecureString> API_KEY = SecureSetting.secureString("folio.api_key", null);

    /** Calls to folio serve open at once on this node; the rest wait in a queue. @default 16 */
    static final Setting<Integer> MAX_IN_FLIGHT = Setting.intSetting("folio.max_in_flight", 16, 1, Setting.Property.NodeScope);

    /** Extra attempts after a transient fault (429, 503, timeout, connection). @default 3 */
    static final Setting<Integer> RETRIES = Setting.intSetting("folio.retries", 3, 0, Setting.Property.NodeScope);

    /** First back-off, doubled each retry. @default 250ms */
    static final Setting<TimeValue> RETRY_DELAY = Setting.timeSetting("folio.retry_delay", TimeValue.timeValueMillis(250), TimeValue.ZERO, Setting.Property.NodeScope);

    /** The longest single back-off, also the cap on a server's Retry-After. @default 10s */
    static final Setting<TimeValue> MAX_RETRY_DELAY = Setting.timeSetting("folio.max_retry_delay", TimeValue.timeValueSeconds(10), TimeValue.ZERO, Setting.Property.NodeScope);

    /** A processor's {@code timeout} when its pipeline gives none (per attempt). @default 120s */
    static final Setting<TimeValue> TIMEOUT = Setting.timeSetting("folio.timeout", TimeValue.timeValueSeconds(120), TimeValue.timeValueMillis(1), Setting.Property.NodeScope);

    static List<Setting<?>> all() {
        return List.of(SERVERS, API_KEY, MAX_IN_FLIGHT, RETRIES, RETRY_DELAY, MAX_RETRY_DELAY, TIMEOUT);
    }
}
