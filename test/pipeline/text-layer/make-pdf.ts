/**
 * A tiny PDF writer for test fixtures: pages of text placed at exact positions in Helvetica
 * (and Helvetica-Bold), so layout cases (grids, columns, lists, running heads, invisible text)
 * can be built without binary files in the repository.
 */

export interface TextSpec {
  readonly text: string;
  /** From the left edge, points. */
  readonly x: number;
  /** Baseline from the TOP edge, points (converted to PDF's bottom-up space here). */
  readonly y: number;
  /** @default 10 */
  readonly size?: number;
  /** @default false */
  readonly bold?: boolean;
  /** PDF text render mode; 3 draws nothing. @default 0 */
  readonly mode?: number;
}

export interface PageSpec {
  readonly texts: readonly TextSpec[];
  /** @default 612 */
  readonly width?: number;
  /** @default 792 */
  readonly height?: number;
  /**
   * `/Rotate` of the page. Text positions stay those of the displayed page (x from the left,
   * y from the top, upright), so one layout renders the same at every rotation.
   * @default 0
   */
  readonly rotate?: 0 | 90 | 180 | 270;
}

/** WinAnsi codes of the few non-Latin-1 characters fixtures use. */
const WIN_ANSI: Readonly<Record<string, string>> = { '\u2022': '\x95', '\u2013': '\x96', '\u2014': '\x97', '\u201c': '\x93', '\u201d': '\x94' };

function escapePdf(text: string): string {
  return text
    .replace(/[\u2022\u2013\u2014\u201c\u201d]/g, (c) => WIN_ANSI[c] ?? '?')
    .replace(/\\/g, '\\\\')
    .replace(/\(/g, '\\(')
    .replace(/\)/g, '\\)');
}

/**
 * The text matrix that puts upright text at (x, y from the top) of the displayed page, for a
 * media box of `w` × `h` shown turned by `rotate` degrees clockwise.
 */
function textMatrix(rotate: number, x: number, y: number, w: number, h: number): string {
  switch (rotate) {
    case 90:
      return `0 1 -1 0 ${y} ${x}`;
    case 180:
      return `-1 0 0 -1 ${w - x} ${y}`;
    case 270:
      return `0 -1 1 0 ${w - y} ${h - x}`;
    default:
      return `1 0 0 1 ${x} ${h - y}`;
  }
}

/** Build a PDF with one page per spec. */
export function makePdf(pages: readonly PageSpec[]): Uint8Array {
  const objects: string[] = [];
  // 1: catalog, 2: pages, 3: Helvetica, 4: Helvetica-Bold, then per page: page, contents.
  const pageIds = pages.map((_, i) => 5 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  pages.forEach((page, i) => {
    const width = page.width ?? 612;
    const height = page.height ?? 792;
    const rotate = page.rotate ?? 0;
    // The media box is the unrotated page: for a quarter turn the displayed width is its height.
    const [mediaWidth, mediaHeight] = rotate % 180 === 0 ? [width, height] : [height, width];
    const ops = page.texts
      .map(
        (t) =>
          `BT /${t.bold === true ? 'F2' : 'F1'} ${t.size ?? 10} Tf ${t.mode ?? 0} Tr ${textMatrix(rotate, t.x, t.y, mediaWidth, mediaHeight)} Tm (${escapePdf(t.text)}) Tj ET`,
      )
      .join('\n');
    const pageId = pageIds[i] as number;
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${mediaWidth} ${mediaHeight}]${rotate === 0 ? '' : ` /Rotate ${rotate}`} /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${Buffer.byteLength(ops, 'latin1')} >>\nstream\n${ops}\nendstream`;
  });
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out, 'latin1');
    out += `${id} 0 obj\n${objects[id] ?? 'null'}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

/** Lines of body text, one per baseline, starting at `y` with 12 pt leading. */
export function paragraph(lines: readonly string[], x: number, y: number, size = 10): TextSpec[] {
  return lines.map((text, i) => ({ text, x, y: y + i * 12, size }));
}
