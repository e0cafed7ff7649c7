import { createEngine } from '@folio-ocr/folio/engines';
import { FolioEmbeddings, FolioLoader, FolioRetriever } from '@folio-ocr/folio/langchain';

// One LangChain Document per chunk; OCR (the embedded paddle engine) only for pages without a good text layer.
const loader = new FolioLoader({
  inputs: ['reports/'],
  pipeline: { engine: 'auto', ocr: () => createEngine('paddle') },
  onFailure: (failure) => console.warn(failure.code, failure.reason),
});
const docs = await loader.load();
console.log(docs[0]?.metadata.source, docs[0]?.metadata.loc.pageNumber, docs[0]?.metadata.folio.headingPath);

// The bundled all-MiniLM-L6-v2 on the CPU; close it when done (it holds an onnxruntime session).
const embeddings = new FolioEmbeddings();
try {
  const vectors = await embeddings.embedDocuments(docs.map((doc) => doc.pageContent));
  console.log(vectors.length, vectors[0]?.length);
  // Hybrid search over chunks that `folio ingest --es URL` indexed.
  const retriever = new FolioRetriever({ url: 'http://127.0.0.1:9200', k: 5, embeddings });
  for (const hit of await retriever.invoke('How is a page routed to OCR?')) console.log(hit.metadata.source, hit.pageContent.slice(0, 80));
} finally {
  await embeddings.close();
}
