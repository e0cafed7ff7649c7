/**
 * A formula's atoms in two dimensions → LaTeX. Outermost structures first: fraction bars with
 * their numerator over and denominator under, radicals with the atoms under their vinculum, big
 * operators with their limits over and under; what is left sits on the main baseline, and the
 * smaller atoms raised or lowered after a base are its super- and subscripts (read the same way,
 * one level down). Full-size atoms off the baseline that nothing explains (matrix rows, aligned
 * lines) make the result unsure.
 */
import { type Atom, type Bar, centre } from './atoms.ts';
import { alignAtRelation, splitRows } from './rows.ts';
import { CMEX_DELIMITERS, CMEX_RADICAL, NEGATED } from './symbols.ts';
import { atomLatex, bigOperatorOf, joinLatex } from './tokens.ts';

export interface LayoutLatex {
  latex: string;
  /** Reasons to doubt it: glyphs without a reading, rows nothing explains. */
  doubts: string[];
}

/** An item on a baseline: one atom, or a structure already read (a fraction, a root). */
interface Item {
  readonly x0: number;
  readonly x1: number;
  readonly y: number;
  readonly size: number;
  readonly latex: string;
  /** A big operator that takes limits over and under. */
  readonly operator?: boolean;
  /** A sized delimiter: `\left`/`\right` go before it. */
  readonly delimiter?: boolean;
  readonly atom?: Atom;
}

const CLOSERS = new Set([')', ']', '\\}', '\\rangle', '\\rfloor', '\\rceil']);

/** The pieces of an extensible delimiter, stacked at one x, as one glyph (the top piece tells which). */
function mergeStacks(atoms: readonly Atom[]): Atom[] {
  const out: Atom[] = [];
  const pieces = atoms.filter((a) => /CMEX/i.test(a.font)).sort((p, q) => p.y - q.y);
  const merged = new Set<Atom>();
  for (const p of pieces) {
    if (merged.has(p)) continue;
    let top = p;
    let x0 = p.x0;
    let x1 = p.x1;
    let y = p.y;
    for (const q of pieces) {
      if (q === p || merged.has(q)) continue;
      const overlap = Math.min(x1, q.x1) - Math.max(x0, q.x0);
      if (overlap > 0.5 * Math.min(x1 - x0, q.x1 - q.x0) && q.y - y < 2 * p.size && CMEX_DELIMITERS.has(q.text.trim().slice(0, 1) || q.text.slice(0, 1))) {
        merged.add(q);
        x0 = Math.min(x0, q.x0);
        x1 = Math.max(x1, q.x1);
        y = Math.max(y, q.y);
      }
    }
    if (y !== p.y) top = { ...p, x0, x1 };
    out.push(top);
  }
  return [...atoms.filter((a) => !/CMEX/i.test(a.font)), ...out];
}

const group = (latex: string): string => (Array.from(latex).length === 1 || /^\\[a-zA-Z]+$/.test(latex) ? latex : `{${latex}}`);

/** The size and baseline most of the full-size text sits on. */
function mainLine(atoms: readonly Atom[]): { size: number; y: number } {
  // Big operators are set larger than the text around them (a display `∑` in a text font): they
  // tell neither the size nor the baseline.
  const text = atoms.filter((a) => !/CMEX/i.test(a.font) && bigOperatorOf(a) === undefined);
  const size = Math.max(...text.map((a) => a.size), 0) || Math.max(...atoms.map((a) => a.size));
  const weight = new Map<number, number>();
  for (const a of text) {
    if (a.size < 0.9 * size) continue;
    const key = Math.round(a.y * 2) / 2;
    weight.set(key, (weight.get(key) ?? 0) + a.text.length);
  }
  let y = atoms[0]?.y ?? 0;
  let best = -1;
  for (const [k, w] of weight) if (w > best) [y, best] = [k, w];
  return { size, y };
}

/**
 * @param atoms The glyph runs of one formula.
 * @param bars Horizontal rules among them (fraction bars, vincula).
 */
