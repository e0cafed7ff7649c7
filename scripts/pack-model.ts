/**
 * `npm run pack:model [-- DEST]`: pack folio-ocr-mini (the `onnx` engine's default model, 31 MB)
 * as its own npm package, `@folio-ocr/folio-ocr-mini`, so the Folio package stays small and a
 * user who wants the engine installs the model beside it. The weights stay where training writes
 * them (`inference/models/folio-ocr-mini/`); the package is assembled in a temporary
 * folder from the files the model needs (its sample images stay behind). Prints the tarball path.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ONNX_MODEL_PACKAGE } from '../inference/default-model.ts';

const weights = fileURLToPath(new URL('../inference/models/folio-ocr-mini/', import.meta.url));
const dest = resolve(process.argv[2] ?? '.');
const config = JSON.parse(await readFile(join(weights, 'folio-model.json'), 'utf8')) as { version: string; licence: string; name: string };
const files = (await readdir(weights)).filter((name) => /\.(onnx|bin|json)$/.test(name)).sort();

const folder = await mkdtemp(join(tmpdir(), 'folio-model-'));
try {
  for (const name of files) await copyFile(join(weights, name), join(folder, name));
  const manifest = {
    name: ONNX_MODEL_PACKAGE,
    version: config.version,
    description: `${config.name}: the default model of Folio's onnx OCR engine (DeepSeek-OCR-shaped, FastMTP draft head)`,
    license: config.licence,
    files,
  };
  await writeFile(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', dest], { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (packed.status !== 0) throw new Error(`npm pack failed (exit ${packed.status})`);
  process.stdout.write(`${join(dest, packed.stdout.trim().split('\n').at(-1) ?? '')}\n`);
} finally {
  await rm(folder, { recursive: true, force: true });
}
