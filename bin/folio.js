#!/usr/bin/env node
// The `folio` command. A checkout of the repository runs the TypeScript sources (Node 24 strips
// the types); the installed package ships no sources, so it runs the built JavaScript in dist/.
import { existsSync } from 'node:fs';

const source = new URL('./folio.ts', import.meta.url);
await import(existsSync(source) ? source.href : new URL('../dist/bin/folio.js', import.meta.url).href);
