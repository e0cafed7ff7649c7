/**
 * Blocks → Markdown, each block preceded by its DeepSeek-style grounding tag
 * `<|ref|>label<|/ref|><|det|>[[x1,y1,x2,y2]]<|/det|>` on a 0–999 grid of the page.
 */
import { inlineFormulas } from './formula/index.ts';
import type { RunInHead } from './run-in.ts';
import { tableHtml } from './table-html.ts';
import type { Block, Line } from './types.ts';

/** The grounding tag of a box in page points. */
export function groundingTag(label: string, box: readonly [number, number, number, number], width: number, height: number): string {
  const grid = (v: number, size: number): number => Math.max(0, Math.min(999, Math.round((v / size) * 999)));
  const [x0, y0, x1, y1] = box;
  return `<|ref|>${label}<|/ref|><|det|>[[${grid(x0, width)}, ${grid(y0, height)}, ${grid(x1, width)}, ${grid(y1, height)}]]<|/det|>`;
}

export function boxOf(lines: readonly Line[]): [number, number, number, number] {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const l of lines) {
    x0 = Math.min(x0, l.x0);
    y0 = Math.min(y0, l.top);
    x1 = Math.max(x1, l.x1);
    y1 = Math.max(y1, l.bottom);
  }
  return [x0, y0, x1, y1];
}

/**
 * Join a block's lines into one paragraph: `exam-` + `ple` → `example` when the next line
 * starts in lower case (a compound like `state-of-` + `Art` keeps its hyphen); soft hyphens go.
 */
// Chinese and Japanese put no space between words, so a line break inside them is no space.
const CJK_END = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]$/u;
const CJK_START = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

export function joinLines(lines: readonly Line[]): string {
  let text = '';
  for (const line of lines) {
    const next = line.text.trim();
    if (text === '') {
      text = next;
      continue;
    }
    if (/\u00ad$/.test(text)) text = text.slice(0, -1) + next;
    else if (/\p{Ll}-$/u.test(text) && /^\p{Ll}/u.test(next)) text = text.slice(0, -1) + next;
    else if (/[-/]$/.test(text) && !/\s-$/.test(text)) text += next;
    else if (CJK_END.test(text) && CJK_START.test(next)) text += next;
    else text += ` ${next}`;
  }
  return text.replace(/\u00ad/g, '');
}

/**
 * Keep plain text from turning into Markdown structure: a leading `#`, `>`, list marker or
 * `1.` would change the block type, `<tag` would become raw HTML, and paired `$` would become
 * math under remark-math.
 */
