/**
 * Print the synthetic table set to `.cache/quality/tables/`: `<name>.pdf` by Debian's Chromium
 * (print-to-PDF, through playwright-core) beside `<name>-str.xml`, its ground truth. Made once
 * and again whenever the generator's version or the count changes; `node bench/quality/tables/make.ts`
 * makes it by hand.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../../../core/errors.ts';
import { runChild } from '../../common/tools.ts';
import { CACHE_DIR } from '../engines/cache.ts';
import { pageHtml, structureXml } from './render.ts';
import { tableSpec } from './shapes.ts';

export const TABLES_DIR = path.join(CACHE_DIR, 'tables');
/** Tables in the set: every ruling (index mod 4) twelve times over, the last eight with sideways column headers. */
export const TABLE_COUNT = 64;
const CHROMIUM = '/usr/bin/chromium';
const SOURCES = ['shapes.ts', 'render.ts', 'make.ts'].map((f) => fileURLToPath(new URL(f, import.meta.url)));

export const tableName = (i: number): string => `table-${String(i + 1).padStart(3, '0')}`;

/** Debian's Chromium, installed where missing and this user may (root, as on CI), like the bench's other tools. */
async function ensureChromium(log: (line: string) => void): Promise<void> {
  if (existsSync(CHROMIUM)) return;
  const hint = `the synthetic table set is printed by ${CHROMIUM}: apt-get update && apt-get install -y chromium`;
  if (process.getuid?.() !== 0) throw new ConfigurationError('FOLIO_BENCH_TOOL', hint);
  log('quality: tables: installing chromium (apt-get) …');
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-q'],
    ['install', '-y', '-q', '--no-install-recommends', 'chromium'],
  ]) {
    const run = await runChild({ command: 'apt-get', args, env, timeoutMs: 900_000 });
    if (run.code !== 0) throw new ConfigurationError('FOLIO_BENCH_TOOL', `${hint} (apt-get ${args[0]} failed: ${run.stderr.trim().split('\n').at(-1)})`);
  }
  if (!existsSync(CHROMIUM)) throw new ConfigurationError('FOLIO_BENCH_TOOL', hint);
}

/** A hash of the generator's sources: the set is printed again when they change. */
async function stamp(): Promise<string> {
  const hash = createHash('sha256');
  for (const f of SOURCES) hash.update(await readFile(f));
  return `${hash.digest('hex').slice(0, 16)}-${TABLE_COUNT}`;
}

/** Make the set where it is missing or stale; resolves to its folder. */
export async function ensureTableSet(log: (line: string) => void = (line) => console.error(line)): Promise<string> {
  const want = await stamp();
  const stampFile = path.join(TABLES_DIR, 'STAMP');
  if ((await readFile(stampFile, 'utf8').catch(() => '')) === want) return TABLES_DIR;
  await ensureChromium(log);
  log(`quality: tables: printing ${TABLE_COUNT} synthetic table PDFs with Chromium to ${TABLES_DIR}`);
  await rm(TABLES_DIR, { recursive: true, force: true });
  await mkdir(TABLES_DIR, { recursive: true });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    const page = await browser.newPage();
    for (let i = 0; i < TABLE_COUNT; i++) {
      const spec = tableSpec(i);
      const name = tableName(i);
      await page.setContent(pageHtml(spec), { waitUntil: 'load' });
      // Wide tables go on a landscape page, as a report would print them.
      const landscape = spec.cols >= 8;
      await page.pdf({
        path: path.join(TABLES_DIR, `${name}.pdf`),
        format: 'A4',
        landscape,
        margin: { top: '20mm', bottom: '20mm', left: '20mm', right: '20mm' },
      });
      await writeFile(path.join(TABLES_DIR, `${name}-str.xml`), structureXml(spec, `${name}.pdf`));
    }
  } finally {
    await browser.close();
  }
  await writeFile(stampFile, want);
  return TABLES_DIR;
}

if (import.meta.main) console.error(`tables: ${await ensureTableSet()}`);
