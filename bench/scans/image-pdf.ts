/**
 * An image-only PDF around one JPEG: what a scanner writes. No text layer, so Folio's `auto`
 * route must send the page to OCR. The page size follows the image at the scan's DPI.
 */

/** One scanned page: a JPEG and its pixel size. */
export interface JpegPage {
  readonly jpeg: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** @default 1 (DeviceGray) */
  readonly channels?: 1 | 3;
}

/**
 * A one-page PDF showing a greyscale JPEG full-page at `dpi`.
 *
 * @example
 * const pdf = jpegPdf(jpegBytes, 1700, 2200, 200);
 */
export function jpegPdf(jpeg: Uint8Array, width: number, height: number, dpi: number, channels: 1 | 3 = 1): Uint8Array {
  return jpegPagesPdf([{ jpeg, width, height, channels }], dpi);
}

/**
 * A PDF of several scanned pages, one JPEG each, full-page at `dpi`: what a document feeder writes.
 *
 * @example
 * const pdf = jpegPagesPdf([{ jpeg, width: 1700, height: 2200 }], 200);
 */
export function jpegPagesPdf(pages: readonly JpegPage[], dpi: number): Uint8Array {
  const parts: (string | Uint8Array)[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (part: string | Uint8Array): void => {
    parts.push(part);
    length += typeof part === 'string' ? Buffer.byteLength(part, 'latin1') : part.length;
  };
  const object = (n: number, body: string, stream?: Uint8Array): void => {
    offsets[n] = length;
    push(`${n} 0 obj\n${body}\n`);
    if (stream !== undefined) {
      push('stream\n');
      push(stream);
      push('\nendstream\n');
    }
    push('endobj\n');
  };
  push('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  // Objects: 1 catalog, 2 pages, then per page i: page 3+3i, image 4+3i, content 5+3i.
  const kids = pages.map((_, i) => `${3 + 3 * i} 0 R`).join(' ');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, `<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  pages.forEach((page, i) => {
    const pw = ((page.width * 72) / dpi).toFixed(2);
    const ph = ((page.height * 72) / dpi).toFixed(2);
    const [p, img, content] = [3 + 3 * i, 4 + 3 * i, 5 + 3 * i];
    object(p, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pw} ${ph}] /Resources << /XObject << /Im0 ${img} 0 R >> >> /Contents ${content} 0 R >>`);
    object(
      img,
      `<< /Type /XObject /Subtype /Image /Width ${page.width} /Height ${page.height} /ColorSpace /${(page.channels ?? 1) === 1 ? 'DeviceGray' : 'DeviceRGB'} /BitsPerComponent 8 /Filter /DCTDecode /Length ${page.jpeg.length} >>`,
      page.jpeg,
    );
    const contentBytes = Buffer.from(`q ${pw} 0 0 ${ph} 0 0 cm /Im0 Do Q\n`, 'latin1');
    object(content, `<< /Length ${contentBytes.length} >>`, contentBytes);
  });
  const count = 3 + 3 * pages.length;
  const xref = length;
  push(
    `xref\n0 ${count}\n0000000000 65535 f \n${offsets
      .slice(1)
      .map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)
      .join('')}`,
  );
  push(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p)));
}
