import { createEngine } from '../../inference/create-engine.ts';
import { startOcrServer } from '../../server/index.ts';
import { ConfigurationError } from '../../core/errors.ts';
import { integer, parse } from '../options.ts';
import { DEVICES, type Device } from '../../inference/runtime/ort.ts';

export const SERVE_USAGE = `folio serve [--port N] [--host H] [--engine paddle|onnx] [options]

Documents and pages over HTTP: POST /v1/convert (a document in, Markdown, elements, chunks and
page routes out; the Elasticsearch plugin's backend), an OpenAI-compatible OCR route
POST /v1/chat/completions, GET /v1/models, GET /health, GET /openapi.json. Set FOLIO_SERVE_TOKEN
to require a bearer token. SIGINT/SIGTERM finish in-flight requests before exiting.

  --port N          (default 8000)
  --host H          (default 127.0.0.1)
  --engine E        paddle | onnx (default paddle)
  --device D        cpu | webgpu | cuda for onnx (default cpu)
  --model DIR       folio-ocr model folder for onnx
  --batch N         pages per engine call (default 8)
  --queue N         requests queued before 429 (default 64)
  --max-pixels N    largest image accepted (default 40000000)
  --embed MODE      local (bundled all-MiniLM-L6-v2) lets /v1/convert embed chunks; none (default)
  --convert-limit N documents converting at once before 429 (default 8)
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
    embed: { type: 'string', default: 'none' },
    'convert-limit': { type: 'string', default: '8' },
    'fetch-hosts': { type: 'string' },
    'fetch-addresses': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(SERVE_USAGE);
    return 0;
  }
  if (values.engine !== 'paddle' && values.engine !== 'onnx') throw new ConfigurationError('FOLIO_UNKNOWN_ENGINE', `Expected \`--engine\` to be paddle or onnx, got \`${values.engine}\``);
  if (!DEVICES.includes(values.device as Device)) throw new ConfigurationError('FOLIO_BAD_DEVICE', `Expected \`--device\` to be one of ${DEVICES.join(', ')}, got \`${values.device}\``);
  if (values.embed !== 'none' && values.embed !== 'local') throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--embed\` to be local or none, got \`${values.embed}\``);
  const list = (value: string | undefined): string[] => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);
  const allowHosts = list(values['fetch-hosts']);
  const engine = await createEngine(values.engine, { device: values.device as Device, modelDir: values.model, draftK: integer('draft-k', values['draft-k'], 0) });
  const embedder = values.embed === 'local' ? await (await import('../../inference/embed/index.ts')).createLocalEmbedder({}) : undefined;
  const server = await startOcrServer({
    engine,
    port: integer('port', values.port, 0),
    host: values.host,
    token: process.env.FOLIO_SERVE_TOKEN || undefined,
    batchSize: integer('batch', values.batch, 1),
    queueLimit: integer('queue', values.queue, 1),
    maxPixels: integer('max-pixels', values['max-pixels'], 1),
    convertLimit: integer('convert-limit', values['convert-limit'], 1),
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
  await embedder?.close();
  return 0;
}
