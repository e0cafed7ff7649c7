import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, errorCode, FolioError, InferenceError, isFolioErrorCode } from '../../core/index.ts';
import { siblingModule } from '../../core/module-url.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The folders the package is built from (see tsconfig.build.json). */
const PRODUCT = ['api', 'bin', 'cli', 'core', 'connector', 'pipeline', 'inference', 'mappings', 'retrieval', 'server'];

async function productSources(): Promise<{ file: string; text: string }[]> {
  const out: { file: string; text: string }[] = [];
  for (const folder of PRODUCT) {
    for (const name of await readdir(join(ROOT, folder), { recursive: true })) {
      if (!name.endsWith('.ts') || name.endsWith('.d.ts')) continue;
      out.push({ file: `${folder}/${name}`, text: await readFile(join(ROOT, folder, name), 'utf8') });
    }
  }
  return out;
}

describe('ERROR_CODES', () => {
  it('should list exactly the codes of core/ERROR-CODES.md, each with a meaning', async () => {
    const doc = await readFile(join(ROOT, 'core/ERROR-CODES.md'), 'utf8');
    const documented = [...doc.matchAll(/^\| `(FOLIO_[A-Z0-9_]+)` \| (.+) \|$/gm)].map((m) => m[1] as string);
    assert.deepEqual([...documented].sort(), Object.keys(ERROR_CODES).sort());
    assert.equal(new Set(documented).size, documented.length, 'a code is listed twice');
    for (const meaning of Object.values(ERROR_CODES)) assert.ok(meaning.length > 10);
  });

  it('should hold every code the product code writes as a literal', async () => {
    const missing = new Set<string>();
    for (const { text } of await productSources()) {
      for (const [, code] of text.matchAll(/'(FOLIO_[A-Z0-9_]+)'/g)) {
        // Environment variables share the prefix; they are read, not thrown.
        if (/_(API_KEY|TOKEN|PORT|HEAP_MB|TIMEOUT_MS)$/.test(code as string) && !isFolioErrorCode(code)) continue;
        if (!isFolioErrorCode(code)) missing.add(code as string);
      }
    }
    assert.deepEqual([...missing], []);
  });

  it('should leave no plain Error, RangeError or TypeError thrown from the onnx engine', async () => {
    const plain = (await productSources())
      .filter(({ file }) => file.startsWith('inference/onnx/'))
      .flatMap(({ file, text }) => [...text.matchAll(/new (Range|Type)?Error\(/g)].map(() => file));
    assert.deepEqual(plain, []);
  });

  it('should be the code of FolioErrors, and FOLIO_UNKNOWN for foreign errors', () => {
    const error = new InferenceError('FOLIO_MODEL_OUTPUT', 'x');
    assert.ok(error instanceof FolioError);
    assert.equal(errorCode(error), 'FOLIO_MODEL_OUTPUT');
    assert.equal(errorCode(new RangeError('x')), 'FOLIO_UNKNOWN');
    assert.equal(isFolioErrorCode('FOLIO_NOPE'), false);
    assert.equal(isFolioErrorCode('toString'), false);
  });
});

describe('siblingModule', () => {
  it('should keep the extension of the module it starts from', () => {
    assert.equal(siblingModule('./worker', 'file:///pkg/dist/pipeline/parallel/pool.js').href, 'file:///pkg/dist/pipeline/parallel/worker.js');
    assert.equal(siblingModule('./worker', 'file:///repo/pipeline/parallel/pool.ts').href, 'file:///repo/pipeline/parallel/worker.ts');
    assert.equal(siblingModule('../../bench/index', new URL('file:///repo/cli/commands/bench.ts')).href, 'file:///repo/bench/index.ts');
  });
});
