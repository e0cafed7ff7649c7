/**
 * A worker thread of {@link processInParallel}: runs `processDocument` on each document it is
 * sent, one at a time, and posts the result back without the document's bytes. Its OCR engine
 * is created on the first page that needs one and reused for every later document.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { describeError, errorCode } from '../../core/errors.ts';
import { createEngine } from '../../inference/create-engine.ts';
import type { OcrEngine } from '../../inference/engine.ts';
import { processDocument } from '../run/process-document.ts';
import type { ProcessRequest, WorkerMessage, WorkerSetup } from './protocol.ts';

const setup = workerData as WorkerSetup;
const port = parentPort;
if (port === null) throw new Error('pipeline/parallel/worker.ts must run in a worker thread');

let engine: Promise<OcrEngine> | undefined;
const ocr = setup.ocrEngine === undefined ? undefined : (): Promise<OcrEngine> => {
  const name = setup.ocrEngine as string;
  engine ??= createEngine(name, setup.ocrEngineOptions);
  // A failed load is not cached: the next page tries again (and is recorded if it fails too).
  engine.catch(() => (engine = undefined));
  return engine;
};

const post = (message: WorkerMessage): void => port.postMessage(message);

port.on('message', async (request: ProcessRequest) => {
  const { id, doc } = request;
  try {
    const { doc: _doc, ...result } = await processDocument(doc, {
      ...setup.process,
      ocr,
      onPage: setup.pageEvents ? (event) => post({ type: 'page', id, event }) : undefined,
    });
    post({ type: 'done', id, result });
  } catch (error) {
    post({ type: 'failed', id, code: errorCode(error), reason: describeError(error) });
  }
});
