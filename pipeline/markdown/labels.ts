import type { ElementKind } from '../../core/types.ts';

// DeepSeek-OCR and the text-layer extractor label blocks; these are the labels we know. An unknown
// label keeps the kind the Markdown gave the block.
const kinds: Readonly<Record<string, ElementKind>> = {
  title: 'heading',
  sub_title: 'heading',
  subtitle: 'heading',
  section_header: 'heading',
  text: 'paragraph',
  list: 'list',
  table: 'table',
  equation: 'formula',
  formula: 'formula',
  interline_equation: 'formula',
  image: 'figure',
  figure: 'figure',
  chart: 'figure',
  image_caption: 'caption',
  figure_caption: 'caption',
  table_caption: 'caption',
  caption: 'caption',
  table_footnote: 'footnote',
  image_footnote: 'footnote',
  footnote: 'footnote',
  page_header: 'pageHeader',
  header: 'pageHeader',
  page_footer: 'pageFooter',
  footer: 'pageFooter',
  page_number: 'pageFooter',
  code: 'code',
};

/** The element kind a grounding label stands for, if any. */
export function kindOfLabel(label: string | undefined): ElementKind | undefined {
  return label === undefined ? undefined : kinds[label.toLowerCase()];
}

/** Heading level a label implies for a plain line: `title` is 1, `sub_title` 2. */
export function levelOfLabel(label: string | undefined): number {
  return label?.toLowerCase() === 'title' ? 1 : 2;
}
