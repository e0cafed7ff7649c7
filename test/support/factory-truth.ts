/** A factory family's documents printed and their truth checked against the text layer: shared by the family tests. */
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkTruth, type TruthCheck } from '../../bench/factory/check/index.ts';
import { ensurePoppler } from '../../bench/factory/layer.ts';
import type { Renderer } from '../../bench/factory/render/types.ts';
import type { PlannedDocument } from '../../bench/factory/types.ts';

/** Make `renderer`'s engine and pdftotext available (apt-get where this user may) and a scratch folder. */
export async function preparePrinting(renderer: Renderer, log: (line: string) => void): Promise<string> {
  await renderer.ensure(log);
  await ensurePoppler(log);
  return mkdtemp(path.join(tmpdir(), `factory-${renderer.name}-`));
}

/** Check `doc`'s truth against its PDF and fail on any problem: a body text not found, furniture missing or unexpected. */
export async function truthHolds(doc: PlannedDocument, pdf: string): Promise<TruthCheck> {
  const check = await checkTruth(doc, pdf);
  assert.ok(check.pages >= 1, `${doc.id}: no page`);
  assert.deepEqual([check.body.missing, check.furniture.missing, check.furniture.unexpected], [[], [], []], doc.id);
  return check;
}

/** Print `docs` with `renderer` into `dir` (none may fail) and check each one's truth (`truthHolds`). */
export async function printAndCheck(
  renderer: Renderer,
  docs: readonly PlannedDocument[],
  dir: string,
  log: (line: string) => void = () => {},
): Promise<TruthCheck[]> {
  const pdf = (d: PlannedDocument): string => path.join(dir, `${d.id}.pdf`);
  const failures = await renderer.render(
    docs.map((d) => ({ id: d.id, source: d.source, pdf: pdf(d) })),
    path.join(dir, 'work'),
    log,
  );
  assert.deepEqual([...failures.keys()], []);
  const checks: TruthCheck[] = [];
  for (const d of docs) checks.push(await truthHolds(d, pdf(d)));
  return checks;
}
