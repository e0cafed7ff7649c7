/**
 * Word's styles and numbering definitions: which paragraph style is a heading (built-in names,
 * outline levels, custom styles based on a heading), and which numbering makes a list ordered.
 */
import { attr, kid, kids, type XmlElement } from './xml.ts';

interface Style {
  readonly name: string;
  readonly basedOn?: string;
  readonly outline?: number;
  readonly numId?: string;
  readonly ilvl?: number;
  readonly bold?: boolean;
  readonly italic?: boolean;
}

export interface NumberingLevel {
  readonly format: string;
  readonly start: number;
  /** The number's template: `%1.` shows this level's counter, `%1.%2.` the outline number. */
  readonly text: string;
}

function roman(n: number): string {
  const table: [number, string][] = [
    [1000, 'm'],
    [900, 'cm'],
    [500, 'd'],
    [400, 'cd'],
    [100, 'c'],
    [90, 'xc'],
    [50, 'l'],
    [40, 'xl'],
    [10, 'x'],
    [9, 'ix'],
    [5, 'v'],
    [4, 'iv'],
    [1, 'i'],
  ];
  let out = '';
  for (const [value, digits] of table) for (; n >= value; n -= value) out += digits;
  return out;
}

function letters(n: number): string {
  return String.fromCharCode(97 + ((n - 1) % 26)).repeat(Math.floor((n - 1) / 26) + 1);
}

/** A counter in a level's format (`decimal`, `lowerLetter`, `upperRoman`, …). */
export function formatCounter(n: number, format: string): string {
  switch (format) {
    case 'lowerLetter':
      return letters(n);
    case 'upperLetter':
      return letters(n).toUpperCase();
    case 'lowerRoman':
      return roman(n);
    case 'upperRoman':
      return roman(n).toUpperCase();
    case 'decimalZero':
      return String(n).padStart(2, '0');
    default:
      return String(n);
  }
}

const HEADING_NAME = /^(?:heading|überschrift|titre|titolo|título|kop)\s*(\d)$/i;

/** True unless `w:val` says off (`0`, `false`, `none`). */
export function isOn(node: XmlElement | undefined): boolean {
  if (!node) return false;
  const value = attr(node, 'val');
  return value === undefined || !(value === '0' || value === 'false' || value === 'none' || value === 'off');
}

export class WordStyles {
  readonly #styles = new Map<string, Style>();
  readonly #defaultParagraph?: string;

