package dev.folio.elasticsearch;

import org.elasticsearch.common.logging.LogConfigurator;

/** Elasticsearch's exceptions log through its own logging facade, which a node sets up at start; tests outside a node must too. */
final class EsLogging {
    private static boolean done;

    private EsLogging() {}

    static synchronized void init() {
        if (done) return;
        LogConfigurator.configureESLogging();
        done = true;
    }
}
