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

// First: on a Node older than the package supports, this fails at once naming both versions.
import '../../core/require-node.ts';

export type { FolioEmbeddingsOptions } from './embeddings.ts';
export { FolioEmbeddings } from './embeddings.ts';
export type { ChunkSource, ChunkSourceContext, FolioLoaderOptions, LoaderMode } from './loader.ts';
export { FolioLoader } from './loader.ts';
export type { FolioDocumentMetadata, FolioMetadata } from './metadata.ts';
export { chunksToPageDocuments, chunkToDocument, hitToDocument } from './metadata.ts';
export type { FolioRetrieverOptions } from './retriever.ts';
export { FolioRetriever } from './retriever.ts';
