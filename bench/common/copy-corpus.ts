/** A corpus copied several times under other paths, for runs that must read more pages than it holds. */
import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * A new folder under `under` holding `copies` copies of `files`, each in `copy-N/`, numbered so two
 * files of one name stay two.
 *
 * @example
 * const dir = await copyCorpus(['a.pdf', 'b.pdf'], 4) // dir/copy-1/0-a.pdf …
 */
export async function copyCorpus(files: readonly string[], copies: number, under: string = os.tmpdir()): Promise<string> {
  const dir = await mkdtemp(path.join(under, 'folio-bench-copies-'));
  for (let c = 1; c <= copies; c++) {
    await mkdir(path.join(dir, `copy-${c}`));
    for (const [i, file] of files.entries()) await copyFile(file, path.join(dir, `copy-${c}`, `${i}-${path.basename(file)}`));
  }
  return dir;
}
