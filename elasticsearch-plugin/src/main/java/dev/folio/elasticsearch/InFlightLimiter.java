package dev.folio.elasticsearch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;

/**
 * Bounds the calls to folio serve this node has open at once. Elasticsearch hands an async
 * processor every document of a bulk request at once (a probe saw ~34 calls in flight for a bulk
 * of 200), and nothing else limits them. A task over the bound waits in a queue, never on a
 * thread: ingest threads must not block. The bound may change while running (the servers
 * advertise how many documents they take at once).
 */
final class InFlightLimiter {
    private final Queue<Runnable> waiting = new ArrayDeque<>();
    private int limit;
    private int running;

    InFlightLimiter(int limit) {
        checkLimit(limit);
        this.limit = limit;
    }

    private static void checkLimit(int limit) {
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1, got " + limit);
    }

    /** Run {@code task} now if a slot is free, else once one is; the task must call {@link #release()} when done. */
    void submit(Runnable task) {
        synchronized (this) {
            if (running >= limit) {
                waiting.add(task);
                return;
            }
            running++;
        }
        task.run();
    }

    /** Free the caller's slot, handing it straight to the next waiting task when the bound allows. */
    void release() {
        Runnable next;
        synchronized (this) {
            next = running <= limit ? waiting.poll() : null;
            if (next == null) {
                running--;
                return;
            }
        }
        next.run();
    }

    /** Change the bound; a raised one starts waiting tasks at once, a lowered one lets running calls finish. */
    void setLimit(int newLimit) {
        checkLimit(newLimit);
        List<Runnable> start = new ArrayList<>();
        synchronized (this) {
            limit = newLimit;
            while (running < limit && !waiting.isEmpty()) {
                running++;
                start.add(waiting.poll());
            }
        }
        start.forEach(Runnable::run);
    }

    synchronized int limit() {
        return limit;
    }

    synchronized int running() {
        return running;
    }

    synchronized int waiting() {
        return waiting.size();
    }
}
