import assert from 'node:assert/strict';
import { convexHull, minAreaRect, unclip } from '../../../inference/paddle/geometry.ts';

describe('minAreaRect', () => {
  it('should recover a rotated rectangle from its corners', () => {
    const angle = (10 * Math.PI) / 180;
    const c = Math.cos(angle);
    const s = Math.sin(angle);
    const corners = [
      [-50, -10],
      [50, -10],
      [50, 10],
      [-50, 10],
    ].map(([u, v]) => [200 + u! * c - v! * s, 100 + u! * s + v! * c] as const);
    const box = minAreaRect(corners);
    assert.ok(Math.abs(box.w - 100) < 1e-6 && Math.abs(box.h - 20) < 1e-6, JSON.stringify(box));
    assert.ok(Math.abs(box.angle - angle) < 1e-6);
    assert.ok(Math.abs(box.cx - 200) < 1e-6 && Math.abs(box.cy - 100) < 1e-6);
    assert.equal(convexHull(corners).length, 4);
  });

  it('should grow a box by area × ratio / perimeter on every side', () => {
    const grown = unclip({ cx: 0, cy: 0, w: 100, h: 20, angle: 0 }, 1.5);
    assert.equal(grown.w, 125);
    assert.equal(grown.h, 45);
  });
});
