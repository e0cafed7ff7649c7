import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { squash } from '../../../bench/factory/check/index.ts';
import type { Corpus } from '../../../bench/factory/corpus/index.ts';
import { SCRIPT_VARIANTS, scriptsFamily } from '../../../bench/factory/families/scripts.ts';
import { clean, namer } from '../../../bench/factory/families/scripts-text.ts';
import { chromiumRenderer } from '../../../bench/factory/render/chromium.ts';
import type { PlannedDocument } from '../../../bench/factory/types.ts';
import { seededRandom } from '../../../bench/scans/random.ts';
import { preparePrinting, printAndCheck } from '../../support/factory-truth.ts';

const log = (line: string): void => {
  process.stderr.write(`  ${line}\n`);
};

/** The family draws no corpus text (ICU gives its names): an empty corpus keeps the harvest out of this test. */
const corpus: Corpus = { paragraphs: [], headings: [], items: [], code: [], tables: [], packages: [], draw: () => [] };
const plan = async (variant: string, n: number, seed = 'test-scripts'): Promise<PlannedDocument> => {
  const id = `scripts-${variant}-${String(n).padStart(3, '0')}`;
  return scriptsFamily.plan(variant, { random: seededRandom(`${seed}/${id}`), corpus, index: n, id });
};
const decided = (d: PlannedDocument): string => JSON.stringify({ source: d.source, blocks: d.blocks, furniture: [1, 2].map((n) => d.furniture(n, 2)) });
const texts = (d: PlannedDocument): string =>
  d.blocks
    .map((b) =>
      b.kind === 'table' ? b.table.cells.map((c) => c.text).join(' ') : b.kind === 'list' ? b.items.map((i) => i.text).join(' ') : 'text' in b ? b.text : '',
    )
    .join(' ');

describe('bench factory: scripts', () => {
  describe('namer', () => {
    it('names and numbers as the locale prints them, without the bidi marks ICU adds', () => {
      assert.equal(namer('fa').number(1234.5, 2), '۱٬۲۳۴٫۵۰');
      assert.equal(namer('ar-EG').digits(2026), '٢٠٢٦');
      assert.equal(namer('he').region('EG'), 'מצרים');
      assert.equal(namer('zh').currency('EUR'), '欧元');
      assert.equal(clean('\u200f1,234.50\u00a0€'), '1,234.50 €');
    });
  });

  describe('scriptsFamily.plan', () => {
    it('plans the same document for the same seed and another for another seed', async () => {
      for (const [n, variant] of SCRIPT_VARIANTS.entries()) {
        assert.equal(decided(await plan(variant, n)), decided(await plan(variant, n)));
        assert.notEqual(decided(await plan(variant, n)), decided(await plan(variant, n, 'other-seed')));
      }
    });

    it('writes each variant in its script and direction, the truth in logical order without bidi marks', async () => {
      const want: Record<string, RegExp> = {
        arabic: /[\u0627-\u064a]/,
        hebrew: /[\u05d0-\u05ea]/,
        persian: /[\u06cc\u06a9\u067e]/,
        chinese: /[\u4e00-\u9fff]/,
        korean: /[\uac00-\ud7a3]/,
      };
      for (const [n, variant] of SCRIPT_VARIANTS.entries()) {
        const d = await plan(variant, n);
        assert.equal(d.source.renderer, 'chromium');
        const all = texts(d);
        assert.doesNotMatch(all, /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/, variant);
        if (d.script === 'mixed') for (const re of Object.values(want)) assert.match(all, re, variant);
        else assert.match(all, want[d.script!]!, variant);
        const html = d.source.renderer === 'chromium' ? d.source.html : '';
        assert.match(html, d.script === 'arabic' || d.script === 'hebrew' || d.script === 'persian' ? /dir="rtl"/ : /dir="ltr"/);
        assert.equal(d.blocks[0]?.kind, 'heading');
      }
      assert.match(texts(await plan('persian-form', 3)), /[۰-۹]/, 'Persian digits');
    });
  });

  describe('printed by Chromium', () => {
    let dir: string;
    before(async function () {
      this.timeout(1_500_000);
      dir = await preparePrinting(chromiumRenderer, log);
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('prints documents whose truth and furniture agree with their text layer page by page', async () => {
      const docs = [await plan('persian-form', 3), await plan('hebrew-notes', 2), await plan('chinese-report', 4)];
      const checks = await printAndCheck(chromiumRenderer, docs, dir, log);
      for (const [i, d] of docs.entries()) {
        const check = checks[i]!;
        // Most of the body is found as written, not only word by word.
        const all = d.blocks.length;
        assert.ok(check.body.reordered.length <= all / 3, `${d.id}: ${check.body.reordered.length} of ${all} only word by word`);
      }
    });

    it('compares Arabic the way a text layer spells it (vowel marks, lam-alef order)', () => {
      assert.equal(squash('لطفاً'), squash('لطفًا'));
      assert.equal(squash('عملاتها'), squash('عمالتها'));
      assert.notEqual(squash('عملاتها'), squash('عملتها'));
    });
  });
});
