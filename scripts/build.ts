/**
 * `npm run build` (and `prepack`): compile the product folders with `tsconfig.build.json` into
 * `dist/` (JavaScript with `.js` imports, and `.d.ts`), then copy the run-time files tsc does
 * not emit (see `package/assets.ts`). `dist/` is rebuilt from nothing, so a file deleted from the
 * sources never lingers in a package.
 */
import { spawnSync } from 'node:child_process';
import { chmod, copyFile, cp, mkdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST_DIR, PACKAGE_ASSET_DIRS, PACKAGE_ASSETS } from './package/assets.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, DIST_DIR);

await rm(dist, { recursive: true, force: true });
// typescript's `exports` hide its bin, so it is found from the package root.
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
if (compiled.status !== 0) {
  process.stderr.write(`build: tsc failed (exit ${compiled.status ?? compiled.signal})\n`);
  process.exit(1);
}
for (const asset of PACKAGE_ASSETS) {
  await mkdir(dirname(join(dist, asset)), { recursive: true });
  await copyFile(join(root, asset), join(dist, asset));
}
for (const dir of PACKAGE_ASSET_DIRS) {
  // The folder's tsconfig only type-checks it in the repository.
  await cp(join(root, dir), join(dist, dir), { recursive: true, filter: (from) => !from.endsWith('tsconfig.json') });
}
await chmod(join(dist, 'bin/folio.js'), 0o755);
process.stderr.write(`build: ${DIST_DIR}/ written (${PACKAGE_ASSETS.length} asset files copied)\n`);