export function layoutLatex(atoms: readonly Atom[], bars: readonly Bar[]): LayoutLatex {
  const doubts: string[] = [];
  // Blank runs carry nothing; a blank extension-font glyph is a delimiter without a code (kept, as a doubt).
  const inked = atoms.filter((a) => a.text.replace(/[\s\u200b]/g, '') !== '' || /CMEX/i.test(a.font));
  const cases = readCases(mergeStacks(inked), bars);
  if (cases !== undefined) return { latex: cases, doubts };
  const matrix = readMatrices(mergeStacks(inked), bars);
  if (matrix !== undefined) return { latex: matrix, doubts };
  // Several lines, each one a relation read without doubt: an `aligned` display.
  const rows = splitRows(inked, bars);
  if (rows.length >= 2 && rows.length <= 12) {
    const read = rows.map((row) => {
      const own: string[] = [];
      const latex = readLevel(row.atoms, row.bars, own, 0);
      return { aligned: own.length === 0 ? alignAtRelation(latex) : undefined };
    });
    if (read.every((r) => r.aligned !== undefined)) return { latex: `\\begin{aligned}${read.map((r) => r.aligned).join('\\\\')}\\end{aligned}`, doubts };
  }
  const latex = readLevel(inked, bars, doubts, 0);
  return { latex, doubts };
}

/**
 * `f = { a if …; b otherwise }`: a sized left brace with no right one, rows after it, each row a
 * value and, past a wide gap, its condition. Undefined unless every part reads without doubt.
 */
function readCases(atoms: readonly Atom[], bars: readonly Bar[]): string | undefined {
  const brace = atoms.find((a) => /CMEX/i.test(a.font) && atomLatex(a).latex === '\\{');
  if (brace === undefined || atoms.some((a) => a.x0 > brace.x1 && /CMEX/i.test(a.font) && atomLatex(a).latex === '\\}')) return undefined;
  const after = atoms.filter((a) => a !== brace && a.x0 >= brace.x1 - 0.5);
  const before = atoms.filter((a) => a !== brace && !after.includes(a));
  const rows = splitRows(after, bars);
  if (rows.length < 2) return undefined;
  const doubts: string[] = [];
  const size = mainLine(after).size;
  const lines = rows.map((row) => {
    const sorted = [...row.atoms].sort((p, q) => p.x0 - q.x0);
    let cut = -1;
    let widest = 0.8 * size;
    for (let i = 1; i < sorted.length; i++) {
      const gap = sorted[i]!.x0 - Math.max(...sorted.slice(0, i).map((a) => a.x1));
      if (gap > widest) [cut, widest] = [i, gap];
    }
    const value = cut < 0 ? sorted : sorted.slice(0, cut);
    const condition = cut < 0 ? [] : sorted.slice(cut);
    const left = readLevel(
      value,
      row.bars.filter((b) => cut < 0 || b.x1 <= sorted[cut]!.x0),
      doubts,
      1,
    );
    return condition.length === 0
      ? left
      : `${left}&${readLevel(
          condition,
          row.bars.filter((b) => b.x0 >= sorted[cut]!.x0),
          doubts,
          1,
        )}`;
  });
  const lhs =
    before.length === 0
      ? ''
      : readLevel(
          before,
          bars.filter((b) => b.x1 <= brace.x0),
          doubts,
          1,
        );
  return doubts.length === 0 ? `${lhs}\\begin{cases}${lines.join('\\\\')}\\end{cases}` : undefined;
}

const MATRICES: Readonly<Record<string, string>> = { '(': 'pmatrix', '[': 'bmatrix', '\\{': 'Bmatrix', '|': 'vmatrix', '\\|': 'Vmatrix' };
const CLOSER_OF: Readonly<Record<string, string>> = { '(': ')', '[': ']', '\\{': '\\}', '|': '|', '\\|': '\\|' };

/**
 * Matrices: a pair of sized delimiters around rows of cells, the columns where no glyph of any
 * row covers the gap between them. Undefined unless every cell and the text around reads
 * without doubt.
 */
