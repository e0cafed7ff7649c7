package dev.folio.elasticsearch;

import static org.elasticsearch.ingest.ConfigurationUtils.newConfigurationException;
import static org.elasticsearch.ingest.ConfigurationUtils.readBooleanProperty;
import static org.elasticsearch.ingest.ConfigurationUtils.readOptionalList;
import static org.elasticsearch.ingest.ConfigurationUtils.readOptionalListOrString;
import static org.elasticsearch.ingest.ConfigurationUtils.readOptionalStringOrIntProperty;
import static org.elasticsearch.ingest.ConfigurationUtils.readOptionalStringProperty;
import static org.elasticsearch.ingest.ConfigurationUtils.readStringProperty;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.elasticsearch.cluster.metadata.ProjectId;
import org.elasticsearch.common.unit.ByteSizeValue;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.ingest.Processor;

/**
 * Parses a {@code folio} processor's options. A wrong one is an HTTP 400 {@code parse_exception}
 * naming the option (Elasticsearch rejects unknown options itself).
 */
final class FolioProcessorFactory implements Processor.Factory {
    static final List<String> ENGINES = List.of("auto", "text", "paddle", "onnx");
    /** Twice folio serve's default body limit would be refused there anyway; 50 MiB matches it. */
    static final long DEFAULT_MAX_BYTES = 50L * 1024 * 1024;

    /** The node's defaults for options a pipeline may leave out. */
    record Defaults(List<String> servers, TimeValue timeout, TimeValue maxWait, long maxOutputBytes) {
        Defaults {
            servers = List.copyOf(servers);
        }
    }

    private final ConvertClient client;
    private final Defaults defaults;
    private final Resumer resumer;

    FolioProcessorFactory(ConvertClient client, Defaults defaults, Resumer resumer) {
        this.client = client;
        this.defaults = defaults;
        this.resumer = resumer;
    }

    /** For tests: the plugin's defaults, no servers configured. */
    FolioProcessorFactory(ConvertClient client, List<String> defaultServers, TimeValue defaultTimeout, Resumer resumer) {
        this(client, new Defaults(defaultServers, defaultTimeout, TimeValue.timeValueMinutes(5), 20L * 1024 * 1024), resumer);
    }

    @Override
    public FolioProcessor create(Map<String, Processor.Factory> registry, String tag, String description, Map<String, Object> config, ProjectId projectId) {
        String type = FolioProcessor.TYPE;
        if (config.containsKey("api_key")) {
            throw newConfigurationException(type, tag, "api_key", "is a secure setting: store it in each node's keystore as [folio.api_key] (bin/elasticsearch-keystore add folio.api_key), never in a pipeline");
        }
        String field = readStringProperty(type, tag, config, "field");
        String targetField = readStringProperty(type, tag, config, "target_field", "folio");
        List<String> servers = readOptionalListOrString(type, tag, config, "server");
        String engine = readStringProperty(type, tag, config, "engine", "auto");
        boolean chunks = readBooleanProperty(type, tag, config, "chunks", true);
        boolean embed = readBooleanProperty(type, tag, config, "embed", false);
        boolean removeBinary = readBooleanProperty(type, tag, config, "remove_binary", true);
        boolean ignoreMissing = readBooleanProperty(type, tag, config, "ignore_missing", false);
        String timeout = readOptionalStringProperty(type, tag, config, "timeout");
        String maxBytes = readOptionalStringOrIntProperty(type, tag, config, "max_bytes");
        String maxOutputBytes = readOptionalStringOrIntProperty(type, tag, config, "max_output_bytes");
        String maxWait = readOptionalStringProperty(type, tag, config, "max_wait");
        List<String> properties = readOptionalList(type, tag, config, "properties");

        if (!ENGINES.contains(engine)) throw newConfigurationException(type, tag, "engine", "must be one of " + ENGINES + ", got [" + engine + "]");
        if (embed && !chunks) throw newConfigurationException(type, tag, "embed", "needs chunks: true (vectors are put on chunks)");
        ServerRing ring = new ServerRing(parseServers(tag, servers == null || servers.isEmpty() ? defaults.servers() : servers));
        Duration perAttempt = Duration.ofMillis(parseTime(tag, "timeout", timeout, defaults.timeout(), false).millis());
        Duration totalWait = Duration.ofMillis(parseTime(tag, "max_wait", maxWait, defaults.maxWait(), true).millis());
        List<String> chosen = properties == null ? FolioProcessor.PROPERTIES : checkProperties(tag, properties);
        FolioProcessor.Options options = new FolioProcessor.Options(
            field, targetField, ring, engine, chunks, embed, removeBinary, ignoreMissing, perAttempt,
            parseBytes(tag, "max_bytes", maxBytes, DEFAULT_MAX_BYTES), chosen, totalWait,
            parseBytes(tag, "max_output_bytes", maxOutputBytes, defaults.maxOutputBytes())
        );
        return new FolioProcessor(tag, description, options, client, resumer);
    }

    private static List<URI> parseServers(String tag, List<String> servers) {
        if (servers.isEmpty()) {
            throw newConfigurationException(FolioProcessor.TYPE, tag, "server", "no folio serve URL: set [server] on the processor or [folio.servers] in elasticsearch.yml");
        }
        List<URI> uris = new ArrayList<>();
        for (String server : servers) {
            try {
                URI uri = new URI(server);
                if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) throw new URISyntaxException(server, "not an http(s) URL with a host");
                uris.add(uri);
            } catch (URISyntaxException e) {
                throw newConfigurationException(FolioProcessor.TYPE, tag, "server", "[" + server + "] is not a valid folio serve URL (" + e.getReason() + ")");
            }
        }
        return uris;
    }

    private static TimeValue parseTime(String tag, String option, String given, TimeValue fallback, boolean zeroAllowed) {
        if (given == null) return fallback;
        try {
            TimeValue value = TimeValue.parseTimeValue(given, option);
            if (value.millis() < 0 || (!zeroAllowed && value.millis() == 0)) throw new IllegalArgumentException("must be positive");
            return value;
        } catch (IllegalArgumentException e) {
            throw newConfigurationException(FolioProcessor.TYPE, tag, option, "[" + given + "] is not a " + (zeroAllowed ? "" : "positive ") + "time value such as 30s (" + e.getMessage() + ")");
        }
    }

    private static long parseBytes(String tag, String option, String given, long fallback) {
        if (given == null) return fallback;
        try {
            long value = given.chars().allMatch(Character::isDigit) ? Long.parseLong(given) : ByteSizeValue.parseBytesSizeValue(given, option).getBytes();
            if (value <= 0) throw new IllegalArgumentException("must be positive");
            return value;
        } catch (RuntimeException e) {
            throw newConfigurationException(FolioProcessor.TYPE, tag, option, "[" + given + "] is not a positive byte size such as 20mb (" + e.getMessage() + ")");
        }
    }

    private static List<String> checkProperties(String tag, List<String> properties) {
        for (String property : properties) {
            if (!FolioProcessor.PROPERTIES.contains(property)) {
                throw newConfigurationException(FolioProcessor.TYPE, tag, "properties", "[" + property + "] is not one of " + FolioProcessor.PROPERTIES);
            }
        }
        return List.copyOf(properties);
    }
}
