/**
 * A recognition lane in a worker thread (see `lanes.ts`): one single-threaded session of the
 * recogniser, answering `{ id, data, dims }` with `{ id, probs, dims }` or `{ id, error }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { OnnxSession, tensor } from '../runtime/ort.ts';

const port = parentPort;
if (port === null) throw new Error('rec-worker.ts runs as a worker thread');
const { path } = workerData as { path: string };
try {
  const session = await OnnxSession.create(path, { threads: 1, spinning: false });
  port.on('message', (message: { id: number; data: Float32Array; dims: number[] }) => {
    const { id, data, dims } = message;
    session.run({ x: tensor('float32', data, dims) }).then(
      (outputs) => {
        const out = Object.values(outputs)[0]!;
        // A copy the main thread can take over; the output tensor's memory belongs to onnxruntime.
        const probs = new Float32Array(out.data as Float32Array);
        port.postMessage({ id, probs, dims: [...out.dims] }, [probs.buffer]);
      },
      (error: unknown) => port.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ ready: false, error: error instanceof Error ? error.message : String(error) });
}
