/**
 * The README's LangChain snippet, run as a user would paste it: it must finish and exit by itself
 * (the loader closes the OCR engine it created), and a failed input must not pass without a word.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The ```ts block of the README's LangChain.js section. */
async function readmeSnippet(): Promise<string> {
  const readme = await readFile('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## LangChain.js'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  assert.ok(match, 'the README has a LangChain.js snippet');
  return match[1]!;
}

function runScript(path: string, timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [path], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr });
    });
  });
}

describe('the README LangChain snippet', function () {
  this.timeout(180_000);
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-snippet-'));
    // A scan (OCR: the loader creates an engine) and a PDF that is not one (a failed input).
    await copyFile('examples/docs/scanned-memo.png', join(dir, 'memo.png'));
    await copyFile('examples/docs/invoice-ocr.md', join(dir, 'invoice.md'));
    await writeFile(join(dir, 'broken.pdf'), 'not a pdf at all\n'.repeat(10));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it('should load, warn about the failed input and exit by itself', async () => {
    const root = pathToFileURL(resolve('.')).href;
    const code = (await readmeSnippet()).replaceAll("from './", `from '${root}/`).replace("'reports/'", JSON.stringify(dir));
    const script = join(dir, 'snippet.ts');
    await writeFile(script, `${code}\nconsole.log('documents', docs.length);\n`);
    const run = await runScript(script, 150_000);
    assert.equal(run.signal, null, `the snippet did not exit by itself: ${run.stderr}`);
    assert.equal(run.code, 0, run.stderr);
    const count = Number(/documents (\d+)/.exec(run.stdout)?.[1]);
    assert.ok(count >= 2, run.stdout);
    assert.match(run.stderr, /FolioLoader: skipped .*broken\.pdf/);
  });
});
