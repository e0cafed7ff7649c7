package dev.folio.elasticsearch;

import java.time.Duration;

/**
 * One document to convert: its bytes and the per-processor options that travel with it.
 *
 * @param bytes    the document
 * @param name     names the document at the server (in its errors and chunk sources), e.g. {@code index/id}
 * @param engine   {@code auto}, {@code text} or the server's OCR engine
 * @param chunks   ask for chunks
 * @param embed    ask for vectors on chunks
 * @param timeout  per attempt
 * @param maxWait  the total time the document may spend on retries before it fails
 */
record ConvertCall(byte[] bytes, String name, String engine, boolean chunks, boolean embed, Duration timeout, Duration maxWait) {
    /** The node's default total wait. */
    static final Duration DEFAULT_MAX_WAIT = Duration.ofMinutes(5);

    ConvertCall(byte[] bytes, String name, String engine, boolean chunks, boolean embed, Duration timeout) {
        this(bytes, name, engine, chunks, embed, timeout, DEFAULT_MAX_WAIT);
    }
}
