/**
 * The `word` family: Word-like documents written as DOCX (and some as ODT) and printed by
 * LibreOffice: reports, letters on letterhead, memos and manuals with book-style heads, with
 * first-page-different and odd/even heads and feet, page-number fields, nested lists and tables
 * with spans. Every page's head and foot is known exactly from the layout and the page count.
 */
import type { Family, PlanContext, PlannedDocument } from '../types.ts';
import { letterBody, manualBody, memoBody, reportBody, reportTitle } from './office/bodies.ts';
import { company, int } from './office/content.ts';
import { writeDocx } from './office/docx.ts';
import { baseLayout, type Furniture, letterFurniture, manualFurniture, memoFurniture, reportFurniture } from './office/layout.ts';
import { furnitureOf, type OfficeBlock, type OfficeDocument, truthBlocks } from './office/model.ts';
import { writeOdt } from './office/odt.ts';

const VARIANTS = ['report', 'letter', 'memo', 'manual', 'report-odt', 'letter-odt', 'report-toc'] as const;
type Variant = (typeof VARIANTS)[number];

function plan(variant: string, { random, corpus, id }: Readonly<PlanContext>): PlannedDocument {
  if (!(VARIANTS as readonly string[]).includes(variant)) throw new RangeError(`word: no variant ${variant}; expected ${VARIANTS.join(', ')}`);
  const v = variant as Variant;
  const firm = company(random);
  const look = baseLayout(random);
  let title: string;
  let blocks: OfficeBlock[];
  let furniture: Furniture;
  let columns: 1 | 2 = 1;
  switch (v) {
    case 'report':
    case 'report-odt':
    case 'report-toc':
      title = reportTitle(random, corpus);
      // A quarter of the reports set their body in two columns (tables would not fit one).
      columns = v !== 'report-toc' && random.next() < 0.25 ? 2 : 1;
      blocks = reportBody(random, corpus, title, {
        sections: int(random, 4, 8) + (columns === 2 ? 2 : 0),
        prose: 4,
        toc: v === 'report-toc',
        tables: columns === 1,
      });
      furniture = reportFurniture(random, title, firm);
      break;
    case 'manual':
      title = reportTitle(random, corpus);
      blocks = manualBody(random, corpus, title, { sections: int(random, 5, 9), prose: 4 });
      furniture = manualFurniture(random, title, firm);
      break;
    case 'letter':
    case 'letter-odt':
      blocks = letterBody(random, corpus, int(random, 4, 13), firm);
      title = '';
      furniture = letterFurniture(random, firm);
      break;
    case 'memo':
      blocks = memoBody(random, corpus, int(random, 4, 12));
      title = (blocks[0] as { text: string }).text;
      furniture = memoFurniture(random, firm);
      break;
  }
  const layout = { ...look, ...furniture, columns };
  // The title and by-line span the page above the columns.
  const doc: OfficeDocument = { layout, blocks, title, spanning: 2 };
  const odt = v.endsWith('-odt');
  return {
    id,
    family: 'word',
    variant,
    source: { renderer: 'libreoffice', extension: odt ? 'odt' : 'docx', bytes: odt ? writeOdt(doc) : writeDocx(doc) },
    blocks: truthBlocks(blocks),
    ...(title ? { title } : {}),
    furniture: furnitureOf(layout),
  };
}

/**
 * Word-like documents printed by LibreOffice from DOCX and ODT the family writes.
 *
 * @example
 * const doc = await wordFamily.plan('letter', { random: seededRandom('s/word-letter-001'), corpus, index: 1, id: 'word-letter-001' });
 */
export const wordFamily: Family = {
  name: 'word',
  description: 'Word-like documents (DOCX, ODT) printed by LibreOffice: reports, letterheads, memos, manuals with odd/even heads',
  variants: VARIANTS,
  plan,
};
