/** The body blocks of the truth as HTML: what Chromium prints is exactly what the truth says. */
import type { Random } from '../../scans/random.ts';
import { escHtml } from '../markdown.ts';
import type { TruthBlock } from '../types.ts';
import { RULINGS, tableHtml } from './tables.ts';

/** A bar chart with no words in it: a figure whose only text is its caption. */
function chart(random: Random): string {
  const bars = 4 + Math.floor(random.next() * 6);
  const width = 300;
  const height = 120;
  const step = width / bars;
  const rects = Array.from({ length: bars }, (_, i) => {
    const h = 15 + random.next() * (height - 20);
    return `<rect x="${(i * step + 4).toFixed(1)}" y="${(height - h).toFixed(1)}" width="${(step - 8).toFixed(1)}" height="${h.toFixed(1)}" fill="${random.pick(['#4a6fa5', '#8aa', '#555', '#c84'])}"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><line x1="0" y1="${height}" x2="${width}" y2="${height}" stroke="#000"/>${rects}</svg>`;
}

function listHtml(items: readonly { text: string; depth: number }[], ordered: boolean): string {
  const tag = ordered ? 'ol' : 'ul';
  let html = `<${tag}>`;
  let depth = 0;
  items.forEach((item, i) => {
    while (item.depth > depth) {
      html = html.replace(/<\/li>$/, '');
      html += `<${tag}>`;
      depth++;
    }
    while (item.depth < depth) {
      html += `</${tag}></li>`;
      depth--;
    }
    html += `<li>${escHtml(item.text)}</li>`;
    if (i === items.length - 1)
      while (depth > 0) {
        html += `</${tag}></li>`;
        depth--;
      }
  });
  return `${html}</${tag}>`;
}

/**
 * HTML for the blocks and the CSS their tables need. A caption block preceded by `figure: true` in
 * `figures` prints under a chart.
 */
export function blocksHtml(blocks: readonly TruthBlock[], random: Random, figures: ReadonlySet<number> = new Set()): { html: string; css: string } {
  const html: string[] = [];
  const css: string[] = [];
  blocks.forEach((block, i) => {
    switch (block.kind) {
      case 'heading':
        html.push(`<h${block.level}>${escHtml(block.text)}</h${block.level}>`);
        break;
      case 'paragraph':
        html.push(`<p>${escHtml(block.text)}</p>`);
        break;
      case 'list':
        html.push(listHtml(block.items, block.ordered));
        break;
      case 'code':
        html.push(`<pre>${escHtml(block.text)}</pre>`);
        break;
      case 'caption':
        html.push(
          figures.has(i) ? `<figure>${chart(random)}<figcaption>${escHtml(block.text)}</figcaption></figure>` : `<p class="caption">${escHtml(block.text)}</p>`,
        );
        break;
      case 'table': {
        const t = tableHtml(block.table, random.pick(RULINGS), `t${i}`);
        if (block.caption !== undefined) html.push(`<p class="caption">${escHtml(block.caption)}</p>`);
        html.push(t.html);
        css.push(t.css);
        break;
      }
      case 'field':
        html.push(`<p><b>${escHtml(block.label)}:</b> ${escHtml(block.value)}</p>`);
        break;
      case 'formula':
        throw new Error('formulas are typeset by the pdflatex families, not printed from HTML');
    }
  });
  return { html: html.join('\n'), css: css.join('\n') };
}