export function escapeText(text: string): string {
  let out = text.replace(/<(?=[A-Za-z/!?])/g, '&lt;');
  if ((out.match(/\$/g) ?? []).length >= 2) out = out.replace(/\$/g, '\\$');
  if (/^(#{1,6}\s|>|[-+*]\s|\d{1,9}[.)]\s|={3,}|-{3,}|`{3,}|~{3,})/.test(out)) out = `\\${out}`;
  return out;
}

/**
 * A paragraph with its inline formulas as `$…$`: the text around them is escaped, the LaTeX
 * (checked by KaTeX) is not.
 */
function textWithFormulas(lines: readonly Line[], leadIn?: RunInHead): string {
  const latex: string[] = [];
  const rebuilt = lines.map((line): Line => {
    const found = line.fragments.map((f) => inlineFormulas(f));
    if (found.every((x) => x === undefined) || line.fragments.some((f) => f.formula !== undefined)) return line;
    const text = line.fragments
      .map((f, i) => {
        const inline = found[i];
        if (inline === undefined) return f.text;
        const base = latex.length;
        latex.push(...inline.latex);
        return inline.text.replace(/\uE000(\d+)\uE001/g, (_, k: string) => `\uE000${base + Number(k)}\uE001`);
      })
      .join(' ');
    return { ...line, text };
  });
  const text = withLeadIn(joinBrokenFormulas(escapeText(joinLines(rebuilt)), latex), leadIn);
  return latex.length === 0 ? text : text.replace(/\uE000(\d+)\uE001/g, (_, k: string) => `$${latex[Number(k)]}$`);
}

/**
 * The paragraph's run-in head kept emphasised: `**Corollary 4.17.** Suppose …`, `*Proof.* Let …`.
 * Left plain where the text no longer starts with it (an inline formula took part of it) or where
 * it holds a Markdown marker of its own.
 */
function withLeadIn(text: string, leadIn: RunInHead | undefined): string {
  if (leadIn === undefined || /[*_`\\]/.test(leadIn.text) || !text.startsWith(leadIn.text)) return text;
  const mark = leadIn.emphasis === 'strong' ? '**' : '*';
  return `${mark}${leadIn.text}${mark}${text.slice(leadIn.text.length)}`;
}

/** LaTeX that ends in a relation or a binary operator: TeX breaks an inline formula only there. */
const OPEN_END =
  /(?:[=+\-<>]|\\(?:le|ge|leq|geq|neq|ne|approx|equiv|sim|simeq|cong|subset|subseteq|supset|supseteq|in|cdot|times|pm|mp|cup|cap|to|mapsto|Rightarrow|iff))$/;

/**
 * An inline formula TeX broke at the end of a line (`\sigma_g=` then `\prod_{k=0}^r …` on the next)
 * is one formula: two placeholders with only a space between them, the first ending in a relation
 * or an operator, become one (`latex` is updated in place).
 */
function joinBrokenFormulas(text: string, latex: string[]): string {
  return text.replace(/\uE000(\d+)\uE001 \uE000(\d+)\uE001/g, (all, a: string, b: string) => {
    const first = latex[Number(a)]!;
    if (!OPEN_END.test(first)) return all;
    latex[Number(a)] = `${first}${/^[a-zA-Z]/.test(latex[Number(b)]!) && /\\[a-zA-Z]+$/.test(first) ? ' ' : ''}${latex[Number(b)]}`;
    return `\uE000${a}\uE001`;
  });
}

function listLine(block: Block): string {
  const marker = block.marker ?? '-';
  const text = joinLines(block.lines);
  const rest = escapeText(text.slice(text.indexOf(marker) + marker.length).trim());
  if (/^\d{1,9}[.)]$/.test(marker)) return `${marker} ${rest}`;
  if (/^\(?[a-z]{1,5}[.)]$/i.test(marker)) return `- ${marker} ${rest}`;
  return `- ${rest}`;
}

/** Code lines with their indentation rebuilt from x offsets (monospace: ~0.6 em a character). */
function codeBlock(block: Block): string {
  const left = Math.min(...block.lines.map((l) => l.x0));
  const lines = block.lines.map((l) => ' '.repeat(Math.max(0, Math.round((l.x0 - left) / (0.6 * l.size)))) + l.text);
  const fence = lines.some((l) => l.includes('```')) ? '~~~' : '```';
  return `${fence}\n${lines.join('\n')}\n${fence}`;
}

/** One block as Markdown (without its tag). */
export function blockMarkdown(block: Block): string {
  if (block.code === true) return codeBlock(block);
  switch (block.label) {
    case 'title':
    case 'sub_title':
      return `${'#'.repeat(block.level ?? 2)} ${escapeText(joinLines(block.lines)).replace(/^\\/, '')}`;
    case 'list':
      return listLine(block);
    case 'table':
      return tableHtml(block.cells ?? []);
    case 'equation':
      return block.latex === undefined ? escapeText(joinLines(block.lines)) : `$$${block.latex}$$`;
    default:
      return textWithFormulas(block.lines, block.leadIn);
  }
}

type Box = [number, number, number, number];

/**
 * Blocks as tagged Markdown, blank line between blocks. `toPage` maps a block's box onto the
 * `width` × `height` page the tags are for (a sideways page is analysed turned upright).
 */
export function pageMarkdown(blocks: readonly Block[], width: number, height: number, toPage: (box: Box) => Box = (box) => box): string {
  return blockEntries(blocks, width, height, toPage)
    .map((entry) => entry.markdown)
    .join('\n\n');
}

/** Each block with its box on the page and its tagged Markdown, as {@link pageMarkdown} joins them. */
export function blockEntries(
  blocks: readonly Block[],
  width: number,
  height: number,
  toPage: (box: Box) => Box = (box) => box,
): { block: Block; box: Box; markdown: string }[] {
  return blocks
    .filter((b) => b.lines.length > 0)
    .map((block) => {
      const box = toPage(boxOf(block.lines));
      return { block, box, markdown: `${groundingTag(block.label, box, width, height)}\n${blockMarkdown(block)}` };
    });
}
