/**
 * Born-digital PDFs whose words are partly drawn as pixels: a banner image of rendered text above
 * a text-layer body, and images of noise, of nothing and of upside-down words. The PNGs are drawn
 * by sharp from SVG (librsvg with the system's fonts), so the ground truth is the SVG's text.
 */
import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';

/** A PNG of `text` in black on white, `height` px tall per line, optionally turned upside down. */
export async function textPng(text: string, width: number, height: number, options: { upsideDown?: boolean; fontSize?: number } = {}): Promise<Uint8Array> {
  const size = options.fontSize ?? Math.round(Math.min(height * 0.55, (1.5 * width) / Math.max(1, text.length)));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><text x="${Math.round(size * 0.4)}" y="${Math.round(height * 0.68)}" font-family="DejaVu Sans" font-weight="bold" font-size="${size}" fill="#123">${text}</text></svg>`;
  let image = sharp(Buffer.from(svg));
  if (options.upsideDown) image = image.rotate(180);
  return new Uint8Array(await image.png().toBuffer());
}

/** A PNG of a bar chart, 600 × 450 px: bars, axes and a few short labels scattered over it. */
export async function chartPng(): Promise<Uint8Array> {
  const bars = [120, 260, 180, 320].map((h, i) => `<rect x="${110 + i * 110}" y="${380 - h}" width="60" height="${h}" fill="#468"/>`).join('');
  const labels = ['North', 'South', 'East', 'West']
    .map((t, i) => `<text x="${110 + i * 110}" y="410" font-family="DejaVu Sans" font-size="20">${t}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="450"><rect width="100%" height="100%" fill="#fff"/><line x1="80" y1="380" x2="560" y2="380" stroke="#000" stroke-width="3"/><line x1="80" y1="40" x2="80" y2="380" stroke="#000" stroke-width="3"/>${bars}${labels}<text x="200" y="30" font-family="DejaVu Sans" font-size="22">Sales by region</text></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

/** A PNG of seeded grey noise. */
export async function noisePng(width: number, height: number, seed = 7): Promise<Uint8Array> {
  const data = Buffer.alloc(width * height);
  let s = seed;
  for (let i = 0; i < data.length; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    data[i] = s >> 23;
  }
  return new Uint8Array(
    await sharp(data, { raw: { width, height, channels: 1 } })
      .png()
      .toBuffer(),
  );
}

export interface RegionPdfOptions {
  /** PNG drawn across the top of the page, 504 × 72 pt. */
  readonly banner?: Uint8Array;
  /** Body paragraphs, set in Helvetica 11 pt below the banner. */
  readonly body: readonly string[];
  /** PNG drawn below the body, 240 × 180 pt. */
  readonly figure?: Uint8Array;
  /** PNG drawn in the top margin, 216 × 36 pt at 24 pt from the top (a letterhead). */
  readonly letterhead?: Uint8Array;
  /** Pages, each the same. @default 1 */
  readonly pages?: number;
}

/** A Letter page: the banner image (if any) at the top, then the body as real text. */
export async function regionPdf({ pages = 1, ...content }: RegionPdfOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 0; n < pages; n++) await drawPage(doc, font, content);
  return doc.save();
}

async function drawPage(doc: PDFDocument, font: PDFFont, { banner, body, figure, letterhead }: RegionPdfOptions): Promise<void> {
  const page = doc.addPage([612, 792]);
  if (letterhead !== undefined) page.drawImage(await doc.embedPng(letterhead), { x: 54, y: 792 - 24 - 36, width: 216, height: 36 });
  if (banner !== undefined) {
    const png = await doc.embedPng(banner);
    page.drawImage(png, { x: 54, y: 792 - 54 - 72, width: 504, height: 72 });
  }
  let y = 792 - 170;
  for (const paragraph of body) {
    // Wrapped by hand at ~85 characters: pdf-lib does not wrap.
    const words = paragraph.split(' ');
    let line = '';
    for (const word of words) {
      if ((line + word).length > 85) {
        page.drawText(line.trim(), { x: 54, y, size: 11, font });
        y -= 15;
        line = '';
      }
      line += `${word} `;
    }
    if (line.trim() !== '') page.drawText(line.trim(), { x: 54, y, size: 11, font });
    y -= 26;
  }
  if (figure !== undefined) page.drawImage(await doc.embedPng(figure), { x: 54, y: y - 180, width: 240, height: 180 });
}
