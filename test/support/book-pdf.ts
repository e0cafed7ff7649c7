/**
 * A small book made with pdf-lib for the title tests: a cover whose first line is a small "Front
 * cover" label over the big title, then two chapters of body text long enough for several chunks.
 * Optionally an Info Title and an XMP `dc:title` (an uncompressed metadata stream, as producers write it).
 */
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';

/** The title on the book's cover page. */
export const BOOK_TITLE = "The Lighthouse Keepers' Almanac";

export async function bookPdf(options: Readonly<{ title?: string; xmp?: string }> = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  if (options.title !== undefined) doc.setTitle(options.title);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const cover = doc.addPage([612, 792]);
  cover.drawText('Front cover', { x: 72, y: 740, size: 16, font: bold });
  cover.drawText(BOOK_TITLE, { x: 72, y: 600, size: 30, font: bold });
  cover.drawText('Tides, lamps and logbooks for the careful keeper, in twelve chapters.', { x: 72, y: 560, size: 11, font });
  for (const [n, chapter] of ['Lamps and Lenses', 'Tides and Weather'].entries()) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Chapter ${n + 1}: ${chapter}`, { x: 72, y: 720, size: 18, font: bold });
    for (let i = 0; i < 30; i++)
      page.drawText(`Line ${i + 1} of ${chapter.toLowerCase()}: the keeper trims the wick and writes the hour in the log.`, {
        x: 72,
        y: 690 - i * 15,
        size: 11,
        font,
      });
  }
  if (options.xmp !== undefined) {
    const packet = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">${options.xmp}</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
    const stream = doc.context.stream(packet, { Type: 'Metadata', Subtype: 'XML' });
    doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
  }
  return doc.save({ useObjectStreams: false });
}
