import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConvertQueue } from '../../server/convert-queue.ts';
import { HttpError } from '../../server/http-error.ts';

/** The 429 `admit` throws, or a failure when it admits. */
function refusal(queue: ConvertQueue, bytes = 1): HttpError {
  try {
    queue.admit(bytes);
  } catch (error) {
    assert.ok(error instanceof HttpError);
    return error;
  }
  assert.fail('admitted');
}

describe('ConvertQueue', () => {
  it('should start documents up to its concurrency, queue the next in order, and start each when a slot frees', async () => {
    const queue = new ConvertQueue({ concurrency: 2, queueLimit: 5 });
    const started: number[] = [];
    const tickets = Array.from({ length: 5 }, (_, i) => {
      const ticket = queue.admit(10);
      void ticket.ready.then(() => started.push(i));
      return ticket;
    });
    await sleep(0);
    assert.deepEqual(started, [0, 1]);
    assert.deepEqual({ running: queue.state.running, queued: queue.state.queued, bytes: queue.state.queued_bytes }, { running: 2, queued: 3, bytes: 30 });
    tickets[1]!.release();
    tickets[1]!.release(); // idempotent: frees one slot only
    await sleep(0);
    assert.deepEqual(started, [0, 1, 2]);
    // A queued document given up before its turn leaves the queue.
    tickets[3]!.release(false);
    tickets[0]!.release();
    await sleep(0);
    assert.deepEqual(started, [0, 1, 2, 4]);
    assert.equal(queue.state.queued_bytes, 0);
  });

  it('should turn away past its count, bytes and wait bounds with 429 naming the bound and Retry-After from the measured time per document', async () => {
    const queue = new ConvertQueue({ concurrency: 1, queueLimit: 2, queueBytes: 100, initialDocumentMs: 1000 });
    const first = queue.admit(1);
    queue.admit(60);
    let error = refusal(queue, 50);
    assert.equal(error.status, 429);
    assert.match(error.message, /60 bytes are queued and this document has 50 \(limit 100\)/);
    queue.admit(10);
    error = refusal(queue);
    assert.match(error.message, /1 documents converting, 2 documents are queued \(limit 2\)/);
    // 2 ahead + this one, one at a time, 1 s each.
    assert.equal(error.headers['retry-after'], '3');
    // A measured document replaces the first guess (a moving mean): a fast one lowers the wait.
    await sleep(5);
    first.release();
    const state = queue.state;
    assert.ok(state.document_ms < 1000 && state.document_ms > 800, String(state.document_ms));
    const slow = new ConvertQueue({ concurrency: 1, queueLimit: 100, maxWaitMs: 2000, initialDocumentMs: 1000 });
    for (let i = 0; i < 3; i++) slow.admit(1);
    assert.match(refusal(slow).message, /the queue would take about 3 s \(limit 2 s\)/);
  });

  it('should validate its options, naming the option', () => {
    assert.throws(() => new ConvertQueue({ concurrency: 0 }), /Expected `concurrency` to be an integer from 1 up, got `0`/);
  });
});
