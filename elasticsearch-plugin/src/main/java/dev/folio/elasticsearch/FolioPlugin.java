package dev.folio.elasticsearch;

import java.util.List;
import java.util.Map;
import org.elasticsearch.common.settings.SecureString;
import org.elasticsearch.common.settings.Setting;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.ingest.Processor;
import org.elasticsearch.plugins.IngestPlugin;
import org.elasticsearch.plugins.Plugin;

/**
 * The {@code folio} ingest processor: documents in a field (base64) become Markdown, elements and
 * chunks through folio serve. One HTTP client per node, shared by every pipeline, closed with the
 * node.
 */
public final class FolioPlugin extends Plugin implements IngestPlugin {
    private volatile ConvertClient client;

    @Override
    public List<Setting<?>> getSettings() {
        return FolioSettings.all();
    }

    @Override
    public Map<String, Processor.Factory> getProcessors(Processor.Parameters parameters) {
        Settings settings = parameters.env.settings();
        // The keystore is readable only while the node starts: take the key now.
        String apiKey;
        try (SecureString key = FolioSettings.API_KEY.get(settings)) {
            apiKey = key == null || key.length() == 0 ? null : key.toString();
        }
        RetryPolicy retry = new RetryPolicy(
            FolioSettings.RETRIES.get(settings),
            FolioSettings.RETRY_DELAY.get(settings).millis(),
            Math.max(FolioSettings.RETRY_DELAY.get(settings).millis(), FolioSettings.MAX_RETRY_DELAY.get(settings).millis())
        );
        ConvertClient.Delayer delayer = (delayMs, task) -> parameters.scheduler.apply(delayMs, task);
        client = new ConvertClient(FolioSettings.MAX_IN_FLIGHT.get(settings), retry, delayer, apiKey);
        FolioProcessorFactory.Defaults defaults = new FolioProcessorFactory.Defaults(
            FolioSettings.SERVERS.get(settings),
            FolioSettings.TIMEOUT.get(settings),
            FolioSettings.MAX_WAIT.get(settings),
            FolioSettings.maxOutputBytes(settings)
        );
        FolioProcessorFactory factory = new FolioProcessorFactory(client, defaults, Resumer.of(parameters.threadContext, parameters.genericExecutor));
        return Map.of(FolioProcessor.TYPE, factory, FolioFailedProcessor.TYPE, new FolioFailedProcessor.Factory());
    }

    @Override
    public void close() {
        ConvertClient current = client;
        if (current != null) current.close();
    }
}
