import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sniffMime } from '../../../connector/index.ts';
import { isFolioErrorCode } from '../../../core/error-codes.ts';
import { sha256 } from '../../../core/hash.ts';
import type { SourceDocument } from '../../../core/types.ts';
import { processDocument } from '../../../pipeline/run/index.ts';

const DATA = '../shared/data/formats-dev';

/** Every file of the formats set (ground truth left out). */
function files(): string[] {
  return readdirSync(DATA, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(DATA, d.name), { withFileTypes: true })
        .filter((f) => f.isFile())
        .map((f) => join(DATA, d.name, f.name)),
    );
}

/** A small seeded generator, so a failure reproduces. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function damaged(bytes: Uint8Array, kind: number, next: () => number): Uint8Array {
  const copy = bytes.slice();
  if (kind === 0) return copy.subarray(0, Math.floor(copy.length * (0.3 + next() * 0.6)));
  if (kind === 1) {
    for (let i = 0; i < 40; i++) copy[Math.floor(next() * copy.length)] = Math.floor(next() * 256);
    return copy;
  }
  const from = Math.floor(next() * copy.length * 0.8);
  copy.fill(0, from, Math.min(copy.length, from + 64 + Math.floor(next() * 512)));
  return copy;
}

describe('format readers on damaged real files', function () {
  this.timeout(120_000);

  it('should read every formats-dev file whole, and turn every damaged copy into a result or a coded failure', async () => {
    const next = random(29);
    const all = files();
    assert.ok(all.length >= 50, `found ${all.length} files`);
    let failed = 0;
    for (const path of all) {
      const original = new Uint8Array(readFileSync(path));
      for (const kind of [-1, 0, 1, 2]) {
        const bytes = kind < 0 ? original : damaged(original, kind, next);
        const name = path.split('/').pop()!;
        const doc: SourceDocument = {
          id: sha256(path).slice(0, 16),
          uri: `file:///${name}`,
          relativePath: name,
          mime: sniffMime(bytes, name),
          bytes,
          contentHash: sha256(bytes),
        };
        const result = await processDocument(doc, { engine: 'text' });
        if (kind < 0 && !path.endsWith('LICENSE-docling')) assert.equal(result.ok, true, `${path}: ${JSON.stringify(result.failures)}`);
        for (const failure of result.failures) {
          assert.ok(isFolioErrorCode(failure.code), `${path} (damage ${kind}): unknown code ${failure.code}: ${failure.reason}`);
          assert.match(failure.reason, new RegExp(name.replace(/[.]/g, '\\.')), 'the reason names the document');
        }
        if (!result.ok) failed++;
      }
    }
    // Damage must be detected somewhere: a reader that accepts everything would pass the loop above.
    assert.ok(failed > 0, 'no damaged copy failed');
  });
});
