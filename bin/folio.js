#!/usr/bin/env -S node --max-semi-space-size=16
// The `folio` command. A checkout of the repository runs the TypeScript sources (Node 24 strips
// the types); the installed package ships no sources, so it runs the built JavaScript in dist/.
import { existsSync } from 'node:fs';

// Before anything else loads: an older Node would fail deep inside with an error naming neither
// version. Plain JavaScript, no imports of Folio's: it must run on any Node. MIN_NODE is
// core/node-version.ts's (a test keeps them equal).
const MIN_NODE = '22.17.0';
const [major, minor] = process.versions.node.split('.').map(Number);
const [needMajor, needMinor] = MIN_NODE.split('.').map(Number);
if (major < needMajor || (major === needMajor && minor < needMinor)) {
  process.stderr.write(`folio: @folio-ocr/folio needs Node.js ${MIN_NODE} or newer; this is Node.js ${process.versions.node} (${process.execPath})\n`);
  process.exit(2);
}

const source = new URL('./folio.ts', import.meta.url);
await import(existsSync(source) ? source.href : new URL('../dist/bin/folio.js', import.meta.url).href);