function readMatrices(atoms: readonly Atom[], bars: readonly Bar[]): string | undefined {
  const delimiters = atoms.filter((a) => /CMEX/i.test(a.font) && atomLatex(a).delimiter === true).sort((p, q) => p.x0 - q.x0);
  const opener = delimiters.find((d) => MATRICES[atomLatex(d).latex] !== undefined);
  if (opener === undefined) return undefined;
  const kind = atomLatex(opener).latex;
  const closer = delimiters.find((d) => d.x0 > opener.x1 && atomLatex(d).latex === CLOSER_OF[kind]);
  if (closer === undefined) return undefined;
  const inside = atoms.filter((a) => a.x0 >= opener.x1 - 0.5 && a.x1 <= closer.x0 + 0.5 && a !== opener && a !== closer);
  const rows = splitRows(inside, bars);
  if (rows.length < 2) return undefined;
  const size = mainLine(inside).size;
  // Columns: x ranges covered by some row's glyphs, split at gaps of at least 0.8 em.
  const spans = inside.map((a) => [a.x0, a.x1] as [number, number]).sort((p, q) => p[0] - q[0]);
  const columns: [number, number][] = [];
  for (const s of spans) {
    const last = columns.at(-1);
    if (last !== undefined && s[0] < last[1] + 0.8 * size) last[1] = Math.max(last[1], s[1]);
    else columns.push([s[0], s[1]]);
  }
  const doubts: string[] = [];
  const body = rows
    .map((row) =>
      columns
        .map(([x0, x1]) => {
          const cell = row.atoms.filter((a) => (a.x0 + a.x1) / 2 >= x0 && (a.x0 + a.x1) / 2 <= x1);
          return readLevel(
            cell,
            row.bars.filter((b) => b.x0 >= x0 - 1 && b.x1 <= x1 + 1),
            doubts,
            1,
          );
        })
        .join('&'),
    )
    .join('\\\\');
  const before = atoms.filter((a) => a.x1 <= opener.x0 + 0.5 && a !== opener);
  const after = atoms.filter((a) => a.x0 >= closer.x1 - 0.5 && a !== closer);
  const left =
    before.length === 0
      ? ''
      : readLevel(
          before,
          bars.filter((b) => b.x1 <= opener.x0),
          doubts,
          1,
        );
  const right =
    after.length === 0
      ? ''
      : (readMatrices(after, bars) ??
        readLevel(
          after,
          bars.filter((b) => b.x0 >= closer.x1),
          doubts,
          1,
        ));
  const env = MATRICES[kind]!;
  return doubts.length === 0 ? joinLatex([left, `\\begin{${env}}${body}\\end{${env}}`, right]) : undefined;
}

