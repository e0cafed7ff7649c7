import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../../core/errors.ts';
import { siblingModule } from '../../core/module-url.ts';

/** What `bench/index.ts` exports; declared here so the package build does not pull `bench/` in. */
interface BenchModule {
  runBench(suite: string, argv: readonly string[]): Promise<number>;
}

export async function benchCommand(argv: readonly string[]): Promise<number> {
  const [suite, ...rest] = argv;
  if (!suite)
    throw new ConfigurationError(
      'FOLIO_BAD_ARGUMENTS',
      'bench needs a suite: textlayer, parse, olmocr, docling, ocr, decode, math, serve, retrieval, plugin, all',
    );
  // The benchmarks read the repository's data sets, tools and results folder, so they run from a
  // checkout (`npx folio bench` there), not from the installed package, which does not ship them.
  const entry = siblingModule('../../bench/index', import.meta.url);
  if (!existsSync(fileURLToPath(entry))) {
    throw new ConfigurationError(
      'FOLIO_BENCH_UNAVAILABLE',
      'folio bench runs from a checkout of the Folio repository (its suites read the data sets and results there); the installed package does not ship the benchmarks',
      { meta: { entry: entry.href } },
    );
  }
  const { runBench } = (await import(entry.href)) as BenchModule;
  return runBench(suite, rest);
}
