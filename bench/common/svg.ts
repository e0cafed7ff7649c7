/**
 * Plain SVG bar charts for the report: no plotting dependency, readable in any browser and on
 * GitHub.
 */

export interface Bar {
  readonly label: string;
  readonly value: number;
  /** Bars of the same series share a colour (e.g. `folio`, `pdftotext`). */
  readonly series?: string;
}

export interface BarChartOptions {
  readonly title: string;
  readonly bars: readonly Bar[];
  /** Axis label, e.g. `pages/s`. */
  readonly unit: string;
  /**
   * Width in pixels.
   * @default 640
   */
  readonly width?: number;
  /** Fixed maximum of the axis (e.g. 1 for fractions); the largest value when absent. */
  readonly max?: number;
}

const COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948'];

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A horizontal bar chart as an SVG document.
 *
 * @example
 * barChart({ title: 'pages/s', unit: 'pages/s', bars: [{ label: 'folio', value: 120 }] })
 */
export function barChart({ title, bars, unit, width = 640, max }: Readonly<BarChartOptions>): string {
  const rowHeight = 22;
  const labelWidth = 220;
  const top = 34;
  const height = top + bars.length * rowHeight + 30;
  const finite = bars.map((b) => (Number.isFinite(b.value) ? b.value : 0));
  const axisMax = max ?? Math.max(1e-9, ...finite);
  const plotWidth = width - labelWidth - 70;
  const series = [...new Set(bars.map((b) => b.series ?? ''))];
  const rows = bars.map((bar, i) => {
    const y = top + i * rowHeight;
    const value = Number.isFinite(bar.value) ? bar.value : 0;
    const w = Math.max(0, (value / axisMax) * plotWidth);
    const colour = COLOURS[series.indexOf(bar.series ?? '') % COLOURS.length]!;
    const shown = Number.isFinite(bar.value) ? (Math.abs(bar.value) >= 100 ? bar.value.toFixed(0) : bar.value.toPrecision(3)) : 'n/a';
    return [
      `<text x="${labelWidth - 6}" y="${y + 15}" text-anchor="end">${escape(bar.label)}</text>`,
      `<rect x="${labelWidth}" y="${y + 3}" width="${w.toFixed(1)}" height="${rowHeight - 6}" fill="${colour}"/>`,
      `<text x="${(labelWidth + w + 4).toFixed(1)}" y="${y + 15}">${shown}</text>`,
    ].join('');
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${escape(title)}</text>`,
    ...rows,
    `<text x="${labelWidth + plotWidth / 2}" y="${height - 8}" text-anchor="middle" fill="#555">${escape(unit)}</text>`,
    '</svg>',
    '',
  ].join('\n');
}
