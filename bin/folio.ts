#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

// Cache compiled code between runs: pdfjs alone costs seconds of compilation per process.
enableCompileCache();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
