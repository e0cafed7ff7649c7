import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { assertSupportedNode, MIN_NODE, nodeAtLeast } from '../../core/node-version.ts';

const run = promisify(execFile);
/** The machine's own Node (20 on the CI image), older than the package supports. */
const OLD_NODE = '/usr/bin/node';

describe('the Node.js version check', () => {
  it('should hold the same minimum as package.json engines and bin/folio.js', async () => {
    const engines = (JSON.parse(await readFile('package.json', 'utf8')) as { engines: { node: string } }).engines.node;
    assert.equal(engines, `>=${MIN_NODE.replace(/\.0$/, '')}`);
    assert.match(await readFile('bin/folio.js', 'utf8'), new RegExp(`const MIN_NODE = '${MIN_NODE.replaceAll('.', '\\.')}';`));
  });

  it('should compare versions part by part', () => {
    assert.equal(nodeAtLeast('22.17.0'), true);
    assert.equal(nodeAtLeast('v24.1.0'), true);
    assert.equal(nodeAtLeast('22.9.0'), false);
    assert.equal(nodeAtLeast('20.20.2'), false);
    assert.doesNotThrow(() => assertSupportedNode(process.versions.node));
    assert.throws(
      () => assertSupportedNode('20.20.2'),
      (error: Error & { code?: string }) =>
        error.code === 'FOLIO_NODE_VERSION' && /needs Node\.js 22\.17\.0 or newer .*this is Node\.js 20\.20\.2/.test(error.message),
    );
  });

  it("should stop the folio command at once on the machine's older Node, naming both versions", async function () {
    const version = existsSync(OLD_NODE) ? (await run(OLD_NODE, ['--version'])).stdout.trim() : '';
    if (version === '' || nodeAtLeast(version)) this.skip();
    const failed = await run(OLD_NODE, ['bin/folio.js', '--help']).then(
      () => assert.fail('folio ran on an unsupported Node'),
      (error: { code?: number; stderr?: string }) => error,
    );
    assert.equal(failed.code, 2);
    assert.match(
      failed.stderr ?? '',
      new RegExp(`needs Node\\.js ${MIN_NODE.replaceAll('.', '\\.')} or newer; this is Node\\.js ${version.slice(1).replaceAll('.', '\\.')}`),
    );
  });
});
