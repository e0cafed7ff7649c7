/**
 * The script that runs in the browser page: for every rendered formula (`.formula` boxes, in
 * order), the ink box of every visible character, rule and drawing, in ems of the formula's base
 * size. A character's ink comes from the canvas metrics of its own computed font placed on its text
 * box's baseline, so it is the drawn glyph, not the font's line box. A glyph's typeface is its
 * family, style and weight, with KaTeX's big-delimiter fonts (`KaTeX_Size1`…) and its math italic
 * (`KaTeX_Math`) counted as the main Computer Modern family: `\left(` draws the same parenthesis as
 * `(`, only taller, and `\mathit{Z}` the same italic Z as `Z`. Kept as text: it runs in Chromium,
 * not in Node.
 */
export const COLLECT_GLYPHS = String.raw`(async () => {
  await document.fonts.ready;
  const ctx = document.createElement('canvas').getContext('2d');
  const invisible = /^[\s\u200b-\u200f\u2060\ufeff]$/u;
  const round = (v) => Math.round(v * 1000) / 1000;
  const sizeFamily = (family) => family.split(',')[0].replace(/["']/g, '').trim().replace(/^KaTeX_(Size\d|Math)$/, 'KaTeX_Main');
  // A tall delimiter stack's signature: its glyph pieces, or its drawing's width and path commands.
  const signature = (stack) => {
    const text = [...new Set(stack.textContent.replace(/[\s\u200b]/gu, ''))].join('');
    const svg = stack.querySelector('svg');
    const path = svg ? (svg.getAttribute('viewBox') || '').split(' ')[2] + ':' + [...stack.querySelectorAll('path')].map((p) => (p.getAttribute('d') || '').replace(/[-\d.]+/g, '')).join('/') : '';
    return text + '#' + path;
  };
  const stacks = new Map();
  for (const box of document.querySelectorAll('.calibration')) {
    const stack = box.querySelector('.delimsizing.mult');
    if (stack) stacks.set(signature(stack), box.dataset.char);
  }
  const out = [];
  for (const box of document.querySelectorAll('.formula')) {
    const root = box.querySelector('.katex');
    if (!root) { out.push(null); continue; }
    const origin = root.getBoundingClientRect();
    const em = parseFloat(getComputedStyle(root).fontSize);
    const glyphs = [];
    const push = (key, left, right, top, bottom) => {
      if (!(right > left) && !(bottom > top)) return;
      glyphs.push({ key, left: round((left - origin.left) / em), right: round((right - origin.left) / em), top: round((top - origin.top) / em), bottom: round((bottom - origin.top) / em) });
    };
    // Known tall delimiters count as one glyph of their normal character; their pieces are skipped.
    const known = [];
    for (const stack of root.querySelectorAll('.delimsizing.mult')) {
      const char = stacks.get(signature(stack));
      if (char === undefined || getComputedStyle(stack).visibility !== 'visible') continue;
      known.push(stack);
      const r = stack.getBoundingClientRect();
      push(char + '|KaTeX_Main|normal|400', r.left, r.right, r.top, r.bottom);
    }
    const inKnown = (el) => known.some((stack) => stack.contains(el));
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (inKnown(node.parentElement)) continue;
      const style = getComputedStyle(node.parentElement);
      if (style.visibility !== 'visible') continue;
      ctx.font = style.fontStyle + ' ' + style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily;
      const key = '|' + sizeFamily(style.fontFamily) + '|' + style.fontStyle + '|' + style.fontWeight;
      let offset = 0;
      for (const ch of node.data) {
        const start = offset;
        offset += ch.length;
        if (invisible.test(ch)) continue;
        const range = document.createRange();
        range.setStart(node, start);
        range.setEnd(node, offset);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        const m = ctx.measureText(ch);
        const baseline = rect.bottom - m.fontBoundingBoxDescent;
        push(ch + key, rect.left - m.actualBoundingBoxLeft, rect.left + m.actualBoundingBoxRight, baseline - m.actualBoundingBoxAscent, baseline + m.actualBoundingBoxDescent);
      }
    }
    for (const el of root.querySelectorAll('.frac-line, .overline-line, .underline-line, .hline, .rule, svg')) {
      if (inKnown(el) || getComputedStyle(el).visibility !== 'visible') continue;
      const r = el.getBoundingClientRect();
      const kind = el.tagName.toLowerCase() === 'svg' ? (el.closest('.sqrt') ? 'svg:sqrt' : 'svg') : 'rule';
      push(kind, r.left, r.right, r.top, r.bottom);
    }
    out.push(glyphs);
  }
  return out;
})()`;
