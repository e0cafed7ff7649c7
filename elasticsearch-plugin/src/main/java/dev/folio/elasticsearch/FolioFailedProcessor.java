package dev.folio.elasticsearch;

import static org.elasticsearch.ingest.ConfigurationUtils.readOptionalStringProperty;
import static org.elasticsearch.ingest.ConfigurationUtils.readStringProperty;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.elasticsearch.cluster.metadata.ProjectId;
import org.elasticsearch.ingest.AbstractProcessor;
import org.elasticsearch.ingest.IngestDocument;
import org.elasticsearch.ingest.Processor;

/**
 * {@code folio_failed}, for {@code on_failure}: sends the document to a dead-letter index with
 * the reason it failed ({@code _ingest.on_failure_message} and friends under {@code folio_failure},
 * with the index and pipeline it was meant for). The document keeps its binary by default, so
 * {@code folio replay} can send it through the pipeline again once the cause is gone (a busy or
 * dead server); {@code remove_field} drops it (then {@code folio_failure.removed} says so, and only
 * a reference the client stored beside it, e.g. a URL or path, is left to replay from). On a full
 * distribution the same takes {@code set} and {@code remove}; this works where only the plugin's
 * processors exist, and in one step.
 */
public final class FolioFailedProcessor extends AbstractProcessor {
    public static final String TYPE = "folio_failed";

    private final String index;
    private final String removeField;

    FolioFailedProcessor(String tag, String description, String index, String removeField) {
        super(tag, description);
        this.index = index;
        this.removeField = removeField;
    }

    @Override
    public String getType() {
        return TYPE;
    }

    @Override
    public IngestDocument execute(IngestDocument document) {
        Map<String, Object> ingest = document.getIngestMetadata();
        Map<String, Object> failure = new LinkedHashMap<>();
        failure.put("message", String.valueOf(ingest.get("on_failure_message")));
        Object processorType = ingest.get("on_failure_processor_type");
        if (processorType != null) failure.put("processor_type", processorType);
        Object processorTag = ingest.get("on_failure_processor_tag");
        if (processorTag != null) failure.put("processor_tag", processorTag);
        Object pipeline = ingest.get("on_failure_pipeline");
        if (pipeline != null) failure.put("pipeline", pipeline);
        failure.put("index", document.getMetadata().getIndex());
        failure.put("at", Instant.now().toString());
        if (removeField != null && document.hasField(removeField)) {
            document.removeField(removeField);
            failure.put("removed", removeField);
        }
        document.setFieldValue("folio_failure", failure);
        document.getMetadata().setIndex(index);
        return document;
    }

    static final class Factory implements Processor.Factory {
        @Override
        public FolioFailedProcessor create(Map<String, Processor.Factory> registry, String tag, String description, Map<String, Object> config, ProjectId projectId) {
            String index = readStringProperty(TYPE, tag, config, "index");
            String removeField = readOptionalStringProperty(TYPE, tag, config, "remove_field");
            return new FolioFailedProcessor(tag, description, index, removeField);
        }
    }
}
