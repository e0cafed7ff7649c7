/** What a format reader returns: pages (slides, sheets, or one page for a flowing document) of blocks. */
import type { Block } from './blocks.ts';

export interface FormatPage {
  readonly blocks: readonly Block[];
  /** Page headers (furniture): kept as `pageHeader` elements, left out of the clean Markdown. */
  readonly headers?: readonly string[];
  readonly footers?: readonly string[];
  /** Footnotes and endnotes, by their number in the text (`[^n]`). */
  readonly footnotes?: readonly { readonly id: string; readonly text: string }[];
  /** Speaker notes of a slide: their own elements (`footnote`, label `speaker_notes`) after the slide's. */
  readonly notes?: readonly string[];
  /** Slide title or sheet name, for provenance. */
  readonly label?: string;
  /** The sheet this page is (XLSX, ODS): its elements' locations name it. */
  readonly sheet?: string;
  /** The slide this page is, 1-based (PPTX, ODP; hidden slides left out still count). */
  readonly slide?: number;
}

/** A child document inside this one (an e-mail attachment). */
export interface FormatAttachment {
  readonly name: string;
  readonly bytes: Uint8Array;
}

export interface FormatDocument {
  /** `docx`, `html`, `xlsx`, … */
  readonly format: string;
  readonly pages: readonly FormatPage[];
  /** Document properties (e-mail headers, title). */
  readonly metadata?: Readonly<Record<string, string>>;
  readonly attachments?: readonly FormatAttachment[];
  /**
   * The bytes of a picture named by a figure's `src`, read on demand (only OCR wants them);
   * undefined when the package lacks it or it is past the zip's size bounds.
   */
  readonly media?: (src: string) => Uint8Array | undefined;
}
