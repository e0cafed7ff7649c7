/**
 * Math tests: find the formulas in candidate Markdown and decide whether one of them renders like
 * the expected LaTeX, as olmOCR-Bench does: first KaTeX's MathML (server-side, cheap, exact), so
 * `\int_{a}^{b}` and `\int_a^b`, or `d x` and `dx`, are the same formula while `x^2` and `x_2` are
 * not; where that fails, the glyphs KaTeX draws in Chromium and their arrangement (`glyphs/`), so
 * `\left(x\right)^2` and `(x)^2` are the same too. Without a glyph book (no browser) a looser
 * MathML test, attributes ignored, stands in for the glyph test.
 */
import katex from 'katex';
import { ratio } from './fuzzy.ts';
import type { GlyphBook, GlyphBookResult } from './glyphs/index.ts';
import { glyphBook, sameArrangement } from './glyphs/index.ts';

// Delimiters in the order the benchmark strips them: a formula found by one pattern is removed
// before the next runs, so `$$x$$` is not also read as two `$…$` spans.
const PATTERNS: readonly RegExp[] = [/\\\((.+?)\\\)/gs, /\\\[(.+?)\\\]/gs, /\$\$(.+?)\$\$/gs, /\$(.+?)\$/gs];

/**
 * The formulas of a Markdown text, from `\(…\)`, `\[…\]`, `$$…$$` and `$…$`, trimmed.
 *
 * @example
 * extractEquations('a $x^2$ b $$y$$') // ['y', 'x^2']
 */
export function extractEquations(markdown: string, { dollars = true }: Readonly<{ dollars?: boolean }> = {}): string[] {
  const equations: string[] = [];
  let rest = markdown;
  for (const [i, pattern] of PATTERNS.entries()) {
    if (!dollars && i >= 2) break;
    for (const match of rest.matchAll(pattern)) equations.push(match[1]!.trim());
    rest = rest.replace(pattern, '');
  }
  return equations;
}

const cache = new Map<string, string | undefined>();

/**
 * KaTeX's MathML for a formula, the `<annotation>` (the source) dropped and whitespace removed;
 * undefined when KaTeX cannot parse it.
 */
export function renderMathml(latex: string): string | undefined {
  if (cache.has(latex)) return cache.get(latex);
  let result: string | undefined;
  try {
    const html = katex.renderToString(latex, { output: 'mathml', throwOnError: true, displayMode: true, strict: 'ignore' });
    const semantics = /<semantics>([\s\S]*)<\/semantics>/.exec(html)?.[1] ?? html;
    result = semantics.replace(/<annotation[\s\S]*?<\/annotation>/g, '').replace(/\s+/g, '');
  } catch {
    result = undefined;
  }
  if (cache.size > 5000) cache.clear();
  cache.set(latex, result);
  return result;
}

/** MathML with attributes dropped: `\left(` and `(` or `\big(` then count as the same glyph. */
function bareMathml(mathml: string): string {
  return mathml.replace(/<(\w+)\s[^>]*>/g, '<$1>');
}

/** Whether the reference's MathML is contained in the candidate's (the benchmark's first test). */
function containsMathml(reference: string, candidate: string): boolean {
  const ref = renderMathml(reference);
  const hyp = renderMathml(candidate);
  if (ref === undefined || hyp === undefined) return false;
  return hyp.includes(ref);
}

/**
 * Whether a candidate formula renders like the reference: the reference's MathML is contained in
 * the candidate's, or failing that, the reference's glyphs appear in the candidate's rendering in
 * the same arrangement (when `glyphs` holds both). Without them, the MathML with element attributes
 * (fence sizes, stretchiness) ignored stands in for the glyph test.
 */
export function sameRendering(reference: string, candidate: string, glyphs?: GlyphBook): boolean {
  if (containsMathml(reference, candidate)) return true;
  const ref = glyphs?.get(reference);
  const hyp = glyphs?.get(candidate);
  if (ref !== undefined && hyp !== undefined) return ref !== null && hyp !== null && sameArrangement(ref, hyp);
  const refMathml = renderMathml(reference);
  const hypMathml = renderMathml(candidate);
  return refMathml !== undefined && hypMathml !== undefined && bareMathml(hypMathml).includes(bareMathml(refMathml));
}

/**
 * The formulas a math test may need rendered in the browser: the reference and every formula of
 * the Markdown, or none when the source or the MathML test already passes it.
 */
export function formulasToRender(reference: string, markdown: string, dollars = true): string[] {
  if (renderMathml(reference) === undefined) return [];
  const equations = extractEquations(markdown, { dollars });
  if (equations.includes(reference)) return [];
  // One formula containing the reference's MathML passes the test without the browser.
  if (equations.some((eq) => containsMathml(reference, eq))) return [];
  const renderable = equations.filter((eq) => renderMathml(eq) !== undefined);
  return renderable.length === 0 ? [] : [reference, ...renderable];
}

/** One math test to prepare: the expected formula and the Markdown it is looked for in. */
export interface MathCase {
  readonly reference: string;
  readonly markdown: string;
  readonly dollars?: boolean;
}

/**
 * Render in one browser page everything a run's math tests may need (see {@link glyphBook}):
 * `book` is undefined when no browser started, and `note` says which test decided.
 */
export async function mathGlyphBook(cases: Iterable<MathCase>): Promise<GlyphBookResult> {
  const formulas = new Set<string>();
  for (const c of cases) for (const f of formulasToRender(c.reference, c.markdown, c.dollars)) formulas.add(f);
  return glyphBook(formulas);
}

/**
 * Run a math test: an exact source match passes at once; otherwise the candidates are tried most
 * similar first until one renders like the reference.
 */
export function findMath(reference: string, markdown: string, dollars = true, glyphs?: GlyphBook): { passed: boolean; reason: string } {
  if (renderMathml(reference) === undefined) return { passed: false, reason: `the expected formula does not render with KaTeX: ${reference}` };
  const equations = extractEquations(markdown, { dollars });
  if (equations.includes(reference)) return { passed: true, reason: '' };
  const ranked = equations.map((eq) => ({ eq, score: ratio(eq, reference) })).sort((a, b) => b.score - a.score);
  for (const { eq } of ranked) if (sameRendering(reference, eq, glyphs)) return { passed: true, reason: '' };
  return {
    passed: false,
    reason:
      equations.length === 0 ? `no formula delimiters in the output; expected ${reference}` : `no formula among ${equations.length} renders like ${reference}`,
  };
}
