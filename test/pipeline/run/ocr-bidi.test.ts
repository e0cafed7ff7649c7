import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import bidiModule from 'bidi-js';
import { sha256 } from '../../../core/hash.ts';
import type { SourceDocument } from '../../../core/types.ts';
import { processDocument } from '../../../pipeline/run/index.ts';
import { logicalOcrMarkdown, readsVisual } from '../../../pipeline/run/ocr-bidi.ts';

// bidi-js is CommonJS whose typings declare an ES default export.
const bidi = ((bidiModule as unknown as { default?: () => unknown }).default ?? bidiModule) as unknown as () => {
  getEmbeddingLevels(text: string, direction: string): unknown;
  getReorderedString(text: string, levels: unknown): string;
};
const algorithm = bidi();

/** Logical text as it sits on the page, left to right: what an OCR engine that reads pixels in order writes. */
const toVisual = (logical: string): string => algorithm.getReorderedString(logical, algorithm.getEmbeddingLevels(logical, 'rtl'));

describe('logicalOcrMarkdown', () => {
  let lines: string[];
  before(async () => {
    // The Arabic page of the docling dev set, as its reference gives it (logical order).
    const reference = await readFile('../shared/data/docling-dev/groundtruth/right_to_left_01.md', 'utf8');
    lines = reference
      .split('\n')
      .map((l) => l.replace(/^#+\s*/, '').trim())
      .filter((l) => /[\u0600-\u06ff]/.test(l))
      .slice(0, 4)
      .map((l) => l.slice(0, 200));
    assert.ok(lines.length >= 2);
  });

  it('should put visual-order Arabic, Latin words and digits inside, back into logical order', () => {
    const visual = lines.map(toVisual).join('\n\n');
    assert.ok(readsVisual(visual));
    assert.equal(logicalOcrMarkdown(visual), lines.join('\n\n'));
  });

  it('should leave logical-order text as it is', () => {
    const logical = lines.join('\n\n');
    assert.equal(readsVisual(logical), false);
    assert.equal(logicalOcrMarkdown(logical), logical);
  });

  it('should normalise presentation forms and keep lam-alef ligatures whole in visual order', () => {
    // `بلغة لا البرمجة` drawn with shaped glyphs, left to right on the page.
    const visual = 'ﺔﺠﻣﺮﺒﻟﺍ ﻻ ﺔﻐﻠﺑ';
    assert.equal(logicalOcrMarkdown(`## ${visual}\n\n${visual}`), '## بلغة لا البرمجة\n\nبلغة لا البرمجة');
    // Logical order in presentation forms: only normalised.
    assert.equal(logicalOcrMarkdown('ﺑﻠﻐﺔ ﻻ ﺍﻟﺒﺮﻣﺠﺔ'), 'بلغة لا البرمجة');
  });

  it('should leave grounding tags and HTML in place', () => {
    const visual = toVisual(lines[0]!);
    const page = `<|ref|>text<|/ref|><|det|>[[10, 10, 990, 40]]<|/det|>\n${visual}\n\n<table><tr><td>${toVisual(lines[1]!)}</td><td>12</td></tr></table>`;
    assert.equal(
      logicalOcrMarkdown(page),
      `<|ref|>text<|/ref|><|det|>[[10, 10, 990, 40]]<|/det|>\n${lines[0]}\n\n<table><tr><td>${lines[1]}</td><td>12</td></tr></table>`,
    );
  });

  it('should give logical text in the elements of a visual-order OCR Markdown input', async () => {
    const text = lines.map(toVisual).join('\n\n');
    const bytes = new TextEncoder().encode(text);
    const doc: SourceDocument = { id: sha256('rtl'), uri: 'file:///rtl.md', relativePath: 'rtl.md', mime: 'text/markdown', bytes, contentHash: sha256(bytes) };
    const result = await processDocument(doc, { engine: 'auto' });
    assert.equal(result.elements[0]?.text, lines[0]);
  });
});
