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
}
