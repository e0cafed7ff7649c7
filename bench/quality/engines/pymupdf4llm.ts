/**
 * pymupdf4llm 2.x (with PyMuPDF 2.x and its layout model) in a virtual environment under
 * `.cache/quality/venv`, installed from PyPI on first use; one Python process per set.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hasTool, measured, runChild } from '../../common/tools.ts';
import type { QualityDocument, QualityEngine } from '../types.ts';
import { CACHE_DIR } from './cache.ts';

const VENV = path.join(CACHE_DIR, 'venv');
const PYTHON = path.join(VENV, 'bin', 'python');

// Reads `[[pdf, target], …]` as JSON on argv[1]; a PDF that fails is reported on stderr, the rest go on.
const DRIVER = `
import json, sys, traceback
import pymupdf4llm
failed = 0
for pdf, target in json.load(open(sys.argv[1])):
    try:
        md = pymupdf4llm.to_markdown(pdf, show_progress=False)
        open(target, "w", encoding="utf-8").write(md)
    except Exception as e:
        failed += 1
        print("FAILED\\t%s\\t%s" % (pdf, str(e).replace("\\n", " ")), file=sys.stderr)
`;

export const pymupdf4llmEngine: QualityEngine = {
  name: 'pymupdf4llm',
  kind: 'baseline',
  async prepare() {
    if (!existsSync(PYTHON)) {
      if (!(await hasTool('python3'))) return 'python3 is not installed';
      await mkdir(CACHE_DIR, { recursive: true });
      const venv = await runChild({ command: 'python3', args: ['-m', 'venv', VENV] });
      if (venv.code !== 0) return `python3 -m venv failed: ${venv.stderr.trim().split('\n').at(-1)}`;
    }
    const check = await runChild({ command: PYTHON, args: ['-c', 'import pymupdf, pymupdf.layout, pymupdf4llm'] });
    if (check.code === 0) return undefined;
    // pymupdf4llm alone is an empty placeholder; PyMuPDF 2.x brings the extractor and layout model.
    const pip = await runChild({
      command: PYTHON,
      args: ['-m', 'pip', 'install', '-q', 'pymupdf>=2', 'pymupdf4llm>=0.2', 'pymupdf-layout'],
      timeoutMs: 900_000,
    });
    if (pip.code !== 0) return `pip install pymupdf pymupdf4llm failed: ${pip.stderr.trim().split('\n').at(-1)}`;
    const again = await runChild({ command: PYTHON, args: ['-c', 'import pymupdf, pymupdf.layout, pymupdf4llm'] });
    return again.code === 0 ? undefined : `pymupdf4llm does not import: ${again.stderr.trim().split('\n').at(-1)}`;
  },
  async version() {
    const run = await runChild({
      command: PYTHON,
      args: ['-c', 'import pymupdf, pymupdf4llm; print("pymupdf4llm", pymupdf4llm.version, "PyMuPDF", pymupdf.VersionBind)'],
    });
    return run.stdout.trim() || 'pymupdf4llm';
  },
  async convert(documents: readonly QualityDocument[], out: string) {
    const pairs: [string, string][] = [];
    for (const doc of documents) {
      const target = path.join(out, `${doc.name}.md`);
      await mkdir(path.dirname(target), { recursive: true });
      pairs.push([path.resolve(doc.pdf), path.resolve(target)]);
    }
    const list = path.join(out, '.inputs.json');
    await writeFile(list, JSON.stringify(pairs));
    const run = await runChild({ command: PYTHON, args: ['-c', DRIVER, list], timeoutMs: 1_800_000, env: { OMP_THREAD_LIMIT: '1' }, measureMemory: true });
    const failures = run.stderr
      .split('\n')
      .filter((l) => l.startsWith('FAILED\t'))
      .map((l) => l.split('\t').slice(1).join(': '));
    if (run.code !== 0) failures.push(`python exited ${run.code}: ${run.stderr.trim().split('\n').slice(-2).join(' | ')}`);
    return { wallMs: run.wallMs, failures, ...measured([run]) };
  },
};
