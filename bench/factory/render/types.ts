/** The renderers' contract: sources in, PDFs out, one batch per renderer so each engine starts once. */
import type { DocumentSource } from '../types.ts';

export interface RenderJob {
  readonly id: string;
  readonly source: DocumentSource;
  /** Where the PDF goes. */
  readonly pdf: string;
}

export interface Renderer {
  readonly name: DocumentSource['renderer'];
  /**
   * Make the engine available: install it with apt-get where missing and this user may (root, as
   * on CI); otherwise throw `ConfigurationError('FOLIO_BENCH_TOOL', '<what to install>')`.
   */
  ensure(log: (line: string) => void): Promise<void>;
  /**
   * Render every job; `workDir` is scratch space the renderer owns. Resolves to the failures by job
   * id (a job missing from the map rendered): one bad document never stops the batch.
   */
  render(jobs: readonly RenderJob[], workDir: string, log: (line: string) => void): Promise<Map<string, Error>>;
}
