import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadCorpus } from '../../../bench/factory/corpus/index.ts';
import { slidesFamily } from '../../../bench/factory/families/slides.ts';
import { layerPages } from '../../../bench/factory/layer.ts';
import { libreOfficeRenderer } from '../../../bench/factory/render/libreoffice.ts';
import type { PlannedDocument } from '../../../bench/factory/types.ts';
import { seededRandom } from '../../../bench/scans/random.ts';
import { printAndCheck } from '../../support/factory-truth.ts';

const plan = async (variant: string, seed: string): Promise<PlannedDocument> => {
  const id = `slides-${variant}-001`;
  return slidesFamily.plan(variant, { random: seededRandom(`${seed}/${id}`), corpus: await loadCorpus(), index: 0, id });
};

const truthOf = (d: PlannedDocument): string =>
  JSON.stringify({
    blocks: d.blocks,
    furniture: [1, 2, 3].map((p) => d.furniture(p, 3)),
    source: Buffer.from((d.source as { bytes: Uint8Array }).bytes).toString('base64'),
  });

describe('bench factory: slidesFamily', () => {
  it('plans the same deck for the same seed, another for another seed', async () => {
    for (const variant of slidesFamily.variants) {
      assert.equal(truthOf(await plan(variant, 's1')), truthOf(await plan(variant, 's1')), variant);
      assert.notEqual(truthOf(await plan(variant, 's1')), truthOf(await plan(variant, 's2')), variant);
    }
  });

  it('gives the title slide no furniture, every other slide its number', async () => {
    for (const variant of slidesFamily.variants) {
      const d = await plan(variant, 's3');
      assert.deepEqual(d.furniture(1, 4), { header: [], footer: [] });
      assert.ok(
        d.furniture(3, 4).footer.some((l) => l.includes('3')),
        variant,
      );
      assert.equal(d.blocks[0]?.kind, 'heading');
    }
  });

  it('prints one page per slide with Impress, the furniture on its slide and the bullets and cells in the text layer', async function () {
    this.timeout(180_000);
    await libreOfficeRenderer.ensure(() => {});
    const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-slides-'));
    try {
      // A seed whose decks hold a statement, a two-column and a table slide.
      const docs = [await plan('standard', 'ci-12'), await plan('wide', 'ci-12')];
      const checks = await printAndCheck(libreOfficeRenderer, docs, dir);
      const kinds = new Set(docs.flatMap((d) => d.blocks.map((b) => b.kind)));
      for (const kind of ['heading', 'list', 'table', 'paragraph']) assert.ok(kinds.has(kind as never), `${kind} in ${[...kinds].join(',')}`);
      for (const [i, d] of docs.entries()) {
        const check = checks[i]!;
        const slides = d.blocks.filter((b) => b.kind === 'heading' && b.level <= 2).length;
        assert.equal(check.pages, slides, `${d.id}: one page per slide`);
        assert.ok(check.pages >= 2, `${d.id} has ${check.pages} slides`);
        assert.ok(check.furniture.checked >= check.pages - 1, d.id);
        // Each slide's title is on its own page, not just somewhere in the deck.
        const pages = await layerPages(path.join(dir, `${d.id}.pdf`));
        const titles = d.blocks.filter((b): b is { kind: 'heading'; level: number; text: string } => b.kind === 'heading' && b.level <= 2);
        titles.forEach((t, i) => assert.ok(pages[i]!.replace(/\s+/g, ' ').includes(t.text), `${d.id}: "${t.text}" on page ${i + 1}`));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
