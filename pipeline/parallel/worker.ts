/**
 * A worker thread of {@link processInParallel}: runs `processDocument` on each document it is
 * sent, one at a time, and posts the result back without the document's bytes. Pages that need
 * OCR go to the calling thread's engine (one engine for the whole run, batching across workers)
 * or to an engine of this worker's own, created on first use and reused for later documents.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isFolioErrorCode } from '../../core/error-codes.ts';
import { describeError, errorCode, InferenceError } from '../../core/errors.ts';
import type { OcrEngine, OcrPageResult } from '../../inference/engine.ts';
import { adoptPdfiumModule } from '../pdf/pdfium.ts';
import { processDocument, readDocument } from '../run/process-document.ts';
import type { PoolMessage, WorkerMessage, WorkerSetup } from './protocol.ts';

const setup = workerData as WorkerSetup;
adoptPdfiumModule(setup.pdfium);
const port = parentPort;
if (port === null) throw new Error('pipeline/parallel/worker.ts must run in a worker thread');

const post = (message: WorkerMessage): void => port.postMessage(message);

/** OCR requests sent to the calling thread, waiting for their answer. */
const asked = new Map<number, { resolve: (results: OcrPageResult[]) => void; reject: (error: Error) => void }>();
let nextRequest = 1;
/** The job whose pages are being read: OCR requests name it so the pool can drop stale ones. */
let currentJob = 0;

const callerEngine: OcrEngine = {
  name: 'caller',
  recognize: (pages) =>
    new Promise((resolve, reject) => {
      const request = nextRequest++;
      asked.set(request, { resolve, reject });
      // Copied, not transferred: the OCR queue keeps the images to retry a failed batch page by page.
      post({ type: 'ocr', id: currentJob, request, pages });
    }),
  close: async () => undefined,
};

let ownEngine: Promise<OcrEngine> | undefined;
function workerEngine(): Promise<OcrEngine> {
  // Loaded on first use: a text-only run never imports the inference modules.
  ownEngine ??= import('../../inference/create-engine.ts').then(({ createEngine }) => createEngine(setup.ocrEngine as string, setup.ocrEngineOptions));
  // A failed load is not cached: the next page tries again (and is recorded if it fails too).
  ownEngine.catch(() => (ownEngine = undefined));
  return ownEngine;
}

const ocr = setup.ocrOnCaller ? async (): Promise<OcrEngine> => callerEngine : setup.ocrEngine === undefined ? undefined : workerEngine;
const read = setup.chunk === false ? readDocument : processDocument;

port.on('message', async (message: PoolMessage) => {
  if (message.type === 'ocr-done' || message.type === 'ocr-failed') {
    const waiting = asked.get(message.request);
    asked.delete(message.request);
    if (message.type === 'ocr-done') waiting?.resolve([...message.results]);
    // The code crossed the thread boundary as a string; keep it when it is one of ours.
    else waiting?.reject(new InferenceError(isFolioErrorCode(message.code) ? message.code : 'FOLIO_OCR_FAILED', message.reason));
    return;
  }
  const { id, doc, process: options } = message;
  currentJob = id;
  try {
    const { doc: _doc, ...result } = await read(doc, {
      ...setup.process,
      ...options,
      ocr,
      onPage: setup.pageEvents ? (event) => post({ type: 'page', id, event }) : undefined,
    });
    post({ type: 'done', id, result });
  } catch (error) {
    post({ type: 'failed', id, code: errorCode(error), reason: describeError(error) });
  }
});
