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
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
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
      if (getComputedStyle(el).visibility !== 'visible') continue;
      const r = el.getBoundingClientRect();
      const kind = el.tagName.toLowerCase() === 'svg' ? (el.closest('.sqrt') ? 'svg:sqrt' : 'svg') : 'rule';
      push(kind, r.left, r.right, r.top, r.bottom);
    }
    out.push(glyphs);
  }
  return out;
})()`;
