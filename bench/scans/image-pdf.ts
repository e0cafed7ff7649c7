/**
 * An image-only PDF around one JPEG: what a scanner writes. No text layer, so Folio's `auto`
 * route must send the page to OCR. The page size follows the image at the scan's DPI.
 */

/**
 * A one-page PDF showing a greyscale JPEG full-page at `dpi`.
 *
 * @example
 * const pdf = jpegPdf(jpegBytes, 1700, 2200, 200);
 */
export function jpegPdf(jpeg: Uint8Array, width: number, height: number, dpi: number, channels: 1 | 3 = 1): Uint8Array {
  const pw = ((width * 72) / dpi).toFixed(2);
  const ph = ((height * 72) / dpi).toFixed(2);
  const content = `q ${pw} 0 0 ${ph} 0 0 cm /Im0 Do Q\n`;
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
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(3, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pw} ${ph}] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>`);
  object(
    4,
    `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /${channels === 1 ? 'DeviceGray' : 'DeviceRGB'} /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>`,
    jpeg,
  );
  const contentBytes = Buffer.from(content, 'latin1');
  object(5, `<< /Length ${contentBytes.length} >>`, contentBytes);
  const xref = length;
  push(
    `xref\n0 6\n0000000000 65535 f \n${offsets
      .slice(1)
      .map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)
      .join('')}`,
  );
  push(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p)));
}
