#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

// Cache compiled code between runs: the Markdown stack, katex and the engines cost a second or more of compilation per process.
enableCompileCache();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
