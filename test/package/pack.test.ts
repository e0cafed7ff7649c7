/**
 * The package as a user gets it: `npm pack` (which builds `dist/`), then the tarball installed
 * into a temporary project outside the repository, with none of the repository's settings
 * (`.npmrc`, `npm_config_*`) or binaries on the way. There every subpath is imported and
 * type-checked, the `folio` bin runs `--help` and a `convert` (a born-digital PDF and a scanned
 * page, so the worker threads, the OCR models and PDFium's wasm are found from the built
 * layout), and the LangChain loader reads the PDF. The tarball's size is printed and held to
 * `PACKAGE_BUDGET_BYTES`.
 *
 * The install reuses the npm cache (`--prefer-offline`); the first run on a machine downloads
 * the dependencies once. Set `FOLIO_KEEP_PACK_TEST=1` to keep the temporary project.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PACKAGE_BUDGET_BYTES } from '../../scripts/package/assets.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONSUMER = fileURLToPath(new URL('./consumer/', import.meta.url));
const PDF = join(ROOT, 'examples/docs/folio-handbook.pdf');
const SCAN = join(ROOT, 'examples/docs/scanned-memo.png');

/** The README's line for machines that cannot reach onnxruntime's CUDA download. */
const USER_NPMRC = 'onnxruntime-node-install=skip\n';

