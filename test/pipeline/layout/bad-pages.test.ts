import assert from 'node:assert/strict';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import type { Fragment } from '../../../pipeline/layout/index.ts';
import { layoutPage } from '../../../pipeline/layout/index.ts';
import { firstPage } from '../../support/text-layer.ts';

const fragment = (text: string, x0: number, top: number, size = 10): Fragment => ({
  text,
  x0,
  x1: x0 + 0.5 * size * text.length,
  y: top + 0.8 * size,
  top,
  bottom: top + size,
  size,
  font: 'Helvetica',
});

const page = (fragments: Fragment[], width: number, height: number) => ({
  pageNumber: 1,
  origin: 'text-layer' as const,
  width,
  height,
  fragments,
  rules: { horizontal: [], vertical: [] },
  images: [],
});

describe('layoutPage on bad pages', function () {
  this.timeout(300_000);

  it('should lay out a page of 10,000 lines', () => {
    const fragments = Array.from({ length: 10_000 }, (_, i) => fragment(`Line ${i + 1} of a page that never ends.`, 72, 12 * i + 10));
    const { markdown } = layoutPage(page(fragments, 612, 12 * 10_000 + 40));
    assert.match(markdown, /Line 1 of a page/);
    assert.match(markdown, /Line 10000 of a page/);
  });

  it('should lay out 200 one-character columns', () => {
    const fragments: Fragment[] = [];
    for (let row = 0; row < 40; row++)
      for (let col = 0; col < 200; col++) fragments.push(fragment(String.fromCharCode(65 + ((row * 7 + col) % 26)), 10 + col * 10, 20 + row * 14, 8));
    const { markdown } = layoutPage(page(fragments, 2020, 600));
    assert.ok(markdown.length > 0);
  });

  it('should lay out a page of nothing but rules', () => {
    const rules = {
      horizontal: Array.from({ length: 2000 }, (_, i) => ({ at: 0.4 * i, from: 0, to: 612 })),
      vertical: Array.from({ length: 1500 }, (_, i) => ({ at: 0.4 * i, from: 0, to: 792 })),
    };
    const { markdown } = layoutPage({ ...page([fragment('Alone among the rules.', 72, 100)], 612, 792), rules });
    assert.match(markdown, /Alone among the rules\./);
  });
});

describe('text layer pages with text rotated in blocks and glyphs off the page', function () {
  this.timeout(120_000);

  it('should read upright text beside blocks set at slants and quarter turns', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const p = doc.addPage([612, 792]);
    for (let i = 0; i < 6; i++) p.drawText(`Upright body line ${i + 1} of the page.`, { x: 72, y: 700 - i * 14, size: 11, font });
    for (const [angle, x, y] of [
      [30, 100, 300],
      [90, 500, 200],
      [180, 400, 500],
      [270, 300, 600],
      [-45, 200, 150],
    ] as const) {
      for (let i = 0; i < 4; i++) p.drawText(`Turned block ${angle} line ${i + 1}`, { x: x + i * 12, y: y - i * 12, size: 10, font, rotate: degrees(angle) });
    }
    const result = await firstPage(await doc.save(), 'rotated-blocks.pdf');
    for (let i = 1; i <= 6; i++) assert.match(result.markdown, new RegExp(`Upright body line ${i} of the page\\.`));
  });

  it('should keep text placed outside the media box out of the body', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const p = doc.addPage([612, 792]);
    for (let i = 0; i < 5; i++) p.drawText(`Visible line ${i + 1} on the page.`, { x: 72, y: 700 - i * 14, size: 11, font });
    p.drawText('Parked far to the left', { x: -900, y: 500, size: 11, font });
    p.drawText('Parked above the top', { x: 72, y: 1400, size: 11, font });
    p.drawText('Parked below the foot', { x: 72, y: -300, size: 11, font });
    const result = await firstPage(await doc.save(), 'off-page.pdf');
    for (let i = 1; i <= 5; i++) assert.match(result.markdown, new RegExp(`Visible line ${i} on the page\\.`));
    assert.doesNotMatch(result.markdown, /Parked/);
  });
});
