export { loadTokenizer } from './tokenizer.ts';
export type { TextTokenizer, LoadTokenizerOptions } from './tokenizer.ts';
export { TextStreamer } from './stream.ts';
