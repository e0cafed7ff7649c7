/**
 * Per-page routing for `--engine auto`: keep the text layer when it is good, send the page to
 * OCR when it has no text layer, an invisible or garbage one, or is mostly a picture. The
 * decision, its reason and the figures behind it are recorded on the page.
 *
 * The image coverage comes with the text-layer assessment (PDFium measures it on every page for
 * next to nothing); it is measured again from the page only when the assessment lacks it.
 */
import { ConfigurationError } from '../../core/errors.ts';
import type { RouteDecision } from '../../core/types.ts';
import type { PdfPage } from '../pdf/index.ts';
import { imageCoverage } from './coverage.ts';

export interface TextLayerVerdict {
  readonly assessment: {
    readonly usable: boolean;
    readonly reason: string;
    readonly details: Readonly<Record<string, unknown>>;
  };
}

export interface RoutePageOptions {
  /** The page's text-layer assessment (`pipeline/text-layer`); absent when the page has none. */
  readonly textLayer?: TextLayerVerdict;
  /**
   * The page (or a function that opens it), to measure image coverage when the assessment
   * carries no `imageCoverage`; never touched when it does. Without either, only the text layer
   * is judged.
   */
  readonly page?: PdfPage | (() => Promise<PdfPage>);
  /** `auto` decides per page, `text` always keeps the text layer, any other name forces that OCR engine. */
  readonly engine: 'auto' | 'text' | string;
  /**
   * The OCR engine `auto` sends pages to.
   * @default 'paddle'
   */
  readonly ocrEngine?: string;
  /**
   * Image coverage (0–1) from which a page counts as a picture of text.
   * @default 0.5
   */
  readonly mostlyImage?: number;
  /**
   * Fewest text-layer characters that make a picture-heavy page trustworthy: a scan with a
   * caption or a page number is still a scan; a slide of text over a background photo is not.
   * @default 600
   */
  readonly minCharsOverImage?: number;
  /**
   * When to measure the page's image coverage, if the assessment carries none:
   * `when-needed` only for pages whose text is too thin to decide alone (fast); `always` also
   * flags text pages with figures as `mixed`. Coverage from the assessment is always used.
   * @default 'when-needed'
   */
  readonly coverage?: 'always' | 'when-needed';
}

/**
 * Decide who produces a page's Markdown.
 *
 * @example
 * const route = await routePage({ textLayer: layer, engine: 'auto' });
 * // { engine: 'paddle', reason: 'mostly-image', details: { imageCoverage: 0.98, chars: 12, … } }
 */
export async function routePage(options: Readonly<RoutePageOptions>): Promise<RouteDecision> {
  const {
    textLayer,
    page,
    engine,
    ocrEngine = 'paddle',
    mostlyImage = 0.5,
    minCharsOverImage = 600,
    coverage: measure = 'when-needed',
  } = options ?? ({} as RoutePageOptions);
  if (typeof engine !== 'string' || engine === '') {
    throw new ConfigurationError(
      'FOLIO_BAD_OPTION',
      `Expected \`engine\` to be \`auto\`, \`text\` or an OCR engine name, got \`${String(engine)}\` (${typeof engine})`,
    );
  }
  if (typeof mostlyImage !== 'number' || !(mostlyImage > 0 && mostlyImage <= 1)) {
    throw new ConfigurationError(
      'FOLIO_BAD_OPTION',
      `Expected \`mostlyImage\` to be a number above 0 and up to 1, got \`${String(mostlyImage)}\` (${typeof mostlyImage})`,
    );
  }
  if (engine === 'text') return { engine: 'text', reason: 'forced', details: {} };
  if (engine !== 'auto') return { engine, reason: 'forced', details: {} };

  const details: Record<string, number | string | boolean> = {};
  const assessment = textLayer?.assessment;
  for (const [key, value] of Object.entries(assessment?.details ?? {})) {
    if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') details[key] = value;
  }
  if (assessment !== undefined && !assessment.usable) return { engine: ocrEngine, reason: assessment.reason || 'text-layer-unusable', details };
  const textChars = typeof details.chars === 'number' ? details.chars : 0;
  const measured = typeof details.imageCoverage === 'number';
  // Only pages whose text is too thin to stand on its own need the image coverage to decide,
  // and only when the text layer did not measure it already.
  if (!measured && page !== undefined && (measure === 'always' || assessment === undefined || textChars < minCharsOverImage)) {
    try {
      const figures = await imageCoverage(typeof page === 'function' ? await page() : page);
      details.imageCoverage = round(figures.coverage);
      details.images = figures.images;
      details.largestImage = round(figures.largest);
    } catch (cause) {
      // A page whose objects cannot be read cannot be trusted either; OCR renders what it can.
      details.operatorError = cause instanceof Error ? cause.message : String(cause);
      return { engine: ocrEngine, reason: 'unreadable-operators', details };
    }
  }
  if (assessment === undefined) return { engine: ocrEngine, reason: 'no-text-layer', details };
  const coverage = typeof details.imageCoverage === 'number' ? details.imageCoverage : 0;
  const chars = typeof details.chars === 'number' ? details.chars : Infinity;
  if (coverage >= mostlyImage && chars < minCharsOverImage) return { engine: ocrEngine, reason: 'mostly-image', details };
  // Text with figures beside it: the text layer holds the words, figures stay figures.
  if (coverage > 0.05) details.mixed = true;
  return { engine: 'text', reason: 'text-layer-good', details };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
