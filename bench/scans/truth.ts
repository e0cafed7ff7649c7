/**
 * The truth of a degraded page is the born-digital page's own text layer, read by Poppler's
 * `pdftotext` (a reader independent of Folio's text-layer code, so neither engine is scored
 * against Folio's reading order). Only pages whose text layer is good are used: Folio's own
 * text-layer verdict says usable, the page is mostly text rather than pictures, and the text is
 * Latin script made of real words (a broken font map gives letters that spell nothing).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { PdfHandle } from '../../pipeline/pdf/index.ts';
import { extractTextLayer } from '../../pipeline/text-layer/index.ts';

const run = promisify(execFile);

/** The text of one page (1-based) through `pdftotext`; '' when it cannot be read. */
export async function pageText(path: string, page: number): Promise<string> {
  try {
    const { stdout } = await run('pdftotext', ['-q', '-enc', 'UTF-8', '-f', String(page), '-l', String(page), path, '-'], { maxBuffer: 64 * 1024 * 1024 });
    return stdout.replace(/\f/g, '');
  } catch {
    return '';
  }
}

export interface TruthGate {
  /** Fewest non-space characters. @default 300 */
  readonly minChars?: number;
  /** Least share of characters in Latin script, digits and punctuation. @default 0.97 */
  readonly minLatin?: number;
  /** Least share of letter tokens (3+ letters) that hold a vowel. @default 0.85 */
  readonly minWordLike?: number;
  /** Most image coverage of the page (0–1). @default 0.35 */
  readonly maxImageCoverage?: number;
}

/** Why a page's text is not used as truth, or undefined when it is. */
export function textProblem(text: string, gate: Readonly<TruthGate> = {}): string | undefined {
  const { minChars = 300, minLatin = 0.97, minWordLike = 0.85 } = gate;
  const chars = [...text.replace(/\s+/g, '')];
  if (chars.length < minChars) return `too little text (${chars.length} characters)`;
  const latin = chars.filter((c) => /[\p{Script=Latin}\p{N}\p{P}\p{S}]/u.test(c)).length / chars.length;
  if (latin < minLatin) return `not Latin script (${(latin * 100).toFixed(0)}% Latin)`;
  const words = text.match(/\p{L}{3,}/gu) ?? [];
  const wordLike = words.length === 0 ? 0 : words.filter((w) => /[aeiouyàâäéèêëîïôöûüAEIOUY]/.test(w)).length / words.length;
  if (wordLike < minWordLike) return `letters that spell no words (${(wordLike * 100).toFixed(0)}% word-like)`;
  return undefined;
}

/** 1-based pages Folio's text-layer verdict calls usable and that are mostly not pictures. */
export async function usablePages(pdf: PdfHandle, gate: Readonly<TruthGate> = {}): Promise<Set<number>> {
  const { maxImageCoverage = 0.35 } = gate;
  const usable = new Set<number>();
  for await (const page of extractTextLayer(pdf, { lookahead: 0 })) {
    const coverage = page.assessment.details['imageCoverage'];
    if (page.assessment.usable && (typeof coverage !== 'number' || coverage <= maxImageCoverage)) usable.add(page.pageNumber);
  }
  return usable;
}
