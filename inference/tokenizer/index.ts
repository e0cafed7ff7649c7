export { TextStreamer } from './stream.ts';
export type { LoadTokenizerOptions, TextTokenizer } from './tokenizer.ts';
export { loadTokenizer } from './tokenizer.ts';
