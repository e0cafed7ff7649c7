import { createEngine } from '../../inference/create-engine.ts';
import { startOcrServer } from '../../server/index.ts';
import { ConfigurationError } from '../../core/errors.ts';
import { integer, parse } from '../options.ts';
import { DEVICES, type Device } from '../../inference/runtime/ort.ts';
import type { Embedder } from '../../inference/embed/index.ts';

export const SERVE_USAGE = `folio serve [--port N] [--host H] [--engine paddle|onnx] [options]

An OpenAI-compatible OCR server over a local engine: POST /v1/chat/completions with the page as
an image_url data URL, GET /v1/models, GET /health. At / a web app searches the index (with
--es), shows each page with its element boxes, converts dropped files and asks with citations.
Set FOLIO_SERVE_TOKEN to require a bearer token (the app asks for it). SIGINT/SIGTERM finish
in-flight requests before exiting.

  --port N          (default 8000)
  --host H          (default 127.0.0.1)
  --engine E        paddle | onnx (default paddle)
  --device D        cpu | webgpu | cuda for onnx (default cpu)
  --model DIR       folio-ocr model folder for onnx
  --batch N         pages per engine call (default 8)
  --queue N         requests queued before 429 (default 64)
  --max-pixels N    largest image accepted (default 40000000)
  --es URL          Elasticsearch for the app's search, ask and document views (default: $ELASTICSEARCH_URL)
  --index NAME      chunk index the app reads (default folio-chunks)
  --embed MODE      query embedder: local | none | an OpenAI-compatible base URL (default local)
  --llm URL         OpenAI-compatible chat endpoint that answers the app's ask
  --llm-model M     model name at that endpoint`;

export async function serveCommand(argv: readonly string[]): Promise<number> {
  const { values } = parse(argv, {
    port: { type: 'string', default: '8000' },
    host: { type: 'string', default: '127.0.0.1' },
    engine: { type: 'string', default: 'paddle' },
    device: { type: 'string', default: 'cpu' },
    model: { type: 'string' },
    'draft-k': { type: 'string' },
    batch: { type: 'string', default: '8' },
    queue: { type: 'string', default: '64' },
    'max-pixels': { type: 'string', default: '40000000' },
    es: { type: 'string' },
    index: { type: 'string', default: 'folio-chunks' },
    embed: { type: 'string', default: 'local' },
    'embed-model': { type: 'string' },
    llm: { type: 'string' },
    'llm-model': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(SERVE_USAGE);
    return 0;
  }
  if (values.engine !== 'paddle' && values.engine !== 'onnx') throw new ConfigurationError('FOLIO_UNKNOWN_ENGINE', `Expected \`--engine\` to be paddle or onnx, got \`${values.engine}\``);
  if (!DEVICES.includes(values.device as Device)) throw new ConfigurationError('FOLIO_BAD_DEVICE', `Expected \`--device\` to be one of ${DEVICES.join(', ')}, got \`${values.device}\``);
  if (values.llm && !values['llm-model']) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', '`--llm URL` needs `--llm-model NAME`');
  const engine = await createEngine(values.engine, { device: values.device as Device, modelDir: values.model, draftK: integer('draft-k', values['draft-k'], 0) });
  const server = await startOcrServer({
    engine,
    port: integer('port', values.port, 0),
    host: values.host,
    token: process.env.FOLIO_SERVE_TOKEN || undefined,
    batchSize: integer('batch', values.batch, 1),
    queueLimit: integer('queue', values.queue, 1),
    maxPixels: integer('max-pixels', values['max-pixels'], 1),
    app: {
      esUrl: values.es ?? (process.env.ELASTICSEARCH_URL || undefined),
      index: values.index,
      embedder: queryEmbedder(values.embed, values['embed-model']),
      llm: values.llm ? { url: values.llm, model: values['llm-model']! } : undefined,
    },
  });
  console.log(server.url);
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  await engine.close();
  return 0;
}

/** The app's query embedder, loaded on the first kNN or hybrid search rather than at start. */
function queryEmbedder(mode: string, model: string | undefined): (() => Promise<Embedder>) | undefined {
  if (mode === 'none') return undefined;
  if (mode === 'local') return async () => (await import('../../inference/embed/index.ts')).createLocalEmbedder({});
  return async () => (await import('../../inference/embed/index.ts')).createRemoteEmbedder({ url: mode, model: model ?? '', apiKey: process.env.FOLIO_EMBED_API_KEY });
}
