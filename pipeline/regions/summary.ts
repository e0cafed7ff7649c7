/**
 * The route details `readRegions` writes (documented in README's configuration section), picked
 * out for the page summaries `convert` and `ingest` report.
 */
export const REGION_DETAIL_KEYS = [
  'imageRegions',
  'imageRegionsRead',
  'imageEngine',
  'formulaRegions',
  'formulaRegionsRead',
  'formulaEngine',
  'imageRegionsLabelled',
  'regionsRefused',
  'regionsDropped',
  'regionsFailed',
  // Pictures inside office files (`pipeline/run/format-pictures.ts`), read by the same reader.
  'picturesRead',
  'picturesLabelled',
  'picturesSkipped',
  'picturesRefused',
  'picturesRefusedWhy',
] as const;

/**
 * @example
 * regionSummary({ chars: 900, imageRegions: 1, imageRegionsRead: 1, imageEngine: 'paddle' }) // { imageRegions: 1, imageRegionsRead: 1, imageEngine: 'paddle' }
 */
export function regionSummary(details: Readonly<Record<string, number | string | boolean>> | undefined): Record<string, number | string | boolean> | undefined {
  if (details === undefined) return undefined;
  const out: Record<string, number | string | boolean> = {};
  for (const key of REGION_DETAIL_KEYS) if (details[key] !== undefined) out[key] = details[key] as number | string | boolean;
  return Object.keys(out).length > 0 ? out : undefined;
}
