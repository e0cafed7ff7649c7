/**
 * Pull a stream a little ahead of its consumer, so the waits of getting the next item (reading a
 * file, asking the sink whether a document is unchanged: a round trip to Elasticsearch) overlap
 * with the work on the current one instead of adding to it.
 */
import { ConfigurationError } from '../../core/errors.ts';

/**
 * The items of `source` in order, with up to `count` of them requested before the consumer asks.
 * Errors come out where the failed item would have; ending the iteration early ends `source`.
 *
 * @example
 * for await (const doc of readAhead(sourcesFrom(['docs/']), 1)) await processDocument(doc);
 */
export async function* readAhead<T>(source: AsyncIterable<T>, count: number): AsyncGenerator<T> {
  if (!Number.isInteger(count) || count < 0) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`count\` to be an integer from 0 and up, got \`${String(count)}\` (${typeof count})`);
  }
  const iterator = source[Symbol.asyncIterator]();
  // An async iterator queues `next()` calls and answers them in order.
  const pending: Promise<IteratorResult<T>>[] = [];
  const request = (): void => {
    const next = iterator.next();
    // Awaited in turn below; until then a rejection must not count as unhandled.
    next.catch(() => undefined);
    pending.push(next);
  };
  let done = false;
  try {
    while (true) {
      if (pending.length === 0) request();
      const next = await pending.shift()!;
      if (next.done) {
        done = true;
        return;
      }
      // `count` requests in flight while the consumer works on this item.
      while (pending.length < count) request();
      yield next.value;
    }
  } finally {
    if (!done) await iterator.return?.();
  }
}
