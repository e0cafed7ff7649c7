/**
 * Math tests: find the formulas in candidate Markdown and decide whether one of them renders like
 * the expected LaTeX. Rendering is KaTeX's MathML (server-side, no browser), so `\int_{a}^{b}` and
 * `\int_a^b`, or `d x` and `dx`, are the same formula while `x^2` and `x_2` are not.
 */
import katex from 'katex';
import { ratio } from './fuzzy.ts';

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

/**
 * Whether a candidate formula renders like the reference: the reference's MathML is contained in
 * the candidate's (the benchmark's first test), or failing that, the same holds once element
 * attributes (fence sizes, stretchiness) are ignored — our stand-in for the benchmark's
 * glyph-position comparison, which needs a browser.
 */
export function sameRendering(reference: string, candidate: string): boolean {
  const ref = renderMathml(reference);
  const hyp = renderMathml(candidate);
  if (ref === undefined || hyp === undefined) return false;
  if (hyp.includes(ref)) return true;
  return bareMathml(hyp).includes(bareMathml(ref));
}

/**
 * Run a math test: an exact source match passes at once; otherwise the candidates are tried most
 * similar first until one renders like the reference.
 */
export function findMath(reference: string, markdown: string, dollars = true): { passed: boolean; reason: string } {
  if (renderMathml(reference) === undefined) return { passed: false, reason: `the expected formula does not render with KaTeX: ${reference}` };
  const equations = extractEquations(markdown, { dollars });
  if (equations.includes(reference)) return { passed: true, reason: '' };
  const ranked = equations.map((eq) => ({ eq, score: ratio(eq, reference) })).sort((a, b) => b.score - a.score);
  for (const { eq } of ranked) if (sameRendering(reference, eq)) return { passed: true, reason: '' };
  return {
    passed: false,
    reason:
      equations.length === 0 ? `no formula delimiters in the output; expected ${reference}` : `no formula among ${equations.length} renders like ${reference}`,
  };
}
