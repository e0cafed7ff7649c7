/**
 * TEDS, tree-edit-distance similarity of tables (Zhong et al., PubTabNet):
 * `1 - TED(a, b) / max(|a|, |b|)` over trees `table → tr → td`. Inserting or deleting a node costs
 * 1; renaming costs 1 between different tags or cells with different spans, otherwise (two cells)
 * the normalised edit distance of their text — or 0 for the structure-only variant TEDS-S.
 * The tree edit distance is Zhang and Shasha's algorithm.
 */
import { normalizedEditDistance } from './edit-distance.ts';
import type { TableRows } from './markdown.ts';

interface TreeNode {
  readonly tag: string;
  readonly text: string;
  readonly rowspan: number;
  readonly colspan: number;
  readonly children: readonly TreeNode[];
}

function toTree(rows: TableRows): TreeNode {
  return {
    tag: 'table',
    text: '',
    rowspan: 1,
    colspan: 1,
    children: rows.map((row) => ({
      tag: 'tr',
      text: '',
      rowspan: 1,
      colspan: 1,
      children: row.map((cell) => ({ tag: 'td', text: cell.text, rowspan: cell.rowspan, colspan: cell.colspan, children: [] })),
    })),
  };
}

interface Indexed {
  /** Nodes in post-order. */
  readonly nodes: TreeNode[];
  /** Index of each node's leftmost leaf descendant (post-order). */
  readonly leftmost: number[];
  readonly keyroots: number[];
}

function index(root: TreeNode): Indexed {
  const nodes: TreeNode[] = [];
  const leftmost: number[] = [];
  const walk = (node: TreeNode): number => {
    let first = -1;
    for (const child of node.children) {
      const l = walk(child);
      if (first < 0) first = l;
    }
    nodes.push(node);
    const self = nodes.length - 1;
    leftmost.push(first < 0 ? self : first);
    return leftmost[self]!;
  };
  walk(root);
  // Keyroots: the highest node for each distinct leftmost leaf.
  const seen = new Map<number, number>();
  leftmost.forEach((l, i) => seen.set(l, i));
  return { nodes, leftmost, keyroots: [...seen.values()].sort((a, b) => a - b) };
}

function renameCost(a: TreeNode, b: TreeNode, structureOnly: boolean): number {
  if (a.tag !== b.tag) return 1;
  if (a.tag !== 'td') return 0;
  if (a.rowspan !== b.rowspan || a.colspan !== b.colspan) return 1;
  return structureOnly ? 0 : normalizedEditDistance(a.text, b.text);
}

/** Zhang–Shasha tree edit distance with unit insert/delete and {@link renameCost}. */
function treeEditDistance(a: TreeNode, b: TreeNode, structureOnly: boolean): number {
  const A = index(a);
  const B = index(b);
  const n = A.nodes.length;
  const m = B.nodes.length;
  const td = Array.from({ length: n }, () => new Float64Array(m));
  for (const i of A.keyroots) {
    for (const j of B.keyroots) {
      const li = A.leftmost[i]!;
      const lj = B.leftmost[j]!;
      const rows = i - li + 2;
      const cols = j - lj + 2;
      const fd = Array.from({ length: rows }, () => new Float64Array(cols));
      for (let x = 1; x < rows; x++) fd[x]![0] = fd[x - 1]![0]! + 1;
      for (let y = 1; y < cols; y++) fd[0]![y] = fd[0]![y - 1]! + 1;
      for (let x = 1; x < rows; x++) {
        const ni = li + x - 1;
        for (let y = 1; y < cols; y++) {
          const nj = lj + y - 1;
          const del = fd[x - 1]![y]! + 1;
          const ins = fd[x]![y - 1]! + 1;
          if (A.leftmost[ni] === li && B.leftmost[nj] === lj) {
            const v = Math.min(del, ins, fd[x - 1]![y - 1]! + renameCost(A.nodes[ni]!, B.nodes[nj]!, structureOnly));
            fd[x]![y] = v;
            td[ni]![nj] = v;
          } else {
            const px = A.leftmost[ni]! - li;
            const py = B.leftmost[nj]! - lj;
            fd[x]![y] = Math.min(del, ins, fd[px]![py]! + td[ni]![nj]!);
          }
        }
      }
    }
  }
  return td[n - 1]![m - 1]!;
}

export interface TedsOptions {
  /**
   * Ignore cell text (TEDS-S).
   * @default false
   */
  readonly structureOnly?: boolean;
}

/**
 * TEDS between two tables, 1 for identical, towards 0 for unrelated.
 *
 * @example
 * teds([[cell('a')]], [[cell('a')]]) // 1
 */
export function teds(a: TableRows, b: TableRows, { structureOnly = false }: Readonly<TedsOptions> = {}): number {
  const ta = toTree(a);
  const tb = toTree(b);
  const size = (t: TreeNode): number => 1 + t.children.reduce((s, c) => s + size(c), 0);
  const largest = Math.max(size(ta), size(tb));
  return largest === 0 ? 1 : Math.max(0, 1 - treeEditDistance(ta, tb, structureOnly) / largest);
}
