/**
 * `@folio-ocr/folio/langchain`: Folio for LangChain.js. A document loader (one `Document` per
 * chunk or per page, with `source`, `loc` and a `folio` block of metadata), embeddings (the
 * bundled model or an OpenAI-compatible endpoint) and a hybrid-search retriever. Needs
 * `@langchain/core` (a peer dependency).
 *
 * @example
 * import { FolioLoader } from '@folio-ocr/folio/langchain';
 * const docs = await new FolioLoader({ inputs: 'reports/' }).load();
 */
export { FolioLoader } from './loader.ts';
export type { FolioLoaderOptions, ChunkSource, ChunkSourceContext, LoaderMode } from './loader.ts';
export { FolioEmbeddings } from './embeddings.ts';
export type { FolioEmbeddingsOptions } from './embeddings.ts';
export { FolioRetriever } from './retriever.ts';
export type { FolioRetrieverOptions } from './retriever.ts';
export { chunkToDocument, chunksToPageDocuments, hitToDocument } from './metadata.ts';
export type { FolioMetadata, FolioDocumentMetadata } from './metadata.ts';
