import { ConfigurationError } from '../../core/errors.ts';

export async function benchCommand(argv: readonly string[]): Promise<number> {
  const [suite, ...rest] = argv;
  if (!suite) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', 'bench needs a suite: textlayer, parse, olmocr, docling, ocr, decode, serve, retrieval, plugin, all');
  const { runBench } = await import('../../bench/index.ts');
  return runBench(suite, rest);
}
