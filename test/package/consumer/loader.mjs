// Runs inside a temporary project that installed the packed tarball: the LangChain loader over
// the file given, the way a user's code would call it.
import { FolioLoader } from '@folio-ocr/folio/langchain';

const docs = await new FolioLoader({ inputs: process.argv[2] }).load();
process.stdout.write(
  JSON.stringify(docs.map((d) => ({ text: d.pageContent, source: d.metadata.source, page: d.metadata.loc?.pageNumber, kind: d.metadata.folio?.kind }))),
);
