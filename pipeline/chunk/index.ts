export type { ChunkOptions } from './chunk.ts';
export { chunkDocument } from './chunk.ts';
export { countTokens } from './tokens.ts';
