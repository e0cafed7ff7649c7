import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Runs `--engine auto` over a born-digital PDF in a fresh Node process (nothing other tests
 * loaded or cached in this one helps it) and reports the pages' routes.
 */
const SCRIPT = `
import { readFile } from 'node:fs/promises';
const { pdfPages } = await import(${JSON.stringify(pathToFileURL(resolve('pipeline/run/pdf-pages.ts')).href)});
const path = process.argv[1];
const bytes = new Uint8Array(await readFile(path));
const uri = 'file://' + path;
const pages = [];
for await (const result of pdfPages({ id: 'doc', uri, relativePath: 'doc.pdf', mime: 'application/pdf', bytes, contentHash: 'x' }, { engine: 'auto' })) {
  pages.push(result.ok ? { engine: result.page.route.engine, reason: result.page.route.reason, coverage: result.page.route.details?.imageCoverage } : { failed: result.failure.reason });
}
process.stdout.write(JSON.stringify({ pages }));
`;

describe('pdfPages under --engine auto', function () {
  this.timeout(120_000);

  it('should route a text-only PDF on PDFium’s figures', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '--no-warnings', '-e', SCRIPT, resolve('examples/docs/folio-handbook.pdf')]);
    const report = JSON.parse(stdout) as { pages: { engine: string; reason: string; coverage: unknown }[] };
    assert.ok(report.pages.length > 0, stdout);
    for (const page of report.pages) {
      assert.equal(page.engine, 'text', stdout);
      assert.equal(page.reason, 'text-layer-good', stdout);
      assert.equal(typeof page.coverage, 'number', `the route records PDFium's image coverage: ${stdout}`);
    }
  });
});
