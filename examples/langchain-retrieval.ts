/**
 * A small retrieval chain, end to end, with Folio as LangChain's loader, embeddings and retriever:
 *
 *   PDFs ──FolioLoader──▶ Documents ──FolioEmbeddings──▶ Elasticsearch ──FolioRetriever──▶ prompt ──▶ (LLM)
 *
 * Run (needs Elasticsearch: `npm run es:start`, or ELASTICSEARCH_URL):
 *   npx node examples/langchain-retrieval.ts "Which data sets was OTSL evaluated on?"
 * With an OpenAI-compatible LLM the chain also answers:
 *   FOLIO_LLM_URL=http://127.0.0.1:8000/v1 FOLIO_LLM_MODEL=qwen npx node examples/langchain-retrieval.ts "…"
 * Without one it prints the prompt the LLM would get.
 */
import { Client } from '@elastic/elasticsearch';
import type { Document } from '@langchain/core/documents';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnableLambda, RunnablePassthrough, RunnableSequence } from '@langchain/core/runnables';
import { indexBody } from '../mappings/index.ts';
import type { FolioDocumentMetadata } from '../retrieval/index.ts';
import { askMessages, FolioEmbeddings, FolioLoader, FolioRetriever } from '../retrieval/index.ts';

const question = process.argv[2] ?? 'Which data sets was OTSL evaluated on, and how much faster is it than HTML?';
const url = process.env['ELASTICSEARCH_URL'] ?? 'http://127.0.0.1:9200';
const index = `folio-example-langchain-${process.pid}`;
const client = new Client({ node: url });
const embeddings = new FolioEmbeddings();

try {
  // 1. Load: one Document per chunk, with source, loc.pageNumber and folio metadata.
  const embedder = await embeddings.embedder();
  const loader = new FolioLoader({
    inputs: '../shared/data/docling-dev/pdf',
    // Text layer only; chunks sized to the embedding model's window.
    pipeline: { engine: 'text', maxTokens: embedder.maxTokens, countTokens: (t: string) => embedder.countTokens(t) },
    onFailure: (f) => console.error(`skipped ${f.source}: ${f.reason}`),
  });
  const docs = await loader.load();
  console.error(`loaded ${docs.length} chunks`);

  // 2. Embed and index with Folio's chunk mapping (what `folio ingest` does for you).
  const vectors = await embeddings.embedDocuments(docs.map((d) => d.pageContent));
  const body = indexBody('chunks', embedder.dims);
  await client.indices.create({ index, settings: body.settings, mappings: body.mappings });
  const operations = docs.flatMap((d, i) => {
    const { source, folio } = d.metadata;
    return [
      { index: { _index: index, _id: folio.id } },
      {
        text: d.pageContent,
        vector: vectors[i],
        source,
        doc_id: folio.docId,
        pages: folio.pages,
        heading_path: folio.headingPath,
        kind: folio.kind,
        bboxes: folio.bboxes,
        chunk_index: folio.chunkIndex,
      },
    ];
  });
  await client.bulk({ operations, refresh: 'wait_for' });

  // 3. Retrieve and build the prompt: a LangChain runnable chain.
  const retriever = new FolioRetriever({ client, index, k: 4, embeddings });
  const cite = (documents: Document<FolioDocumentMetadata>[]) =>
    documents
      .map(
        (d, i) =>
          `[${i + 1}] ${d.metadata.source.split('/').pop()}, p. ${d.metadata.loc.pageNumber}${d.metadata.folio.headingPath.length ? ` › ${d.metadata.folio.headingPath.join(' › ')}` : ''}\n${d.pageContent}`,
      )
      .join('\n\n');
  const [system, user] = askMessages('{question}', '{context}');
  const prompt = ChatPromptTemplate.fromMessages([
    ['system', system!.content],
    ['human', user!.content],
  ]);
  const llmUrl = process.env['FOLIO_LLM_URL'];
  const llm = RunnableLambda.from(async (value: { toChatMessages(): { content: unknown; getType(): string }[] }) => {
    const messages = value.toChatMessages().map((m) => ({ role: m.getType() === 'human' ? 'user' : m.getType(), content: String(m.content) }));
    if (!llmUrl) return `(no FOLIO_LLM_URL set: the prompt the LLM would get)\n\n${messages.map((m) => `## ${m.role}\n${m.content}`).join('\n\n')}`;
    const response = await fetch(`${llmUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(process.env['FOLIO_LLM_API_KEY'] ? { authorization: `Bearer ${process.env['FOLIO_LLM_API_KEY']}` } : {}),
      },
      body: JSON.stringify({ model: process.env['FOLIO_LLM_MODEL'] ?? 'default', messages, temperature: 0 }),
    });
    const json = (await response.json()) as { choices?: { message?: { content?: string } }[] };
    return json.choices?.[0]?.message?.content ?? JSON.stringify(json);
  });
  const chain = RunnableSequence.from([{ context: retriever.pipe(cite), question: new RunnablePassthrough() }, prompt, llm]);
  console.log(await chain.invoke(question));
} finally {
  await client.indices.delete({ index }, { ignore: [404] });
  await client.close();
  await embeddings.close();
}
