/**
 * `folio mappings install` and `folio replay`: the indices of the Elasticsearch plugin's pipeline
 * (the ingested documents' template and the dead-letter index), and sending dead letters
 * through their pipeline again.
 */
import { Client } from '@elastic/elasticsearch';
import { ConfigurationError } from '../../core/errors.ts';
import { installPluginIndices, replayDeadLetters } from '../../mappings/index.ts';
import { integer, parse } from '../options.ts';

export const MAPPINGS_USAGE = `folio mappings install --index NAME [--es URL] [--dead-letter NAME] [--field F] [--pipeline P] [--dims N]

Installs what the Elasticsearch plugin's pipeline writes into: the index template for NAME
(mappings/ingested.json: Markdown as text, chunks nested with their vectors) and the dead-letter
index (mappings/dead-letters.json: the document with its binary kept, the reason under
folio_failure). Re-running updates the template and keeps an existing dead-letter index.

  --es URL            Elasticsearch URL (default: $ELASTICSEARCH_URL)
  --index NAME        the index the pipeline writes (required)
  --dead-letter NAME  the dead-letter index (default NAME-failed)
  --field F           the field holding the document's binary (default data)
  --pipeline P        make P the index's default pipeline (default none: use ?pipeline=)
  --dims N            vector size (default 384)`;

export const REPLAY_USAGE = `folio replay --from DEAD_LETTER_INDEX [--es URL] [--index NAME] [--field F] [--limit N]

Sends each dead letter through the pipeline it failed in, into the index it was meant for, under
its own id, and removes the dead letter once the document is indexed; one that fails again goes
back to the dead-letter index with its new reason. Prints one line per document and a summary.
Exit code 1 when some failed again or could not be replayed.

  --es URL      Elasticsearch URL (default: $ELASTICSEARCH_URL)
  --from NAME   the dead-letter index (required)
  --index NAME  only the dead letters of this index
  --field F     the field holding the document's binary (default data)
  --limit N     at most N dead letters`;

function client(url: string | undefined, command: string): Client {
  const node = url ?? process.env.ELASTICSEARCH_URL;
  if (!node) throw new ConfigurationError('FOLIO_NO_ELASTICSEARCH', `${command} needs Elasticsearch: pass --es URL or set ELASTICSEARCH_URL`);
  return new Client({ node, requestTimeout: 600_000 });
}

export async function mappingsCommand(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    es: { type: 'string' },
    index: { type: 'string' },
    'dead-letter': { type: 'string' },
    field: { type: 'string', default: 'data' },
    pipeline: { type: 'string' },
    dims: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(MAPPINGS_USAGE);
    return 0;
  }
  if (positionals[0] !== 'install' || positionals.length > 1)
    throw new ConfigurationError(
      'FOLIO_BAD_ARGUMENTS',
      `Expected \`folio mappings install\`, got \`folio mappings ${positionals.join(' ')}\`\n\n${MAPPINGS_USAGE}`,
    );
  if (!values.index) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `folio mappings install needs --index NAME\n\n${MAPPINGS_USAGE}`);
  const es = client(values.es, 'folio mappings install');
  try {
    const dims = integer('dims', values.dims, 1);
    const { deadLetterIndex } = await installPluginIndices(es, {
      index: values.index,
      field: values.field,
      ...(values['dead-letter'] ? { deadLetterIndex: values['dead-letter'] } : {}),
      ...(values.pipeline ? { defaultPipeline: values.pipeline } : {}),
      ...(dims === undefined ? {} : { dims }),
    });
    console.log(`index template ${values.index} (pattern ${values.index}) and dead-letter index ${deadLetterIndex} are installed`);
    return 0;
  } finally {
    await es.close();
  }
}

export async function replayCommand(argv: readonly string[]): Promise<number> {
  const { values } = parse(argv, {
    es: { type: 'string' },
    from: { type: 'string' },
    index: { type: 'string' },
    field: { type: 'string', default: 'data' },
    limit: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(REPLAY_USAGE);
    return 0;
  }
  if (!values.from) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `folio replay needs --from DEAD_LETTER_INDEX\n\n${REPLAY_USAGE}`);
  const es = client(values.es, 'folio replay');
  try {
    const limit = integer('limit', values.limit, 1);
    const stats = await replayDeadLetters(es, {
      from: values.from,
      field: values.field,
      ...(values.index ? { index: values.index } : {}),
      ...(limit === undefined ? {} : { limit }),
      onItem: (item) => console.log(`${item.outcome.padEnd(7)} ${item.index}/${item.id}${item.reason ? `: ${item.reason}` : ''}`),
    });
    console.log(`replayed from ${values.from}: ${stats.indexed} indexed (dead letters removed), ${stats.failed} failed again, ${stats.skipped} not replayable`);
    return stats.failed + stats.skipped > 0 ? 1 : 0;
  } finally {
    await es.close();
  }
}
