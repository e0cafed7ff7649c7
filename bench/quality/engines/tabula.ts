/**
 * tabula-java 1.0.5 (tables only) from Maven Central: `mvn dependency:copy-dependencies` on
 * `bench/quality/tabula-pom.xml` puts its jars under `.cache/quality/tabula` on first use. One JVM
 * per set and mode (`-b` batch over links to the PDFs); its JSON tables become HTML tables.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasTool, runChild } from '../../common/tools.ts';
import type { QualityDocument, QualityEngine } from '../types.ts';
import { CACHE_DIR } from './cache.ts';

const JARS = path.join(CACHE_DIR, 'tabula');
const POM = fileURLToPath(new URL('../tabula-pom.xml', import.meta.url));
const CLASSPATH = `${JARS}/*`;

export const TABULA_MODES = ['guess', 'lattice', 'stream'] as const;
export type TabulaMode = (typeof TABULA_MODES)[number];

const FLAGS: Readonly<Record<TabulaMode, readonly string[]>> = { guess: ['-g'], lattice: ['-l'], stream: ['-t'] };

interface TabulaCell {
  readonly text?: string;
}
interface TabulaTable {
  readonly data?: readonly (readonly TabulaCell[])[];
}

const escapeHtml = (s: string): string => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** tabula's JSON (an array of tables of rows of cells) as HTML tables, one per line. */
export function tabulaJsonToHtml(json: string): string {
  const tables = JSON.parse(json) as TabulaTable[];
  return `${tables
    .map(
      (t) =>
        `<table>${(t.data ?? []).map((row) => `<tr>${row.map((c) => `<td>${escapeHtml((c.text ?? '').replace(/\r/g, ' '))}</td>`).join('')}</tr>`).join('')}</table>`,
    )
    .join('\n\n')}\n`;
}

async function installJars(): Promise<string | undefined> {
  if (existsSync(path.join(JARS, 'tabula-1.0.5.jar'))) return undefined;
  if (!(await hasTool('mvn'))) return 'mvn is not installed (apt-get install maven)';
  await mkdir(JARS, { recursive: true });
  const run = await runChild({
    command: 'mvn',
    args: ['-q', '-B', '-f', POM, 'dependency:copy-dependencies', `-DoutputDirectory=${JARS}`],
    timeoutMs: 900_000,
  });
  if (run.code !== 0 || !existsSync(path.join(JARS, 'tabula-1.0.5.jar')))
    return `mvn could not fetch technology.tabula:tabula:1.0.5: ${(run.stdout + run.stderr).trim().split('\n').at(-1)}`;
  return undefined;
}

/**
 * tabula-java in one extraction mode.
 * @param mode `guess` (-g), `lattice` (-l, ruling lines) or `stream` (-t, whitespace).
 */
export function tabulaEngine(mode: TabulaMode): QualityEngine {
  return {
    name: `tabula-${mode}`,
    kind: 'baseline',
    tablesOnly: true,
    async prepare() {
      if (!(await hasTool('java'))) return 'java is not installed';
      return installJars();
    },
    version: async () => `tabula-java 1.0.5 (${mode})`,
    async convert(documents: readonly QualityDocument[], out: string) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-tabula-'));
      const failures: string[] = [];
      try {
        // Batch mode writes `<pdf>.json` beside each PDF: links keep the data folder untouched.
        const byLink = new Map<string, QualityDocument>();
        documents.forEach((doc, i) => {
          byLink.set(`d${i}`, doc);
        });
        for (const [link, doc] of byLink) await symlink(path.resolve(doc.pdf), path.join(dir, `${link}.pdf`));
        const run = await runChild({
          command: 'java',
          args: ['-cp', CLASSPATH, 'technology.tabula.CommandLineApp', ...FLAGS[mode], '-p', 'all', '-f', 'JSON', '-i', '-b', dir],
          timeoutMs: 1_800_000,
        });
        if (run.code !== 0) failures.push(`tabula exited ${run.code}: ${run.stderr.trim().split('\n').slice(-2).join(' | ')}`);
        const produced = new Set(await readdir(dir));
        for (const [link, doc] of byLink) {
          const target = path.join(out, `${doc.name}.md`);
          await mkdir(path.dirname(target), { recursive: true });
          if (!produced.has(`${link}.json`)) {
            failures.push(`${doc.name}: no output`);
            continue;
          }
          try {
            await writeFile(target, tabulaJsonToHtml(await readFile(path.join(dir, `${link}.json`), 'utf8')));
          } catch (error) {
            failures.push(`${doc.name}: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
        return { wallMs: run.wallMs, failures };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
