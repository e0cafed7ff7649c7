/**
 * Scans of the formulas set: each pdflatex page of `--set formulas` rendered at 200 DPI and degraded
 * the way `npx folio bench scans` degrades its pages (skew, blur, noise, JPEG, sometimes a quarter
 * turn), saved as an image-only PDF, so the page goes to OCR. Ground truth is the set's LaTeX.
 * Scored: the share of formulas found rendering like the truth (olmOCR math semantics), and the
 * body text's CER (heading and prose; display formulas are taken out of both sides, inline formulas
 * out of the truth), so that a formula reader that ate prose would show.
 *
 *     node bench/quality/formulas/scans.ts [--limit N] [--no-formula-regions]
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { sha256, stableId } from '../../../core/hash.ts';
import type { SourceDocument } from '../../../core/types.ts';
import { createEngine } from '../../../inference/create-engine.ts';
import { openPdf } from '../../../pipeline/pdf/index.ts';
import { renderPdfPage } from '../../../pipeline/render/index.ts';
import { processDocument } from '../../../pipeline/run/index.ts';
import { findMath } from '../../olmocr/math.ts';
import { degradePage, drawDegradation } from '../../scans/degrade.ts';
import { jpegPdf } from '../../scans/image-pdf.ts';
import { seededRandom } from '../../scans/random.ts';
import { scorePage } from '../../scans/score.ts';
import { CACHE_DIR } from '../engines/cache.ts';
import { ensureFormulaPages, FORMULAS_DIR } from './make.ts';
import type { PageFormula } from './pages.ts';

export const FORMULA_SCANS_DIR = path.join(CACHE_DIR, 'formula-scans');
const DPI = 200;
const SEED = 'folio-formula-scans-1';

/** The degraded PDFs, made from the typeset pages when missing. */
export async function ensureFormulaScans(dir = FORMULA_SCANS_DIR): Promise<string[]> {
  const { pages } = await ensureFormulaPages();
  await mkdir(dir, { recursive: true });
  const names: string[] = [];
  for (const page of pages) {
    const out = path.join(dir, `${page.name}.pdf`);
    names.push(page.name);
    if (
      await readFile(out).then(
        () => true,
        () => false,
      )
    )
      continue;
    const source = path.join(FORMULAS_DIR, 'pdf', `${page.name}.pdf`);
    const pdf = await openPdf(await readFile(source), { source });
    try {
      const image = await renderPdfPage(await pdf.page(1), { source, docId: source, pageNumber: 1, dpi: DPI });
      const grey = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
        .greyscale()
        .raw()
        .toBuffer();
      const random = seededRandom(`${SEED}/${page.name}`);
      const scan = await degradePage(grey, image.width, image.height, drawDegradation(random), random);
      await writeFile(out, jpegPdf(scan.jpeg, scan.width, scan.height, DPI));
    } finally {
      await pdf.close();
    }
  }
  return names;
}

/** Heading and prose of a page as typeset: display equations and inline formulas left out. */
async function bodyTruth(name: string): Promise<string> {
  const tex = await readFile(path.join(FORMULAS_DIR, 'tex', `${name}.tex`), 'utf8');
  const body = tex.slice(tex.indexOf('\\begin{document}') + '\\begin{document}'.length, tex.indexOf('\\end{document}'));
  return body
    .replace(/\\begin\{equation\}[\s\S]*?\\end\{equation\}/g, '\n')
    .replace(/\$[^$]*\$/g, '')
    .replace(/\\section\*\{([^}]*)\}/, '# $1\n')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** Output Markdown without its display formulas (what the body CER reads). */
const withoutDisplay = (markdown: string): string => markdown.replace(/\$\$[\s\S]*?\$\$/g, ' ').replace(/\\\[[\s\S]*?\\\]/g, ' ');

if (import.meta.main) {
  const { values } = parseArgs({ options: { limit: { type: 'string' }, 'no-formula-regions': { type: 'boolean' } } });
  const names = (await ensureFormulaScans()).slice(0, values.limit === undefined ? undefined : Number(values.limit));
  const engine = await createEngine('paddle');
  const totals = { display: [0, 0], inline: [0, 0], detected: 0, emitted: 0, kept: 0, cer: 0 };
  try {
    for (const name of names) {
      const file = path.join(FORMULA_SCANS_DIR, `${name}.pdf`);
      const bytes = new Uint8Array(await readFile(file));
      const uri = pathToFileURL(file).href;
      const doc: SourceDocument = { id: stableId(uri), uri, relativePath: `${name}.pdf`, mime: 'application/pdf', bytes, contentHash: sha256(bytes) };
      const result = await processDocument(doc, { engine: 'auto', ocr: async () => engine, formulaRegions: values['no-formula-regions'] !== true });
      const truth = JSON.parse(await readFile(path.join(FORMULAS_DIR, 'truth', `${name}.json`), 'utf8')) as PageFormula[];
      const found = { display: [0, 0], inline: [0, 0] };
      for (const f of truth) {
        const where = f.display ? 'display' : 'inline';
        found[where][0]! += Number(findMath(f.latex, result.markdown).passed);
        found[where][1]! += 1;
      }
      const detected = result.pages.reduce((s, p) => s + Number(p.regions?.formulaRegions ?? 0), 0);
      const emitted = result.elements.filter((e) => e.kind === 'formula').length;
      const kept = result.elements.filter((e) => e.engine === 'folio-ocr-math').length;
      const { cer } = scorePage(withoutDisplay(result.markdown), await bodyTruth(name));
      for (const k of ['display', 'inline'] as const) for (const i of [0, 1]) totals[k][i]! += found[k][i]!;
      totals.emitted += emitted;
      totals.kept += kept;
      totals.cer += cer;
      console.log(
        `${name}\tdisplay ${found.display[0]}/${found.display[1]}\tinline ${found.inline[0]}/${found.inline[1]}\tdetected ${detected}\tformulas ${emitted} (model ${kept})\tbody CER ${cer.toFixed(3)}`,
      );
      totals.detected += detected;
      if (process.env.FOLIO_FORMULA_SCANS_DUMP) {
        await writeFile(path.join(process.env.FOLIO_FORMULA_SCANS_DUMP, `${name}.md`), result.markdown);
        await writeFile(path.join(process.env.FOLIO_FORMULA_SCANS_DUMP, `${name}.json`), JSON.stringify(result.pages, null, 1));
      }
    }
  } finally {
    await engine.close();
  }
  const all = totals.display[0]! + totals.inline[0]!;
  const n = totals.display[1]! + totals.inline[1]!;
  console.log(
    `all\tfound ${all}/${n} (${((100 * all) / Math.max(1, n)).toFixed(1)}%)\tdisplay ${totals.display[0]}/${totals.display[1]}\tinline ${totals.inline[0]}/${totals.inline[1]}\tdetected ${totals.detected}\tformulas ${totals.emitted} (model ${totals.kept})\tmean body CER ${(totals.cer / Math.max(1, names.length)).toFixed(3)}`,
  );
}
