import type { Element, FailureRecord, PageMarkdown, QualityReport } from '../../core/types.ts';
import { type ParseOptions, parsePage } from '../markdown/index.ts';
import { type CheckOptions, checkPage } from '../quality/index.ts';

/** A page parsed and checked, or why there is none. */
export type PageResult =
  | { readonly ok: true; readonly page: PageMarkdown; readonly elements: Element[]; readonly quality: QualityReport }
  | { readonly ok: false; readonly pageNumber: number; readonly failure: FailureRecord };

export function pageFailure(source: string, docId: string, pageNumber: number | undefined, stage: string, code: string, reason: string): FailureRecord {
  return { source, docId, pageNumber, stage, code, reason, at: new Date().toISOString() };
}

/** Parse a page's Markdown into elements and grade it with the quality gate. */
export function analysePage(
  page: PageMarkdown,
  hasInk: boolean,
  parseOptions: Readonly<ParseOptions> = {},
  checkOptions: Readonly<Omit<CheckOptions, 'hasInk'>> = {},
): PageResult & { ok: true } {
  const elements = parsePage(page, parseOptions);
  const quality = checkPage(page, elements, { ...checkOptions, hasInk });
  return { ok: true, page, elements, quality };
}
