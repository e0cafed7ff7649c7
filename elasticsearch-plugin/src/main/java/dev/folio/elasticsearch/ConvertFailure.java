package dev.folio.elasticsearch;

/**
 * Why a document could not be converted, in a message that stands on its own: it names the
 * document, the server, the HTTP status (or the connection fault) and the server's reason.
 * Elasticsearch's {@code _ingest.on_failure_message} is the message of the innermost cause, and a
 * JDK connection error carries none, so this exception is raised without a cause.
 */
public final class ConvertFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    ConvertFailure(String message, int status) {
        super(message, null, false, false);
        this.status = status;
    }

    /** The HTTP status of the last attempt, or 0 when no answer came (timeout, connection). */
    public int status() {
        return status;
    }
}
