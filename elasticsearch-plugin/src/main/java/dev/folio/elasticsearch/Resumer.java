package dev.folio.elasticsearch;

import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.elasticsearch.common.util.concurrent.ThreadContext;
import org.elasticsearch.ingest.IngestDocument;

/**
 * Hands a processor's result back to Elasticsearch. The HTTP answer completes on a JDK pool
 * thread; the rest of the pipeline must run on Elasticsearch's generic pool with the thread
 * context (headers, security user) of the request that started it.
 */
interface Resumer {
    /** Called on the ingest thread; the returned handler may be called from any thread. */
    BiConsumer<IngestDocument, Exception> wrap(BiConsumer<IngestDocument, Exception> handler);

    /** Runs the handler where it is called: for unit tests. */
    Resumer DIRECT = handler -> handler;

    static Resumer of(ThreadContext threadContext, Consumer<Runnable> genericExecutor) {
        return handler -> {
            Supplier<ThreadContext.StoredContext> restore = threadContext.newRestorableContext(false);
            return (document, error) -> genericExecutor.accept(() -> {
                try (ThreadContext.StoredContext ignored = restore.get()) {
                    handler.accept(document, error);
                }
            });
        };
    }
}
