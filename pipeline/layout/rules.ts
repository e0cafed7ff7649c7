/**
 * Drawn rules of a positioned page: the straight, axis-aligned strokes a table or a formula's
 * fraction bar is drawn with, whatever found them (a PDF's paths, `pipeline/text-layer/rules.ts`;
 * long thin dark runs of a scan's pixels, `inference/paddle/rules.ts`).
 */

/** A rule: horizontal ones run `from`–`to` in x at `at` = y; vertical ones in y at `at` = x. */
export interface Rule {
  at: number;
  from: number;
  to: number;
}

export interface PageRules {
  readonly horizontal: Rule[];
  readonly vertical: Rule[];
}

/** How close collinear pieces must be to join (points). */
const JOIN = 1.5;

/** Collinear rules that touch or nearly touch joined into one (a thin bar's two long sides become one rule). */
export function mergedRules(rules: readonly Rule[]): Rule[] {
  const sorted = [...rules].sort((p, q) => p.at - q.at || p.from - q.from);
  const lines: Rule[][] = [];
  for (const r of sorted) {
    const last = lines.at(-1);
    if (last !== undefined && r.at - last[0]!.at <= JOIN) last.push(r);
    else lines.push([r]);
  }
  const out: Rule[] = [];
  for (const line of lines) {
    const at = line.reduce((sum, r) => sum + r.at, 0) / line.length;
    const pieces = [...line].sort((p, q) => p.from - q.from);
    let current: Rule | undefined;
    for (const r of pieces) {
      if (current !== undefined && r.from <= current.to + JOIN) current.to = Math.max(current.to, r.to);
      else {
        current = { at, from: r.from, to: r.to };
        out.push(current);
      }
    }
  }
  return out;
}
