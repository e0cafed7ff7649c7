import { ConfigurationError } from '../../core/errors.ts';
import { createEngine } from '../../inference/create-engine.ts';
import type { Embedder } from '../../inference/embed/index.ts';
import type { OcrEngine } from '../../inference/engine.ts';
import { DEVICES, type Device } from '../../inference/runtime/ort.ts';
import { idleReleasingEngine, startOcrServer } from '../../server/index.ts';
import { integer, parse } from '../options.ts';

export const SERVE_USAGE = `folio serve [--port N] [--host H] [--engine paddle|onnx] [options]

Documents and pages over HTTP: POST /v1/convert (a document in, Markdown, elements, chunks and
page routes out; the Elasticsearch plugin's backend), an OpenAI-compatible OCR route
POST /v1/chat/completions, GET /v1/models, GET /health, GET /openapi.json. At / a web app
searches the index (with --es), shows each page with its element boxes, converts dropped files
and asks with citations. Set FOLIO_SERVE_TOKEN to require a bearer token (the app asks for it).
SIGINT/SIGTERM finish in-flight requests before exiting.

  --port N          (default 8000)
  --host H          (default 127.0.0.1)
  --engine E        paddle | onnx (default paddle)
  --device D        cpu | webgpu | cuda for onnx (default cpu)
  --model DIR       folio-ocr model folder for onnx
  --batch N         pages per engine call (default 8)
  --queue N         requests queued before 429 (default 64)
  --idle-release S  close the OCR engine, and end /v1/convert's document threads, after S
                    seconds without work, giving their memory back; the next page or
                    document starts them again (default 60; 0 keeps them)
  --max-pixels N    largest page image on every route: chat images, /v1/convert pages
                    (a PDF page is rendered smaller, an image over it fails its page), the
                    app's conversions (default 40000000)
  --es URL          Elasticsearch for the app's search, ask and document views (default: $ELASTICSEARCH_URL)
  --index NAME      chunk index the app reads (default folio-chunks)
  --embed MODE      query embedder of the app and chunk vectors of /v1/convert: local (bundled
                    all-MiniLM-L6-v2) | none | an OpenAI-compatible base URL (default local)
  --llm URL         OpenAI-compatible chat endpoint that answers the app's ask
  --llm-model M     model name at that endpoint
  --convert-limit N documents converting at once (default 8); the next ones queue
  --convert-queue N documents queued behind them before 429 (default 64; also bounded by 256 MiB
                    of queued bodies and by a 60 s expected wait); a 429's Retry-After is the
                    queue's measured wait, and GET /health advertises these limits
  --fetch-hosts H   comma-separated hosts (or *.suffix) /v1/convert may fetch a \`url\` from;
                    off by default. Loopback, private and link-local addresses are refused,
                    also after redirects, unless listed in --fetch-addresses
  --fetch-addresses A  comma-separated exact addresses allowed despite being private`;

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
    'idle-release': { type: 'string', default: '60' },
    es: { type: 'string' },
    index: { type: 'string', default: 'folio-chunks' },
    embed: { type: 'string', default: 'local' },
    'embed-model': { type: 'string' },
    llm: { type: 'string' },
    'llm-model': { type: 'string' },
    'convert-limit': { type: 'string', default: '8' },
    'convert-queue': { type: 'string', default: '64' },
    'fetch-hosts': { type: 'string' },
    'fetch-addresses': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(SERVE_USAGE);
    return 0;
  }
  if (values.engine !== 'paddle' && values.engine !== 'onnx')
    throw new ConfigurationError('FOLIO_UNKNOWN_ENGINE', `Expected \`--engine\` to be paddle or onnx, got \`${values.engine}\``);
  if (!DEVICES.includes(values.device as Device))
    throw new ConfigurationError('FOLIO_BAD_DEVICE', `Expected \`--device\` to be one of ${DEVICES.join(', ')}, got \`${values.device}\``);
  if (values.llm && !values['llm-model']) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', '`--llm URL` needs `--llm-model NAME`');
  const list = (value: string | undefined): string[] =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  const allowHosts = list(values['fetch-hosts']);
  const engineOptions = { device: values.device as Device, modelDir: values.model, draftK: integer('draft-k', values['draft-k'], 0) };
  // Created now so a missing model fails before the port opens; adopted by the first page.
  let initial: OcrEngine | undefined = await createEngine(values.engine, engineOptions);
  const idleMs = (integer('idle-release', values['idle-release'], 0) ?? 60) * 1000;
  const engine = idleReleasingEngine(
    initial.name,
    async () => {
      const adopted = initial ?? (await createEngine(values.engine, engineOptions));
      initial = undefined;
      return adopted;
    },
    { idleMs },
  );
  // One embedder for the app's queries and /v1/convert's chunk vectors, loaded before the port opens.
  const embedder = await createEmbedder(values.embed, values['embed-model']);
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
      embedder,
      llm: values.llm ? { url: values.llm, model: values['llm-model']! } : undefined,
    },
    convertLimit: integer('convert-limit', values['convert-limit'], 1),
    convertQueue: { queueLimit: integer('convert-queue', values['convert-queue'], 0) },
    convertIdleMs: idleMs,
    ...(embedder ? { embedder } : {}),
    ...(allowHosts.length > 0 ? { fetch: { allowHosts, allowAddresses: list(values['fetch-addresses']) } } : {}),
  });
  console.log(server.url);
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  await engine.close();
  await initial?.close();
  await embedder?.close();
  return 0;
}

/** The embedder `--embed` names: none, the bundled model, or an OpenAI-compatible endpoint. */
async function createEmbedder(mode: string, model: string | undefined): Promise<Embedder | undefined> {
  if (mode === 'none') return undefined;
  const embed = await import('../../inference/embed/index.ts');
  // On a thread of its own: a pass holds the thread that calls onnxruntime for ~0.3 s, and this
  // one answers health checks, queues conversions and sends 429s with their Retry-After meanwhile.
  if (mode === 'local') return embed.createLocalEmbedder({ worker: true });
  if (!/^https?:\/\//.test(mode))
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--embed\` to be local, none or an http(s) URL, got \`${mode}\``);
  return embed.createRemoteEmbedder({ url: mode, model: model ?? '', apiKey: process.env.FOLIO_EMBED_API_KEY });
}
