// Runs inside a temporary project that installed the packed tarball: imports every subpath the
// package exports and reports what each one holds, and where the package was resolved from.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const name = '@folio-ocr/folio';
const manifest = JSON.parse(await readFile(fileURLToPath(import.meta.resolve(`${name}/package.json`)), 'utf8'));
const report = { resolved: fileURLToPath(import.meta.resolve(name)), subpaths: {} };
for (const subpath of Object.keys(manifest.exports)) {
  if (subpath === './package.json') continue;
  const specifier = subpath === '.' ? name : `${name}/${subpath.slice(2)}`;
  report.subpaths[subpath] = Object.keys(await import(specifier)).sort();
}
process.stdout.write(JSON.stringify(report));
