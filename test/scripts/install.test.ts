import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '../../core/errors.ts';
import { esLayout, findJavaHome, installElasticsearch } from '../../scripts/elasticsearch/index.ts';

describe('installElasticsearch', () => {
  it('should download only through Maven: no repository address in the code', async () => {
    const source = await readFile('scripts/elasticsearch/install.ts', 'utf8');
    assert.doesNotMatch(source, /https?:\/\//);
  });

  it('should stop with a clear message, naming Maven, when mvn is missing', async () => {
    const root = await mkdtemp(join(tmpdir(), 'folio-install-'));
    const path = process.env['PATH'];
    // A PATH with nothing on it: `mvn` cannot be found.
    process.env['PATH'] = root;
    try {
      await assert.rejects(
        installElasticsearch({ layout: esLayout({ root }), javaHome: findJavaHome() }),
        (error: unknown) => error instanceof ConfigurationError && error.code === 'FOLIO_ES_NO_MAVEN' && /needs Maven/.test(error.message),
      );
    } finally {
      process.env['PATH'] = path;
      await rm(root, { recursive: true, force: true });
    }
  });
});
