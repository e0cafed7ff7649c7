import assert from 'node:assert/strict';
import { sha256, stableId } from '../../../core/hash.ts';
import type { SourceDocument } from '../../../core/types.ts';
import { processDocument, SummaryBuilder } from '../../../pipeline/run/index.ts';

function markdownDoc(name: string, text: string): SourceDocument {
  const bytes = new TextEncoder().encode(text);
  const uri = `file:///tmp/${name}`;
  return { id: stableId(uri), uri, relativePath: name, mime: 'text/markdown', bytes, contentHash: sha256(bytes) };
}

describe('SummaryBuilder', () => {
  it('should count every page: read, blank, and dead-lettered by the quality gate', async () => {
    // Three pages (form feeds): text, an empty one, and a degenerate loop the gate dead-letters.
    const loop = Array.from({ length: 400 }, () => 'the same words again').join(' ');
    const doc = markdownDoc('three.md', `# Title\n\nA real paragraph of text.\f \f${loop}\n`);
    const result = await processDocument(doc, {});
    assert.equal(result.failures.filter((f) => f.code === 'FOLIO_QUALITY_GATE').length, 1, JSON.stringify(result.failures));
    const builder = new SummaryBuilder();
    builder.document(result);
    const summary = builder.build();
    assert.equal(summary.pages, 3);
    assert.equal(summary.pagesFailed, 1, 'the dead-lettered page counts as failed');
    assert.equal(summary.pagesBlank, 1, 'the empty page counts as blank');
    assert.equal(summary.pagesByEngine['markdown'], 3);
  });
});
