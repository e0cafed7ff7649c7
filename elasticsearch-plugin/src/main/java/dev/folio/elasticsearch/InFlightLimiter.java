package dev.folio.elasticsearch;

import java.util.ArrayDeque;
import java.util.Queue;

/**
 * Bounds the calls to folio serve this node has open at once. Elasticsearch hands an async
 * processor every document of a bulk request at once (a probe saw ~34 calls in flight for a bulk
 * of 200), and nothing else limits them. A task over the bound waits in a queue, never on a
 * thread: ingest threads must not block.
 */
final class InFlightLimiter {
    private final int limit;
    private final Queue<Runnable> waiting = new ArrayDeque<>();
    private int running;

    InFlightLimiter(int limit) {
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1, got " + limit);
        this.limit = limit;
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

    /** Free the caller's slot, handing it straight to the next waiting task. */
    void release() {
        Runnable next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                running--;
                return;
            }
        }
        next.run();
    }

    synchronized int running() {
        return running;
    }

    synchronized int waiting() {
        return waiting.size();
    }
}
