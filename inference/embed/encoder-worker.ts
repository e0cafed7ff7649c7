/**
 * The embedder's own thread: opens the encoder and answers `run` requests one after another, so
 * the thread that chunks and writes keeps working while a pass runs (see `threaded-encoder.ts`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorCode } from '../../core/errors.ts';
import type { EmbedBatchInfo, EncoderSettings } from './encoder.ts';
import { openEncoder } from './encoder.ts';
import type { FromEncoder, ToEncoder } from './threaded-encoder.ts';

const port = parentPort!;
const { settings, reportBatches } = workerData as { settings: EncoderSettings; reportBatches: boolean };
const post = (message: FromEncoder, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const failure = (error: unknown) => ({
  message: error instanceof Error ? error.message : String(error),
  code: errorCode(error),
  configuration: error instanceof Error && error.name === 'ConfigurationError',
});

try {
  const encoder = await openEncoder(settings, reportBatches ? (info: EmbedBatchInfo) => post({ type: 'batch', info }) : undefined);
  port.on('message', async (message: ToEncoder) => {
    if (message.type === 'close') {
      await encoder.release();
      post({ type: 'closed' });
      port.close();
      return;
    }
    try {
      const vectors = await encoder.run(message.encoded);
      post(
        { type: 'vectors', id: message.id, vectors },
        vectors.map((v) => v.buffer as ArrayBuffer),
      );
    } catch (error) {
      post({ type: 'failed', id: message.id, ...failure(error) });
    }
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'failed', id: -1, ...failure(error) });
}