  constructor(styles: XmlElement | undefined) {
    let defaultParagraph: string | undefined;
    for (const style of kids(styles, 'style')) {
      const id = attr(style, 'styleId');
      if (id === undefined) continue;
      if (attr(style, 'type') === 'paragraph' && (attr(style, 'default') === '1' || attr(style, 'default') === 'true')) defaultParagraph = id;
      const pPr = kid(style, 'pPr');
      const rPr = kid(style, 'rPr');
      const outline = attr(kid(pPr, 'outlineLvl'), 'val');
      const numPr = kid(pPr, 'numPr');
      this.#styles.set(id, {
        name: attr(kid(style, 'name'), 'val') ?? id,
        ...(attr(kid(style, 'basedOn'), 'val') === undefined ? {} : { basedOn: attr(kid(style, 'basedOn'), 'val') }),
        ...(outline === undefined ? {} : { outline: Number(outline) }),
        ...(attr(kid(numPr, 'numId'), 'val') === undefined ? {} : { numId: attr(kid(numPr, 'numId'), 'val') }),
        ...(attr(kid(numPr, 'ilvl'), 'val') === undefined ? {} : { ilvl: Number(attr(kid(numPr, 'ilvl'), 'val')) }),
        ...(kid(rPr, 'b') === undefined ? {} : { bold: isOn(kid(rPr, 'b')) }),
        ...(kid(rPr, 'i') === undefined ? {} : { italic: isOn(kid(rPr, 'i')) }),
      });
    }
    if (defaultParagraph !== undefined) this.#defaultParagraph = defaultParagraph;
  }

  /** The style and those it is based on, nearest first (a cycle stops the walk). */
  *#chain(id: string | undefined): Generator<Style> {
    const seen = new Set<string>();
    let current = id ?? this.#defaultParagraph;
    while (current !== undefined && !seen.has(current) && seen.size < 20) {
      seen.add(current);
      const style = this.#styles.get(current);
      if (!style) return;
      yield style;
      current = style.basedOn;
    }
  }

  name(id: string | undefined): string {
    return this.#chain(id).next().value?.name ?? '';
  }

  /**
   * Heading level 1–9 of a paragraph style, or 0: `Title` is 0.5 (above every heading); a style
   * named like `heading N` is N; otherwise the outline level of the style or one it is based on.
   */
  headingLevel(id: string | undefined): number {
    for (const style of this.#chain(id)) {
      const name = style.name.trim();
      if (/^title$/i.test(name)) return 0.5;
      if (/^subtitle$/i.test(name)) return 0;
      const match = HEADING_NAME.exec(name);
      if (match) return Number(match[1]);
      if (style.outline !== undefined && style.outline >= 0 && style.outline < 9) return style.outline + 1;
    }
    return 0;
  }

  /** Numbering a style carries (list styles such as `List Bullet`). */
  numbering(id: string | undefined): { numId: string; ilvl: number } | undefined {
    for (const style of this.#chain(id)) if (style.numId !== undefined) return { numId: style.numId, ilvl: style.ilvl ?? 0 };
    return undefined;
  }

  /** Bold and italic a style sets on its text. */
  emphasis(id: string | undefined): { bold: boolean; italic: boolean } {
    let bold: boolean | undefined;
    let italic: boolean | undefined;
    for (const style of this.#chain(id)) {
      bold ??= style.bold;
      italic ??= style.italic;
    }
    return { bold: bold ?? false, italic: italic ?? false };
  }

  /** Style names that read as code (`HTML Preformatted`, `Code`, `Source Code`). */
  isCode(id: string | undefined): boolean {
    for (const style of this.#chain(id)) if (/\b(code|preformatted|verbatim|listing)\b/i.test(style.name)) return true;
    return false;
  }
}

export class WordNumbering {
  readonly #abstract = new Map<string, Map<number, NumberingLevel>>();
  readonly #nums = new Map<string, { abstractId: string; overrides: Map<number, number> }>();

  constructor(numbering: XmlElement | undefined) {
    for (const abstract of kids(numbering, 'abstractNum')) {
      const levels = new Map<number, NumberingLevel>();
      for (const lvl of kids(abstract, 'lvl')) {
        levels.set(Number(attr(lvl, 'ilvl') ?? 0), {
          format: attr(kid(lvl, 'numFmt'), 'val') ?? 'decimal',
          start: Number(attr(kid(lvl, 'start'), 'val') ?? 1),
          text: attr(kid(lvl, 'lvlText'), 'val') ?? '',
        });
      }
      this.#abstract.set(attr(abstract, 'abstractNumId') ?? '', levels);
    }
    for (const num of kids(numbering, 'num')) {
      const overrides = new Map<number, number>();
      for (const o of kids(num, 'lvlOverride')) {
        const start = attr(kid(o, 'startOverride'), 'val');
        if (start !== undefined) overrides.set(Number(attr(o, 'ilvl') ?? 0), Number(start));
      }
      this.#nums.set(attr(num, 'numId') ?? '', { abstractId: attr(kid(num, 'abstractNumId'), 'val') ?? '', overrides });
    }
  }

  /** The level's format and start, or undefined when `numId` names no numbering (`0` turns numbering off). */
  level(numId: string, ilvl: number): NumberingLevel | undefined {
    const num = this.#nums.get(numId);
    if (!num) return undefined;
    const level = this.#abstract.get(num.abstractId)?.get(ilvl) ?? { format: 'decimal', start: 1, text: `%${ilvl + 1}.` };
    const start = num.overrides.get(ilvl);
    return start === undefined ? level : { ...level, start };
  }

  /**
   * The outline number an item shows when its template names outer levels too (`%1.%2.` → `1.2.`),
   * else undefined (a plain numbered or bulleted item).
   */
  outlineNumber(numId: string, ilvl: number, counters: readonly number[]): string | undefined {
    const level = this.level(numId, ilvl);
    if (!level || !/%\d.*%\d/.test(level.text)) return undefined;
    return level.text.replace(/%(\d)/g, (_, d: string) => {
      const at = Number(d) - 1;
      return formatCounter(counters[at] ?? this.level(numId, at)?.start ?? 1, this.level(numId, at)?.format ?? 'decimal');
    });
  }

  /** The abstract definition behind a `numId`: two nums sharing one continue one list. */
  abstractOf(numId: string): string {
    return this.#nums.get(numId)?.abstractId ?? numId;
  }
}
