import assert from 'node:assert/strict';
import { cutAtGutters, findGutters } from '../../../inference/paddle/gutters.ts';
import { inkProfile } from '../../../inference/paddle/ink.ts';

type Bounds = [number, number, number, number];

/** Two justified columns of 12 lines (x 100–580 and 620–1100), line boxes 36 px high. */
function twoColumns(): Bounds[] {
  const out: Bounds[] = [];
  for (let i = 0; i < 12; i++) {
    const y = 200 + 40 * i;
    out.push([100, y, 580, y + 36], [620, y, 1100, y + 36]);
  }
  return out;
}

describe('findGutters', () => {
  it('should find the gutter between two columns even when DB joined a line across it', () => {
    const bounds = twoColumns();
    bounds.splice(6, 2, [100, 320, 1100, 356]);
    const gutters = findGutters(bounds.map((b) => ({ bounds: b })));
    assert.equal(gutters.length, 1, JSON.stringify(gutters));
    assert.ok(gutters[0]! > 570 && gutters[0]! < 630, String(gutters[0]));
  });

  it('should find none in a single column of ragged lines', () => {
    const bounds: Bounds[] = [];
    for (let i = 0; i < 20; i++) bounds.push([100, 200 + 40 * i, 900 + ((i * 37) % 200), 236 + 40 * i]);
    assert.deepEqual(findGutters(bounds.map((b) => ({ bounds: b }))), []);
  });

  it('should find a gutter DB joined most lines across, where their ink is white, and not where it is inked', () => {
    // Ten lines run across 100–1100; the ink of each is white from 585 to 615 (or never).
    const profile = (white: boolean): Uint8Array => new Uint8Array(1000).map((_, u) => (white && u + 100 >= 585 && u + 100 < 615 ? 0 : u % 12 < 9 ? 1 : 0));
    const lines = (white: boolean) => [
      ...Array.from({ length: 10 }, (_, i) => ({ bounds: [100, 200 + 40 * i, 1100, 236 + 40 * i] as const, ink: profile(white) })),
      ...[0, 1].flatMap((i) => [{ bounds: [100, 600 + 40 * i, 580, 636 + 40 * i] as const }, { bounds: [620, 600 + 40 * i, 1100, 636 + 40 * i] as const }]),
    ];
    const found = findGutters(lines(true));
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.ok(Math.abs(found[0]! - 600) < 20, String(found[0]));
    assert.deepEqual(findGutters(lines(false)), []);
  });
});

describe('cutAtGutters', () => {
  it('should cut a joined line at the gutter where the image is white there, and not where it is inked', () => {
    const width = 1200;
    const height = 100;
    const image = (gap: boolean): { data: Uint8Array; width: number; height: number } => {
      const data = new Uint8Array(width * height * 3).fill(255);
      for (let x = 100; x < 1100; x++) {
        if (gap && x >= 585 && x < 615) continue;
        if (x % 12 >= 9) continue; // letters with small spaces between
        for (let y = 40; y < 60; y++) data.fill(0, (y * width + x) * 3, (y * width + x) * 3 + 3);
      }
      return { data, width, height };
    };
    const box = { cx: 600, cy: 50, w: 1010, h: 36, angle: 0 };
    const pieces = cutAtGutters(box, inkProfile(image(true), box), 95, [600]);
    assert.equal(pieces.length, 2, JSON.stringify(pieces));
    assert.ok(pieces[0]!.cx + pieces[0]!.w / 2 <= 600 && pieces[1]!.cx - pieces[1]!.w / 2 >= 590, JSON.stringify(pieces));
    assert.equal(cutAtGutters(box, inkProfile(image(false), box), 95, [600]).length, 1);
  });
});
