/**
 * The two baselines of the formats bench: markitdown (PyPI, in a virtual environment under
 * `.cache/formats/venv`, installed on first use) and pandoc (Debian's package, installed with
 * apt-get where missing and this user may). Each converts a list of files to Markdown files; a
 * file a tool cannot read is recorded, not fatal.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hasTool, runChild } from '../common/tools.ts';

export const CACHE_DIR = '.cache/formats';
const VENV = path.join(CACHE_DIR, 'venv');
const PYTHON = path.join(VENV, 'bin', 'python');
const MARKITDOWN_SPEC = 'markitdown[all]>=0.1,<0.2';

export interface BaselineOutput {
  /** Markdown per input path; absent where the tool failed or does not read the format. */
  readonly markdown: ReadonlyMap<string, string>;
  readonly failures: ReadonlyMap<string, string>;
  readonly seconds: number;
  readonly version: string;
}

export interface Baseline {
  readonly name: string;
  /** Undefined when ready, else why the baseline cannot run. */
  prepare(log: (line: string) => void): Promise<string | undefined>;
  convert(files: readonly string[], out: string): Promise<BaselineOutput>;
}

// Reads `[[input, target], …]` on argv[1]; prints one line per failure and the version.
const DRIVER = `
import json, sys
from importlib.metadata import version
from markitdown import MarkItDown
md = MarkItDown(enable_plugins=False)
for source, target in json.load(open(sys.argv[1])):
    try:
        text = md.convert(source).text_content
        open(target, "w", encoding="utf-8").write(text)
    except Exception as e:
        print("FAILED\\t%s\\t%s" % (source, str(e).replace("\\n", " ")[:300]), file=sys.stderr)
print("markitdown " + version("markitdown"))
`;

const targetOf = (out: string, file: string): string => path.join(out, `${path.basename(file)}.md`);

export const markitdown: Baseline = {
  name: 'markitdown',
  async prepare(log) {
    if (!existsSync(PYTHON)) {
      if (!(await hasTool('python3'))) return 'python3 is not installed';
      await mkdir(CACHE_DIR, { recursive: true });
      const venv = await runChild({ command: 'python3', args: ['-m', 'venv', VENV] });
      if (venv.code !== 0) return `python3 -m venv failed: ${venv.stderr.trim().split('\n').at(-1)}`;
    }
    if ((await runChild({ command: PYTHON, args: ['-c', 'import markitdown'] })).code === 0) return undefined;
    log(`formats: installing ${MARKITDOWN_SPEC} into ${VENV} …`);
    const pip = await runChild({ command: PYTHON, args: ['-m', 'pip', 'install', '-q', MARKITDOWN_SPEC], timeoutMs: 900_000 });
    if (pip.code !== 0) return `pip install markitdown failed: ${pip.stderr.trim().split('\n').at(-1)}`;
    return undefined;
  },
  async convert(files, out) {
    await mkdir(out, { recursive: true });
    const list = path.join(out, '.inputs.json');
    await writeFile(list, JSON.stringify(files.map((f) => [path.resolve(f), path.resolve(targetOf(out, f))])));
    const run = await runChild({ command: PYTHON, args: ['-c', DRIVER, list], timeoutMs: 1_800_000 });
    const failures = new Map<string, string>();
    for (const line of run.stderr.split('\n')) {
      if (!line.startsWith('FAILED\t')) continue;
      const [, source, reason] = line.split('\t');
      const file = files.find((f) => path.resolve(f) === source);
      if (file) failures.set(file, reason ?? 'failed');
    }
    return { ...(await collect(files, out, failures)), seconds: run.wallMs / 1000, version: run.stdout.trim().split('\n').at(-1) ?? 'markitdown' };
  },
};

/** pandoc's reader for an extension; undefined where pandoc has none (pptx, xlsx, odp, ods, msg). */
const PANDOC_READERS: Readonly<Record<string, string>> = {
  docx: 'docx',
  odt: 'odt',
  epub: 'epub',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  csv: 'csv',
  tsv: 'tsv',
  rtf: 'rtf',
  md: 'markdown',
};

export const pandoc: Baseline = {
  name: 'pandoc',
  async prepare(log) {
    if (await hasTool('pandoc')) return undefined;
    if (process.getuid?.() !== 0) return 'pandoc is not installed: apt-get install -y pandoc';
    log('formats: installing pandoc (apt-get) …');
    for (const args of [
      ['update', '-q'],
      ['install', '-y', '-q', '--no-install-recommends', 'pandoc'],
    ]) {
      const run = await runChild({ command: 'apt-get', args, env: { DEBIAN_FRONTEND: 'noninteractive' }, timeoutMs: 900_000 });
      if (run.code !== 0) return `apt-get ${args[0]} failed: ${run.stderr.trim().split('\n').at(-1)}`;
    }
    return (await hasTool('pandoc')) ? undefined : 'pandoc is still missing after apt-get install';
  },
  async convert(files, out) {
    await mkdir(out, { recursive: true });
    const failures = new Map<string, string>();
    let ms = 0;
    for (const file of files) {
      const reader = PANDOC_READERS[path.extname(file).slice(1).toLowerCase()];
      if (reader === undefined) {
        failures.set(file, 'pandoc has no reader for this format');
        continue;
      }
      const run = await runChild({ command: 'pandoc', args: ['-f', reader, '-t', 'gfm', '--wrap=none', '-o', targetOf(out, file), file], timeoutMs: 120_000 });
      ms += run.wallMs;
      if (run.code !== 0) failures.set(file, run.stderr.trim().split('\n').at(-1) ?? `exit ${run.code}`);
    }
    const version = (await runChild({ command: 'pandoc', args: ['--version'] })).stdout.split('\n')[0] ?? 'pandoc';
    return { ...(await collect(files, out, failures)), seconds: ms / 1000, version };
  },
};

async function collect(
  files: readonly string[],
  out: string,
  failures: Map<string, string>,
): Promise<{ markdown: Map<string, string>; failures: Map<string, string> }> {
  const markdown = new Map<string, string>();
  for (const file of files) {
    if (failures.has(file)) continue;
    const text = await readFile(targetOf(out, file), 'utf8').catch(() => undefined);
    if (text === undefined) failures.set(file, 'no output');
    else markdown.set(file, text);
  }
  return { markdown, failures };
}
