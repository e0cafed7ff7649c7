/**
 * Where the `onnx` engine finds its default model, folio-ocr-mini (31 MB). A checkout of the
 * repository has it committed under `inference/models/`; the installed package does not
 * ship it (it would triple the tarball for an engine most runs never use), so a user installs it
 * as its own package, {@link ONNX_MODEL_PACKAGE}, made by `npm run pack:model`.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../core/errors.ts';

/** The npm package that carries folio-ocr-mini for installed copies of Folio. */
export const ONNX_MODEL_PACKAGE = '@folio-ocr/folio-ocr-mini';

/**
 * The folder of the default `onnx` model: the repository's committed weights when running from a
 * checkout, else the installed {@link ONNX_MODEL_PACKAGE}.
 *
 * @throws {ConfigurationError} `FOLIO_MODEL_MISSING` when neither is there.
 * @example
 * const engine = await createOnnxEngine({ modelDir: defaultOnnxModelDir() });
 */
export function defaultOnnxModelDir(): string {
  const committed = fileURLToPath(new URL('./models/folio-ocr-mini/', import.meta.url));
  if (existsSync(join(committed, 'folio-model.json'))) return committed;
  try {
    return dirname(fileURLToPath(import.meta.resolve(`${ONNX_MODEL_PACKAGE}/folio-model.json`)));
  } catch (cause) {
    throw new ConfigurationError(
      'FOLIO_MODEL_MISSING',
      `the onnx engine's default model is not installed: \`npm install ${ONNX_MODEL_PACKAGE}\`, or give a model folder (\`modelDir\`, \`--model DIR\`)`,
      { cause, meta: { package: ONNX_MODEL_PACKAGE } },
    );
  }
}
