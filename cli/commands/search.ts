import { ConfigurationError } from '../../core/errors.ts';
import { integer, parse } from '../options.ts';

export const SEARCH_USAGE = `folio search "<query>" [--es URL] [--index NAME] [--k N] [--mode hybrid|bm25|knn] [--json]
folio ask "<question>" [--es URL] [--index NAME] [--k N] [--llm URL --llm-model NAME]

search prints hits with document, pages and heading path (hybrid: BM25 + kNN fused by
reciprocal rank fusion); ask prints the top chunks as a cited context block and, with --llm, an
answer from an OpenAI-compatible chat endpoint (key in FOLIO_LLM_API_KEY).

  --es URL        Elasticsearch URL (default: $ELASTICSEARCH_URL)
  --index NAME    chunk index (default folio-chunks)
  --k N           hits (default 5)
  --mode M        hybrid | bm25 | knn (default hybrid)
  --source S      only chunks of this source
  --kind K        only chunks holding this element kind (table, formula, …)
  --nested PATH   the index holds whole documents with chunks nested at PATH (what the
                  Elasticsearch plugin writes: folio.chunks)
  --embed MODE    local | none | an OpenAI-compatible base URL (default local)
  --llm URL       ask: OpenAI-compatible base URL (e.g. http://127.0.0.1:8000/v1) for an answer
  --llm-model M   ask: model name at that endpoint
  --json          print the hits as JSON`;

const SEARCH_FLAGS = {
  es: { type: 'string' },
  index: { type: 'string', default: 'folio-chunks' },
  k: { type: 'string', default: '5' },
  mode: { type: 'string', default: 'hybrid' },
  source: { type: 'string' },
  kind: { type: 'string' },
  nested: { type: 'string' },
  embed: { type: 'string', default: 'local' },
  'embed-model': { type: 'string' },
  json: { type: 'boolean', default: false },
  llm: { type: 'string' },
  'llm-model': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export async function searchCommand(argv: readonly string[], ask = false): Promise<number> {
  const { values, positionals } = parse(argv, SEARCH_FLAGS);
  if (values.help) {
    console.log(SEARCH_USAGE);
    return 0;
  }
  const query = positionals.join(' ').trim();
  if (!query) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `${ask ? 'ask' : 'search'} needs a query\n\n${SEARCH_USAGE}`);
  const url = values.es ?? process.env.ELASTICSEARCH_URL;
  if (!url)
    throw new ConfigurationError(
      'FOLIO_NO_ELASTICSEARCH',
      'search needs Elasticsearch: pass --es URL or set ELASTICSEARCH_URL (npm run es:start starts a local one)',
    );
  const mode = values.mode;
  if (mode !== 'hybrid' && mode !== 'bm25' && mode !== 'knn')
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--mode\` to be hybrid, bm25 or knn, got \`${mode}\``);
  const k = integer('k', values.k, 1) ?? 5;

  const { hybridSearch, ask: askQuestion } = await import('../../retrieval/index.ts');
  const embed = await import('../../inference/embed/index.ts');
  const embedder =
    mode === 'bm25' || values.embed === 'none'
      ? undefined
      : values.embed === 'local'
        ? await embed.createLocalEmbedder({})
        : await embed.createRemoteEmbedder({ url: values.embed, model: values['embed-model'] ?? '', apiKey: process.env.FOLIO_EMBED_API_KEY });
  try {
    const search = {
      url,
      index: values.index,
      query,
      k,
      embedder,
      mode: embedder ? mode : 'bm25',
      filters: { source: values.source, kind: values.kind },
      ...(values.nested ? { nested: values.nested } : {}),
    } as const;
    if (ask) {
      if (values.llm && !values['llm-model']) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', '`--llm URL` needs `--llm-model NAME`');
      const result = await askQuestion({ ...search, llm: values.llm ? { url: values.llm, model: values['llm-model']! } : undefined });
      if (values.json) console.log(JSON.stringify(result, null, 2));
      else console.log(result.answer ? `${result.context}\n\n${result.answer}` : result.context);
      return 0;
    }
    const hits = await hybridSearch(search);
    if (values.json) console.log(JSON.stringify(hits, null, 2));
    else {
      if (hits.length === 0) console.log('no hits');
      hits.forEach((hit, i) => {
        const path = hit.headingPath.length ? ` › ${hit.headingPath.join(' › ')}` : '';
        console.log(`${i + 1}. ${hit.source} (pages ${hit.pages.join(', ')})${path}  [${hit.score.toFixed(3)}]`);
        console.log(`   ${hit.text.replace(/\s+/g, ' ').slice(0, 240)}`);
      });
    }
    return 0;
  } finally {
    await embedder?.close();
  }
}
