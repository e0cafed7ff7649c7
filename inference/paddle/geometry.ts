/**
 * Rotated rectangles for text lines: convex hull, minimum-area rectangle (rotating calipers over
 * the hull edges) and the DB "unclip" that grows a shrunk text kernel back to the full line.
 */

/** A text line box: centre, length along the text, height across it, angle of the text axis. */
export interface RotatedBox {
  readonly cx: number;
  readonly cy: number;
  /** Length along the text direction (the longer side). */
  readonly w: number;
  /** Height across the text direction. */
  readonly h: number;
  /** Angle of the text axis in radians, in (-π/2, π/2]; 0 is horizontal. */
  readonly angle: number;
}

export type Point = readonly [number, number];

/** Andrew's monotone chain; returns the hull counter-clockwise without repeating the first point. */
export function convexHull(points: readonly Point[]): Point[] {
  const pts = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const cross = (o: Point, a: Point, b: Point): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Point[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  lower.pop();
  upper.pop();
  return lower.concat(upper);
}

/**
 * The minimum-area rectangle around a point set. One side of the optimum lies on a hull edge,
 * so trying each edge direction is exact.
 */
export function minAreaRect(points: readonly Point[]): RotatedBox {
  const hull = convexHull(points);
  if (hull.length === 0) return { cx: 0, cy: 0, w: 0, h: 0, angle: 0 };
  let best = { area: Infinity, cx: 0, cy: 0, w: 0, h: 0, angle: 0 };
  const edges =
    hull.length < 2
      ? [0]
      : hull.map((p, i) => {
          const q = hull[(i + 1) % hull.length]!;
          return Math.atan2(q[1] - p[1], q[0] - p[0]);
        });
  for (const theta of edges) {
    const c = Math.cos(theta);
    const s = Math.sin(theta);
    let minU = Infinity;
    let maxU = -Infinity;
    let minV = Infinity;
    let maxV = -Infinity;
    for (const [x, y] of hull) {
      const u = x * c + y * s;
      const v = -x * s + y * c;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < best.area) {
      const mu = (minU + maxU) / 2;
      const mv = (minV + maxV) / 2;
      best = { area, cx: mu * c - mv * s, cy: mu * s + mv * c, w: maxU - minU, h: maxV - minV, angle: theta };
    }
  }
  return normaliseBox(best);
}

/** Make `w` the longer side and bring the angle into (-π/2, π/2]. */
export function normaliseBox(box: RotatedBox): RotatedBox {
  let { w, h, angle } = box;
  if (h > w) {
    [w, h] = [h, w];
    angle += Math.PI / 2;
  }
  while (angle > Math.PI / 2) angle -= Math.PI;
  while (angle <= -Math.PI / 2) angle += Math.PI;
  return { cx: box.cx, cy: box.cy, w, h, angle };
}

/**
 * Grow a box by the DB offset `area × ratio / perimeter` on every side: the model predicts a
 * shrunk kernel of each line, this restores the line's real extent.
 */
export function unclip(box: RotatedBox, ratio: number): RotatedBox {
  const perimeter = 2 * (box.w + box.h);
  const d = perimeter > 0 ? (box.w * box.h * ratio) / perimeter : 0;
  return { ...box, w: box.w + 2 * d, h: box.h + 2 * d };
}

/** The axis-aligned bounds of a rotated box. */
export function boxBounds(box: RotatedBox): [x1: number, y1: number, x2: number, y2: number] {
  const c = Math.abs(Math.cos(box.angle));
  const s = Math.abs(Math.sin(box.angle));
  const hw = (box.w * c + box.h * s) / 2;
  const hh = (box.w * s + box.h * c) / 2;
  return [box.cx - hw, box.cy - hh, box.cx + hw, box.cy + hh];
}
