/** The unit formula layout works on: one run of glyphs of one font and size on one baseline. */

export interface Atom {
  readonly text: string;
  readonly x0: number;
  readonly x1: number;
  /** Baseline y (page y grows down). */
  readonly y: number;
  readonly size: number;
  /** Empty when the text layer gave none (a one-line formula read from a line's pieces). */
  readonly font: string;
}

/** Horizontal rules near a formula: fraction bars and radical vincula. */
export interface Bar {
  readonly y: number;
  readonly x0: number;
  readonly x1: number;
}

export const centre = (a: { x0: number; x1: number }): number => (a.x0 + a.x1) / 2;

/** Top of an atom's ink, roughly: TeX's ascender is 0.7 of the size. */
export const topOf = (a: Atom): number => a.y - 0.7 * a.size;
