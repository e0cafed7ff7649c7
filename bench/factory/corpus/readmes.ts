/**
 * Real text for the factory: the READMEs and docs of the npm packages the lockfile pins (MIT, ISC,
 * Apache-2.0, BSD: each package's licence travels in its folder). Prose, headings, list items, code
 * and tables written by people, the same on every machine that ran `npm ci` on this lockfile.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Nodes, Root } from 'mdast';
import { toString as mdToString } from 'mdast-util-to-string';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

export interface ReadmeHarvest {
  readonly paragraphs: string[];
  readonly headings: string[];
  readonly items: string[];
  readonly code: string[];
  /** GFM tables: header row then body rows, plain cell text. */
  readonly tables: string[][][];
  /** Packages read, for the report's credits. */
  readonly packages: string[];
}

/** Plain text of phrasing content: links keep their words, images and HTML go. */
function plain(node: Nodes): string {
  if (node.type === 'image' || node.type === 'html' || node.type === 'imageReference' || node.type === 'footnoteReference') return '';
  if (node.type === 'inlineCode') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(plain).join('');
  return 'value' in node ? String(node.value) : '';
}

const tidy = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Prose a document would print: sentences of words, few symbols, no addresses or markup left. */
export function isProse(text: string): boolean {
  if (text.length < 70 || text.length > 900) return false;
  if (/https?:|www\.|@\w|[<>{}[\]|`\\]|\.\.\.|[:;,]$|^\W/.test(text)) return false;
  // Printable ASCII and the typographer's punctuation only: the fonts of every family have these.
  if (/[^\x20-\x7e\u2013\u2014\u2018\u2019\u201c\u201d]/.test(text)) return false;
  const words = text.split(' ');
  if (words.length < 12) return false;
  const letters = text.replace(/[^A-Za-z]/g, '').length;
  if (letters / text.length < 0.72) return false;
  // Long identifiers (camelCase, snake_case) read as code, not prose.
  if (words.filter((w) => /[a-z][A-Z]|_\w|\(\)/.test(w)).length > 2) return false;
  return /[.!?]$/.test(text);
}

const isHeading = (text: string): boolean =>
  text.length >= 4 &&
  text.length <= 48 &&
  /^[A-Z][A-Za-z ,'&-]+$/.test(text) &&
  text.split(' ').length <= 6 &&
  !/^(TODO|API|License|MIT|Licen[cs]e)$/i.test(text);

const isItem = (text: string): boolean =>
  text.split(' ').length >= 3 && text.length >= 12 && text.length <= 120 && /^[A-Za-z][\x20-\x7e]+$/.test(text) && !/https?:|[<>{}[\]|`\\]/.test(text);

const isCodeLine = (line: string): boolean => line.length > 0 && line.length <= 72 && /^[\x20-\x7e]+$/.test(line);

/** Walk one README's tree. */
function harvestTree(tree: Root, into: Omit<ReadmeHarvest, 'packages'>): void {
  const visit = (node: Nodes): void => {
    switch (node.type) {
      case 'heading': {
        const text = tidy(mdToString(node));
        if (node.depth >= 2 && isHeading(text)) into.headings.push(text);
        return;
      }
      case 'paragraph': {
        const text = tidy(plain(node));
        if (isProse(text)) into.paragraphs.push(text);
        return;
      }
      case 'listItem': {
        const first = node.children[0];
        const text = first && first.type === 'paragraph' ? tidy(plain(first)) : '';
        if (isItem(text)) into.items.push(text.replace(/[.:;,]$/, ''));
        for (const child of node.children.slice(1)) visit(child);
        return;
      }
      case 'code': {
        const lines = node.value.split('\n');
        if (lines.length >= 3 && lines.length <= 14 && lines.every((l) => l === '' || isCodeLine(l))) into.code.push(node.value.trimEnd());
        return;
      }
      case 'table': {
        const rows = node.children.map((row) => row.children.map((cell) => tidy(plain(cell))));
        const cols = rows[0]?.length ?? 0;
        if (
          rows.length >= 3 &&
          cols >= 2 &&
          cols <= 6 &&
          rows.every((r) => r.length === cols && r.every((c) => c.length > 0 && c.length <= 40 && /^[\x20-\x7e]+$/.test(c) && !/[|`<>]/.test(c)))
        )
          into.tables.push(rows.slice(0, 12));
        return;
      }
      default:
        if ('children' in node) for (const child of node.children as Nodes[]) visit(child);
    }
  };
  visit(tree);
}

/** Every `readme.md` (any case) one or two levels below `node_modules`, sorted: the order is the lockfile's, not the file system's. */
async function readmePaths(nodeModules: string): Promise<string[]> {
  const out: string[] = [];
  const packageDirs: string[] = [];
  for (const entry of (await readdir(nodeModules, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    if (entry.name.startsWith('@')) {
      for (const sub of (await readdir(path.join(nodeModules, entry.name))).sort()) packageDirs.push(path.join(nodeModules, entry.name, sub));
    } else packageDirs.push(path.join(nodeModules, entry.name));
  }
  for (const dir of packageDirs) {
    const files = await readdir(dir).catch(() => [] as string[]);
    const readme = files.find((f) => /^readme\.md$/i.test(f));
    if (readme) out.push(path.join(dir, readme));
  }
  return out;
}

/**
 * Harvest the READMEs under `nodeModules`, deduplicated, in a stable order.
 *
 * @example
 * const h = await harvestReadmes('node_modules'); h.paragraphs.length // a few thousand
 */
export async function harvestReadmes(nodeModules: string): Promise<ReadmeHarvest> {
  const into = { paragraphs: [] as string[], headings: [] as string[], items: [] as string[], code: [] as string[], tables: [] as string[][][] };
  const packages: string[] = [];
  const processor = unified().use(remarkParse).use(remarkGfm);
  for (const file of await readmePaths(nodeModules)) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.length === 0 || text.length > 400_000) continue;
    packages.push(path.relative(nodeModules, path.dirname(file)));
    harvestTree(processor.parse(text) as Root, into);
  }
  const unique = <T>(xs: T[], key: (x: T) => string = String): T[] => {
    const seen = new Set<string>();
    return xs.filter((x) => (seen.has(key(x)) ? false : (seen.add(key(x)), true)));
  };
  return {
    paragraphs: unique(into.paragraphs),
    headings: unique(into.headings, (h) => h.toLowerCase()),
    items: unique(into.items),
    code: unique(into.code),
    tables: unique(into.tables, (t) => JSON.stringify(t)),
    packages,
  };
}
