/**
 * Legacy binary Office files (Word 97–2003 `.doc`, Excel `.xls`, PowerPoint `.ppt`): converted to
 * their Open XML successors by LibreOffice (headless, its own throw-away profile, a time limit),
 * then read by the DOCX, XLSX or PPTX reader. Without LibreOffice each fails naming the converter.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SourceError } from '../../core/errors.ts';
import type { FormatDocument } from './types.ts';

export const LEGACY_TARGETS: Readonly<Record<string, { readonly from: string; readonly to: string }>> = {
  'application/msword': { from: 'doc', to: 'docx' },
  'application/vnd.ms-excel': { from: 'xls', to: 'xlsx' },
  'application/vnd.ms-powerpoint': { from: 'ppt', to: 'pptx' },
};

/** The LibreOffice binary: `FOLIO_SOFFICE`, else `soffice` on PATH (Debian's `libreoffice-core`). */
const soffice = (): string => process.env.FOLIO_SOFFICE ?? 'soffice';

function run(args: readonly string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(soffice(), [...args], { timeout: timeoutMs, killSignal: 'SIGKILL' }, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * @example
 * const doc = await readLegacy(docBytes, 'application/msword');
 */
export async function readLegacy(bytes: Uint8Array, mime: string, timeoutMs = 120_000): Promise<FormatDocument> {
  const target = LEGACY_TARGETS[mime];
  if (!target) throw new SourceError('FOLIO_UNSUPPORTED_TYPE', `no converter for ${mime}`);
  const dir = await mkdtemp(join(tmpdir(), 'folio-legacy-'));
  try {
    const input = join(dir, `input.${target.from}`);
    await writeFile(input, bytes);
    try {
      // A profile per conversion: two LibreOffice processes sharing one profile block each other.
      await run(
        [
          '--headless',
          '--norestore',
          `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
          '--convert-to',
          target.to,
          '--outdir',
          join(dir, 'out'),
          input,
        ],
        timeoutMs,
      );
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'ENOENT') {
        throw new SourceError(
          'FOLIO_CONVERTER_MISSING',
          `a .${target.from} file is read through LibreOffice, which is not installed (apt-get install libreoffice-core, or set FOLIO_SOFFICE)`,
          { cause: error },
        );
      }
      throw new SourceError('FOLIO_CONVERTER_FAILED', `LibreOffice could not convert the .${target.from} file: ${(error as Error).message.split('\n')[0]}`, {
        cause: error,
      });
    }
    const produced = (await readdir(join(dir, 'out')).catch(() => [] as string[])).find((f) => f.endsWith(`.${target.to}`));
    if (!produced) throw new SourceError('FOLIO_CONVERTER_FAILED', `LibreOffice wrote no .${target.to} for the .${target.from} file (damaged or encrypted?)`);
    const converted = new Uint8Array(await readFile(join(dir, 'out', produced)));
    const { readDocx } = await import('./docx.ts');
    if (target.to === 'docx') return { ...readDocx(converted), format: target.from };
    if (target.to === 'xlsx') return { ...(await import('./xlsx.ts')).readXlsx(converted), format: target.from };
    return { ...(await import('./pptx.ts')).readPptx(converted), format: target.from };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
