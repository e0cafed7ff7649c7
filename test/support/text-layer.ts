/** The first text-layer page of a PDF made in a test, and its blocks of one label: shared by the text-layer tests. */
import { openPdf } from '../../pipeline/pdf/index.ts';
import type { TextLayerPage } from '../../pipeline/text-layer/index.ts';
import { extractTextLayer } from '../../pipeline/text-layer/index.ts';

const TAG = /^<\|ref\|>(\w+)<\|\/ref\|>/;

/** Page 1 of the PDF's text layer, read by real PDFium. */
export async function firstPage(bytes: Uint8Array, source = 'test.pdf'): Promise<TextLayerPage> {
  const pdf = await openPdf(bytes, { source });
  try {
    for await (const page of extractTextLayer(pdf)) return page;
    throw new Error(`${source}: no page`);
  } finally {
    await pdf.close();
  }
}

/** The bodies of the page Markdown's blocks grounded with `label`, their tag lines left off. */
export const blocks = (markdown: string, label: string): string[] =>
  markdown
    .split('\n\n')
    .filter((b) => TAG.exec(b)?.[1] === label)
    .map((b) => b.split('\n').slice(1).join('\n'));
