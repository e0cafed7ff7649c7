/**
 * The `folio` command line: parses the command, runs it, and turns errors into one clear line
 * and an exit code (see `EXIT` in `summary.ts`: 2 for configuration, 3 for a sink that lost
 * records, 1 for other failures).
 */
import { ConfigurationError, FolioError, IndexingError, SourceError } from '../core/errors.ts';
import { EXIT, EXIT_CODES_HELP } from './summary.ts';

const USAGE = `folio — documents to structured, searchable chunks

usage: folio <command> [options]        (folio <command> --help for details)

  ingest <paths|urls...>     read, OCR where needed, chunk, embed, index (or write NDJSON)
  convert <inputs...>        write clean Markdown + elements JSON per input
  search "<query>"           hybrid search over the index
  ask "<question>"           the top chunks as a cited context block
  serve                      an OpenAI-compatible OCR server over the local engines
  mappings install           the Elasticsearch plugin's index template and dead-letter index
  replay --from INDEX        send the plugin's dead letters through their pipeline again
  bench <suite>              benchmarks: textlayer, parse, olmocr, docling, ocr, decode, math, retrieval, all

${EXIT_CODES_HELP}`;

const COMMANDS: Record<string, (argv: readonly string[]) => Promise<number>> = {
  ingest: async (argv) => (await import('./commands/ingest.ts')).ingestCommand(argv),
  convert: async (argv) => (await import('./commands/convert.ts')).convertCommand(argv),
  search: async (argv) => (await import('./commands/search.ts')).searchCommand(argv),
  ask: async (argv) => (await import('./commands/search.ts')).searchCommand(argv, true),
  serve: async (argv) => (await import('./commands/serve.ts')).serveCommand(argv),
  mappings: async (argv) => (await import('./commands/plugin-indices.ts')).mappingsCommand(argv),
  replay: async (argv) => (await import('./commands/plugin-indices.ts')).replayCommand(argv),
  bench: async (argv) => (await import('./commands/bench.ts')).benchCommand(argv),
};

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const run = COMMANDS[command];
  if (!run) {
    console.error(`folio: unknown command \`${command}\`\n\n${USAGE}`);
    return 2;
  }
  try {
    return await run(rest);
  } catch (error) {
    if (error instanceof ConfigurationError) {
      console.error(`folio ${command}: ${error.message}`);
      return EXIT.configuration;
    }
    // The sink lost records for good (the fallback file could not be written either).
    if (error instanceof IndexingError) {
      console.error(`folio ${command}: ${error.message} [${error.code}]`);
      return EXIT.sinkLost;
    }
    // A source server (S3) lost mid-run, like a lost sink: nothing pruned, rerun once it is back.
    if (error instanceof SourceError && error.code === 'FOLIO_SOURCE_LOST') {
      console.error(`folio ${command}: ${error.message} [${error.code}]`);
      return EXIT.sinkLost;
    }
    if (error instanceof FolioError) {
      console.error(`folio ${command}: ${error.message} [${error.code}]`);
      return 1;
    }
    console.error(`folio ${command}: unexpected error`, error);
    return 1;
  }
}
