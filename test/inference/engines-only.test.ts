import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';

/** Every `.ts` file under `dir`. */
async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name));
}

describe('inference/ holds engines only', () => {
  it('should import nothing from the pipeline, the server, the CLI or retrieval', async () => {
    const root = resolve('.');
    const outside = ['pipeline', 'server', 'cli', 'retrieval', 'connector', 'api'].map((d) => resolve(root, d));
    const offending: string[] = [];
    for (const file of await sources(resolve(root, 'inference'))) {
      const text = await readFile(file, 'utf8');
      for (const [, spec] of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+['"](\.[^'"]+)['"]/g)) {
        const target = resolve(file, '..', spec!);
        if (outside.some((dir) => target === dir || target.startsWith(`${dir}/`))) offending.push(`${relative(root, file)} → ${spec}`);
      }
    }
    // Layout is the pipeline's (`pipeline/layout`): engines hand it positioned lines.
    assert.deepEqual(offending, []);
  });
});
