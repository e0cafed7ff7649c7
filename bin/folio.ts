#!/usr/bin/env node
import module from 'node:module';

// Cache compiled code between runs: the Markdown stack, katex and the engines cost a second or more of compilation per process.
// (Through the default export: a named import would stop a Node without it before bin/folio.js names the versions.)
module.enableCompileCache?.();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
