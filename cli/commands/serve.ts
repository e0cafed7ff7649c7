import { createEngine } from '../../inference/create-engine.ts';
import { startOcrServer } from '../../server/index.ts';
import { ConfigurationError } from '../../core/errors.ts';
import { integer, parse } from '../options.ts';
import { DEVICES, type Device } from '../../inference/runtime/ort.ts';

export const SERVE_USAGE = `folio serve [--port N] [--host H] [--engine paddle|onnx] [options]

An OpenAI-compatible OCR server over a local engine: POST /v1/chat/completions with the page as
an image_url data URL, GET /v1/models, GET /health. Set FOLIO_SERVE_TOKEN to require a bearer
token. SIGINT/SIGTERM finish in-flight requests before exiting.

  --port N          (default 8000)
  --host H          (default 127.0.0.1)
  --engine E        paddle | onnx (default paddle)
  --device D        cpu | webgpu | cuda for onnx (default cpu)
  --model DIR       folio-ocr model folder for onnx
  --batch N         pages per engine call (default 8)
  --queue N         requests queued before 429 (default 64)
  --max-pixels N    largest image accepted (default 40000000)`;

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
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(SERVE_USAGE);
    return 0;
  }
  if (values.engine !== 'paddle' && values.engine !== 'onnx') throw new ConfigurationError('FOLIO_UNKNOWN_ENGINE', `Expected \`--engine\` to be paddle or onnx, got \`${values.engine}\``);
  if (!DEVICES.includes(values.device as Device)) throw new ConfigurationError('FOLIO_BAD_DEVICE', `Expected \`--device\` to be one of ${DEVICES.join(', ')}, got \`${values.device}\``);
  const engine = await createEngine(values.engine, { device: values.device as Device, modelDir: values.model, draftK: integer('draft-k', values['draft-k'], 0) });
  const server = await startOcrServer({
    engine,
    port: integer('port', values.port, 0),
    host: values.host,
    token: process.env.FOLIO_SERVE_TOKEN || undefined,
    batchSize: integer('batch', values.batch, 1),
    queueLimit: integer('queue', values.queue, 1),
    maxPixels: integer('max-pixels', values['max-pixels'], 1),
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