function readLevel(atoms: readonly Atom[], bars: readonly Bar[], doubts: string[], depth: number): string {
  if (atoms.length === 0) return '';
  if (depth > 8) {
    doubts.push('nested too deep');
    return '';
  }
  // Fractions and roots first, wherever the baseline is: their bars say where they are.
  const { size } = mainLine(atoms);
  let rest = mergeStacks(atoms);
  const items: Item[] = [];
  const inside = (a: Atom, x0: number, x1: number): boolean => centre(a) >= x0 - 0.5 && centre(a) <= x1 + 0.5;
  // Fraction bars, longest (outermost) first: atoms over the bar and under it, within its span.
  const levelBars = [...bars].sort((a, b) => b.x1 - b.x0 - (a.x1 - a.x0));
  const usedBars = new Set<Bar>();
  for (const bar of levelBars) {
    if (usedBars.has(bar)) continue;
    // A vinculum: a radical sign ends where the bar begins.
    const radical = rest.find(
      (a) =>
        (/√/.test(a.text) || (/CMEX/i.test(a.font) && CMEX_RADICAL.test(a.text.trim()))) && Math.abs(a.x1 - bar.x0) < 0.35 * size && a.y >= bar.y - 0.5 * size,
    );
    const within = rest.filter((a) => a !== radical && inside(a, bar.x0, bar.x1));
    if (radical !== undefined) {
      const body = within.filter((a) => a.y > bar.y && a.y - a.size < bar.y + 0.5 * size && a.y < bar.y + 2.5 * size);
      if (body.length === 0) continue;
      usedBars.add(bar);
      const inner = bars.filter((b) => b !== bar && b.x0 >= bar.x0 - 0.5 && b.x1 <= bar.x1 + 0.5 && b.y > bar.y);
      for (const b of inner) usedBars.add(b);
      // The index of a root sits small over the left of the radical sign.
      const index = rest.filter(
        (a) =>
          a !== radical &&
          a.size < 0.9 * size &&
          centre(a) < radical.x0 + 0.6 * (radical.x1 - radical.x0) &&
          centre(a) > radical.x0 - 0.5 * size &&
          a.y < bar.y + 0.6 * size,
      );
      const root = index.length > 0 ? `[${readLevel(index, [], doubts, depth + 1)}]` : '';
      const latex = `\\sqrt${root}{${readLevel(body, inner, doubts, depth + 1)}}`;
      rest = rest.filter((a) => a !== radical && !body.includes(a) && !index.includes(a));
      items.push({ x0: radical.x0, x1: bar.x1, y: Number.NaN, size, latex });
      continue;
    }
    const over = within.filter((a) => a.y < bar.y && a.y > bar.y - 3 * size);
    const under = within.filter((a) => a.y > bar.y && a.y < bar.y + 3 * size);
    // A bar right over atoms with nothing on it: an overline.
    const covered = under.filter((a) => a.y - 0.75 * a.size < bar.y + 0.3 * size);
    if (over.length === 0 && covered.length > 0) {
      usedBars.add(bar);
      rest = rest.filter((a) => !covered.includes(a));
      items.push({ x0: bar.x0, x1: bar.x1, y: Number.NaN, size, latex: `\\overline{${readLevel(covered, [], doubts, depth + 1)}}` });
      continue;
    }
    if (over.length === 0 || under.length === 0) continue;
    usedBars.add(bar);
    const nested = bars.filter((b) => b !== bar && !usedBars.has(b) && b.x0 >= bar.x0 - 0.5 && b.x1 <= bar.x1 + 0.5);
    for (const b of nested) usedBars.add(b);
    const numerator = readLevel(
      over,
      nested.filter((b) => b.y < bar.y),
      doubts,
      depth + 1,
    );
    const denominator = readLevel(
      under,
      nested.filter((b) => b.y > bar.y),
      doubts,
      depth + 1,
    );
    rest = rest.filter((a) => !over.includes(a) && !under.includes(a));
    items.push({ x0: bar.x0, x1: bar.x1, y: Number.NaN, size, latex: `\\frac{${numerator}}{${denominator}}` });
  }
  // The baseline of what is left, or of the structures when nothing is.
  const base = rest.length > 0 ? mainLine(rest).y : mainLine(atoms).y;
  // A fraction whose bar the page does not draw as a path (or that was not found): a full-size
  // piece over the baseline with one under it that it overlaps.
  for (const over of rest.filter((a) => a.size >= 0.9 * size && a.y < base - 0.3 * size)) {
    const under = rest.find((a) => a !== over && a.size >= 0.9 * size && a.y > base + 0.3 * size && Math.min(a.x1, over.x1) - Math.max(a.x0, over.x0) > 0);
    if (under === undefined) continue;
    rest = rest.filter((a) => a !== over && a !== under);
    items.push({
      x0: Math.min(over.x0, under.x0),
      x1: Math.max(over.x1, under.x1),
      y: Number.NaN,
      size,
      latex: `\\frac{${atomLatex(over).latex}}{${atomLatex(under).latex}}`,
    });
  }
  // Big operators with limits stacked over and under them (sums, products, unions; not integrals,
  // whose limits TeX sets as scripts).
  for (const op of rest.filter((a) => bigOperatorOf(a) !== undefined)) {
    const command = bigOperatorOf(op)!;
    const stacks = !/int$/.test(command);
    const span = (a: Atom): boolean => Math.min(a.x1, op.x1 + 0.3 * size) - Math.max(a.x0, op.x0 - 0.3 * size) > 0;
    const opTop = op.y - 0.9 * size;
    const opBottom = op.y + 0.35 * size;
    const limitOf = (a: Atom): boolean => a !== op && a.size < 0.9 * size && span(a);
    const upperSeed = stacks ? rest.filter((a) => limitOf(a) && a.y < opTop + 0.3 * size) : [];
    const lowerSeed = stacks ? rest.filter((a) => limitOf(a) && a.y - 0.7 * a.size > opBottom - 0.3 * size) : [];
    const grow = (seed: Atom[]): Atom[] => {
      if (seed.length === 0) return seed;
      const row = [...seed];
      for (let changed = true; changed; ) {
        changed = false;
        for (const a of rest) {
          if (row.includes(a) || a === op || a.size >= 0.9 * size) continue;
          if (row.some((r) => Math.abs(r.y - a.y) < 0.5 * r.size && Math.min(Math.abs(a.x0 - r.x1), Math.abs(r.x0 - a.x1)) < 0.4 * size)) {
            row.push(a);
            changed = true;
          }
        }
      }
      return row;
    };
    const upper = grow(upperSeed);
    const lower = grow(lowerSeed.filter((a) => !upper.includes(a)));
    rest = rest.filter((a) => a !== op && !upper.includes(a) && !lower.includes(a));
    const under = lower.length > 0 ? `_${group(readLevel(lower, [], doubts, depth + 1))}` : '';
    const over = upper.length > 0 ? `^${group(readLevel(upper, [], doubts, depth + 1))}` : '';
    const x0 = Math.min(op.x0, ...upper.map((a) => a.x0), ...lower.map((a) => a.x0));
    const x1 = Math.max(op.x1, ...upper.map((a) => a.x1), ...lower.map((a) => a.x1));
    items.push({ x0, x1, y: base, size, latex: `${command}${under}${over}`, operator: true, atom: op });
  }
  // What is left: atoms on the baseline, and scripts after them.
  const onBase = (a: Atom): boolean => /CMEX/i.test(a.font) || bigOperatorOf(a) !== undefined || (a.size >= 0.9 * size && Math.abs(a.y - base) < 0.3 * size);
  for (const a of rest) {
    if (onBase(a)) {
      const read = atomLatex(a);
      if (read.unknown > 0) doubts.push(`unread glyph in ${a.font || 'a font'}`);
      items.push({ x0: a.x0, x1: a.x1, y: a.y, size: a.size, latex: read.latex, atom: a, ...(read.delimiter ? { delimiter: true } : {}) });
    }
  }
  const scripts = rest.filter((a) => !onBase(a));
  for (const a of scripts) if (a.size >= 0.9 * size) doubts.push('full-size text off the baseline');
  items.sort((p, q) => p.x0 - q.x0);
  const parts: string[] = [];
  let negate = false;
  const open: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    // Relations TeX builds from two glyphs set over each other: `∼` over `=` is `≅`.
    const over = items[i + 1];
    if (item.latex === '\\sim' && over?.latex === '=' && over.x0 < item.x1 - 0.3 * (item.x1 - item.x0)) {
      parts.push('\\cong');
      i++;
      continue;
    }
    // TeX crosses a relation with a solidus set as a glyph of its own over it.
    if (item.atom?.text.trim() === '\u0338') {
      negate = true;
      continue;
    }
    const next = items[i + 1]?.x0 ?? Infinity;
    // Scripts of this item: after its left edge, before the next item on the baseline.
    const mine = scripts.filter((a) => centre(a) > item.x0 + 0.2 * (item.x1 - item.x0) && a.x0 < next - 0.1);
    const sup = mine.filter((a) => a.y < base - 0.05 * size);
    const sub = mine.filter((a) => !sup.includes(a));
    let latex = item.latex;
    if (item.delimiter === true) {
      // Sized delimiters pair up as \left … \right; `|` opens unless one is open.
      const closing = CLOSERS.has(latex) || ((latex === '|' || latex === '\\|') && open.at(-1) === latex);
      if (closing) {
        if (open.length > 0) open.pop();
        else parts.unshift('\\left.');
        latex = `\\right${latex}`;
      } else {
        open.push(latex);
        latex = `\\left${latex}`;
      }
    }
    if (sub.length > 0) latex += `_${group(readLevel(sub, [], doubts, depth + 1))}`;
    if (sup.length > 0) {
      const raised = readLevel(sup, [], doubts, depth + 1);
      latex += /^'+$/.test(raised) ? raised : `^${group(raised)}`;
    }
    for (const a of mine) scripts.splice(scripts.indexOf(a), 1);
    if (negate) latex = NEGATED[latex] ?? `\\not${latex}`;
    negate = false;
    parts.push(latex);
  }
  for (const _ of open) parts.push('\\right.');
  // Scripts before any base (a prescript) or left over: keep their text rather than lose it.
  if (scripts.length > 0) {
    doubts.push('script without a base');
    parts.unshift(...scripts.map((a) => atomLatex(a).latex));
  }
  return joinLatex(parts);
}
