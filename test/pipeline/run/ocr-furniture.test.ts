import assert from 'node:assert/strict';
import { sha256 } from '../../../core/hash.ts';
import type { SourceDocument } from '../../../core/types.ts';
import { processDocument } from '../../../pipeline/run/index.ts';

/** OCR output from elsewhere (a remote engine's Markdown), pages separated by form feeds, with no furniture labels. */
function ocrPage(head: string, foot: string, body: string): string {
  return [
    `<|ref|>text<|/ref|><|det|>[[120, 30, 880, 50]]<|/det|>\n${head}`,
    `<|ref|>text<|/ref|><|det|>[[120, 90, 880, 700]]<|/det|>\n${body}`,
    `<|ref|>text<|/ref|><|det|>[[480, 950, 520, 970]]<|/det|>\n${foot}`,
  ].join('\n\n');
}

function markdownDoc(name: string, text: string): SourceDocument {
  const bytes = new TextEncoder().encode(text);
  return { id: sha256(name), uri: `file:///${name}`, relativePath: name, mime: 'text/markdown', bytes, contentHash: sha256(bytes) };
}

describe('OCR page furniture across a document', () => {
  it('should take repeated running heads and page numbers of unlabelled OCR pages out of the body', async () => {
    // A book's spread: the verso head carries the book's title, the recto head the chapter's.
    const pages = [
      ocrPage('400 BRITISH HUSBANDRY.', '400', 'The turnip crop has been ten-fold since the use of bones became general.'),
      ocrPage('BONES AS MANURE. 401', '401', 'On light loams the returns give bones a preference to farm-yard dung.'),
      ocrPage('402 BRITISH HUSBANDRY.', '402', 'On peat soils, if drained and laid dry, their advantages are striking.'),
      ocrPage('BONES AS MANURE. 403', '403', 'On gravels the reports are meagre and contradictory.'),
    ];
    const result = await processDocument(markdownDoc('husbandry.md', pages.join('\n\f')), { engine: 'auto' });
    const kinds = result.elements.map((e) => `${e.pageNumber}:${e.kind}:${e.text.slice(0, 20)}`);
    assert.equal(result.elements.filter((e) => e.kind === 'pageHeader').length, 4, kinds.join('\n'));
    assert.equal(result.elements.filter((e) => e.kind === 'pageFooter').length, 4, kinds.join('\n'));
    assert.doesNotMatch(result.markdown, /HUSBANDRY|MANURE|\b40[0-3]\b/);
    assert.match(result.markdown, /turnip crop/);
  });

  it('should keep an edge paragraph that neither repeats nor reads as a page number', async () => {
    const result = await processDocument(
      markdownDoc('one.md', ocrPage('Results of the spring trials', 'Signed for the committee', 'The crop was sown in March.')),
      { engine: 'auto' },
    );
    assert.deepEqual(
      result.elements.filter((e) => e.kind === 'pageHeader' || e.kind === 'pageFooter').map((e) => e.text),
      [],
    );
  });
});
