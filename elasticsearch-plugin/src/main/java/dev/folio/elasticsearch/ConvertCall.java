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
 */
record ConvertCall(byte[] bytes, String name, String engine, boolean chunks, boolean embed, Duration timeout) {}
