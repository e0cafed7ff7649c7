import assert from 'node:assert/strict';
import { dbBoxes } from '../../../inference/paddle/detect.ts';

describe('dbBoxes', () => {
  it('should find one box per text blob and drop faint ones', () => {
    const width = 100;
    const height = 40;
    const map = new Float32Array(width * height);
    for (let y = 10; y < 16; y++) for (let x = 10; x < 60; x++) map[y * width + x] = 0.9;
    for (let y = 25; y < 30; y++) for (let x = 10; x < 40; x++) map[y * width + x] = 0.4;
    const boxes = dbBoxes(map, width, height, { threshold: 0.3, boxThreshold: 0.6, unclipRatio: 1.5 });
    assert.equal(boxes.length, 1);
    const box = boxes[0]!.box;
    assert.ok(Math.abs(box.cx - 35) < 1 && Math.abs(box.cy - 13) < 1, JSON.stringify(box));
    assert.ok(box.w > 50 && box.h > 6);
  });
});