/**
 * The environment of a user's shell: no npm settings inherited from `npm test` (the repository's
 * `.npmrc` reaches child processes as `npm_config_*`), no repository binaries on PATH except the
 * directory of the Node running this test. The npm cache stays, so the install can reuse it.
 */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if (lower.startsWith('npm_') && lower !== 'npm_config_cache') continue;
    if (key === 'ONNXRUNTIME_NODE_INSTALL' || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  const path = (process.env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== '' && !dir.startsWith(ROOT));
  env['PATH'] = [dirname(process.execPath), ...path].join(delimiter);
  return env;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

describe('the npm package', function () {
  this.timeout(600_000);
  let project: string;
  let tarball: string;
  let installed: string;
  let env: NodeJS.ProcessEnv;
  const inProject = (file: string, args: readonly string[], timeout = 180_000) => run(file, [...args], { cwd: project, env, timeout, maxBuffer: 64 << 20 });

  before(async () => {
    project = await mkdtemp(join(tmpdir(), 'folio-pack-'));
    assert.ok(relative(ROOT, project).startsWith('..'), 'the project must lie outside the repository');
    env = userEnv();
    const packed = await run('npm', ['pack', '--json', '--pack-destination', project], {
      cwd: ROOT,
      env: { ...process.env },
      timeout: 300_000,
      maxBuffer: 64 << 20,
    });
    const [info] = JSON.parse(packed.stdout) as { filename: string }[];
    tarball = join(project, (info as { filename: string }).filename);
    await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'folio-user', private: true, type: 'module' }, null, 2)}\n`);
    await writeFile(join(project, '.npmrc'), USER_NPMRC);
    for (const file of ['imports.mjs', 'loader.mjs', 'onnx-model.mjs', 'types.ts', 'langchain-example.ts'])
      await copyFile(join(CONSUMER, file), join(project, file));
    await copyFile(PDF, join(project, 'handbook.pdf'));
    await copyFile(SCAN, join(project, 'memo.png'));
    // A TypeScript user has Node's types; the repository's version of them, from the cache.
    const nodeTypes = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies[
      '@types/node'
    ];
    const started = Date.now();
    await inProject('npm', ['install', tarball, `@types/node@${nodeTypes}`, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], 540_000);
    process.stdout.write(`      installed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    installed = join(project, 'node_modules/@folio-ocr/folio');
  });

  after(async () => {
    if (project !== undefined && !process.env['FOLIO_KEEP_PACK_TEST']) await rm(project, { recursive: true, force: true });
  });

  it('should stay within the size budget', async () => {
    const { size } = await stat(tarball);
    process.stdout.write(`      tarball ${(size / 2 ** 20).toFixed(2)} MiB packed (budget ${(PACKAGE_BUDGET_BYTES / 2 ** 20).toFixed(0)} MiB)\n`);
    assert.ok(size <= PACKAGE_BUDGET_BYTES, `the tarball is ${size} bytes, over the budget of ${PACKAGE_BUDGET_BYTES}`);
  });

  it('should ship built JavaScript, declarations and run-time files only', async () => {
    const files = await filesUnder(installed);
    // The web app's browser files are TypeScript that the server type-strips as it serves them.
    const browserApp = (f: string): boolean => f.startsWith('dist/server/web/');
    const sources = files.filter((f) => !browserApp(f) && ((f.endsWith('.ts') && !f.endsWith('.d.ts')) || f.endsWith('.py') || f.endsWith('.png')));
    assert.deepEqual(sources, [], 'sources, training code or images in the package');
    for (const file of [
      'bin/folio.js',
      'dist/api/index.js',
      'dist/api/index.d.ts',
      'dist/pipeline/parallel/worker.js',
      'dist/inference/paddle/rec-worker.js',
      'dist/mappings/chunks.json',
      'dist/server/web/index.html',
      'dist/server/web/main.ts',
      'dist/inference/embed/models/all-minilm-l6-v2/model.onnx',
    ]) {
      assert.ok(files.includes(file.split('/').join(sep)), `${file} is missing`);
    }
    assert.ok(!files.some((f) => f.startsWith(`dist${sep}bench`) || f.startsWith(`dist${sep}test`)), 'benchmarks or tests were built into the package');
  });

  it('should import every subpath from the installed package', async () => {
    const { stdout } = await inProject(process.execPath, ['imports.mjs']);
    const report = JSON.parse(stdout) as { resolved: string; subpaths: Record<string, string[]> };
    assert.ok(report.resolved.startsWith(installed), `resolved to ${report.resolved}, not the installed copy`);
    const expected: Record<string, string[]> = {
      '.': ['convert', 'ingest', 'processDocument', 'sourcesFrom', 'FolioError', 'ERROR_CODES', 'errorCode'],
      './langchain': ['FolioLoader', 'FolioEmbeddings', 'FolioRetriever'],
      './elasticsearch': ['installMappings', 'createEsSink', 'hybridSearch', 'ask'],
      './engines': ['createEngine', 'createPaddleEngine', 'createOnnxEngine', 'createLocalEmbedder'],
      './pipeline': ['processDocument', 'openPdf', 'chunkDocument'],
      './connector': ['fileSource', 'urlSource', 'sourcesFrom'],
      './server': ['startOcrServer'],
    };
    assert.deepEqual(Object.keys(report.subpaths).sort(), Object.keys(expected).sort());
    for (const [subpath, names] of Object.entries(expected)) {
      for (const name of names) assert.ok(report.subpaths[subpath]?.includes(name), `${subpath} lacks ${name}`);
    }
  });

  it("should type-check a user file against every subpath's declarations", async () => {
    // `tsc --init`'s settings: skipLibCheck, as users have it (@elastic/elasticsearch's own
    // declarations name an optional apache-arrow); the user file itself is checked strictly.
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'nodenext', target: 'es2024', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] },
        files: ['types.ts', 'langchain-example.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    await inProject(process.execPath, [tsc, '-p', 'tsconfig.json']).catch((error: { stdout?: string; stderr?: string }) => {
      assert.fail(`tsc failed in the user project:\n${error.stdout ?? ''}${error.stderr ?? String(error)}`);
    });
  });

  it("should carry the README's LangChain example verbatim (it is type-checked above)", async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const example = await readFile(join(CONSUMER, 'langchain-example.ts'), 'utf8');
    assert.ok(readme.includes(`\`\`\`ts\n${example}\`\`\``), 'README.md lacks test/package/consumer/langchain-example.ts as a ts block');
  });

  it('should run `folio --help` through the bin', async () => {
    const { stdout } = await inProject(join(project, 'node_modules/.bin/folio'), ['--help']);
    assert.match(stdout, /usage: folio <command>/);
    assert.match(stdout, /convert <inputs\.\.\.>/);
  });

  it("should fail at once on the machine's older Node (/usr/bin/node), the bin and an import alike, naming both versions", async function () {
    const old = '/usr/bin/node';
    const version = (await run(old, ['--version']).catch(() => ({ stdout: '' }))).stdout.trim();
    const [major = 0, minor = 0] = version.slice(1).split('.').map(Number);
    if (version === '' || major > 22 || (major === 22 && minor >= 17)) this.skip();
    const expected = new RegExp(`needs Node\\.js 22\\.17\\.0 or newer.*this is Node\\.js ${version.slice(1).replaceAll('.', '\\.')}`);
    const bin = await inProject(old, [join(project, 'node_modules/.bin/folio'), '--help']).then(
      () => assert.fail('the bin ran'),
      (error: { stderr?: string }) => error.stderr ?? '',
    );
    assert.match(bin, expected);
    for (const subpath of ['@folio-ocr/folio', '@folio-ocr/folio/langchain', '@folio-ocr/folio/pipeline']) {
      const imported = await inProject(old, [
        '--input-type=module',
        '-e',
        `import(${JSON.stringify(subpath)}).then(() => console.log('loaded'), (e) => console.log(e.code, e.message))`,
      ]);
      assert.match(imported.stdout, /^FOLIO_NODE_VERSION /, `${subpath}: ${imported.stdout}`);
      assert.match(imported.stdout, expected);
    }
  });

  it('should convert a PDF and a scanned page through the bin', async () => {
    await inProject(join(project, 'node_modules/.bin/folio'), ['convert', 'handbook.pdf', 'memo.png', '--out-dir', 'out', '--engine', 'auto']);
    const pdf = await readFile(join(project, 'out/handbook.md'), 'utf8');
    assert.match(pdf, /^# Folio Handbook/m);
    assert.match(pdf, /born-digital pages/);
    // The scan has no text layer: this page went through the paddle OCR engine of the package.
    const scan = await readFile(join(project, 'out/memo.md'), 'utf8');
    assert.match(scan, /Quarterly Archive Review/);
    const elements = JSON.parse(await readFile(join(project, 'out/memo.json'), 'utf8')) as unknown;
    assert.match(JSON.stringify(elements), /"paddle"/);
  });

  it('should load the PDF with the LangChain loader', async () => {
    const { stdout } = await inProject(process.execPath, ['loader.mjs', 'handbook.pdf']);
    const docs = JSON.parse(stdout) as { text: string; source: string; page?: number }[];
    assert.ok(docs.length >= 2, `expected the handbook's chunks, got ${docs.length}`);
    assert.ok(docs.every((d) => d.source.endsWith('handbook.pdf') && typeof d.page === 'number'));
    assert.match(docs.map((d) => d.text).join('\n'), /reads the text layer of born-digital pages/);
  });

  it('should run the onnx engine once its model package is installed beside it, and say how before', async () => {
    const missing = JSON.parse((await inProject(process.execPath, ['onnx-model.mjs'])).stdout) as { code?: string; message?: string };
    assert.equal(missing.code, 'FOLIO_MODEL_MISSING', JSON.stringify(missing));
    assert.match(missing.message ?? '', /npm install @folio-ocr\/folio-ocr-mini/);
    const packed = await run(process.execPath, [join(ROOT, 'scripts/pack-model.ts'), project], { cwd: ROOT, env, timeout: 180_000 });
    const model = packed.stdout.trim();
    process.stdout.write(`      model package ${((await stat(model)).size / 2 ** 20).toFixed(2)} MiB packed\n`);
    await inProject('npm', ['install', model, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], 300_000);
    const loaded = JSON.parse((await inProject(process.execPath, ['onnx-model.mjs'])).stdout) as { loaded?: string };
    assert.ok(loaded.loaded?.startsWith(join(project, 'node_modules/@folio-ocr/folio-ocr-mini')), JSON.stringify(loaded));
  });
});
