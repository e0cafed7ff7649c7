/**
 * Ids in, text deltas out, for streaming. A byte-level BPE token can end in the middle of a UTF-8
 * character; its decoded text then ends in U+FFFD, and the delta waits for the next token.
 */
import type { TextTokenizer } from './tokenizer.ts';

/**
 * @example
 * const streamer = new TextStreamer(tokenizer);
 * for (const ids of steps) process.stdout.write(streamer.push(ids));
 * process.stdout.write(streamer.flush());
 */
export class TextStreamer {
  readonly #tokenizer: TextTokenizer;
  /** Ids not emitted yet: those after the last character boundary. */
  #pending: number[] = [];

  constructor(tokenizer: TextTokenizer) {
    this.#tokenizer = tokenizer;
  }

  /** Add ids; returns the new text that is complete so far ('' while a character is split). */
  push(ids: readonly number[]): string {
    this.#pending.push(...ids);
    const text = this.#tokenizer.decode(this.#pending);
    if (text.endsWith('\uFFFD')) return '';
    // Byte-level BPE decodes piecewise exactly, so each push costs the recent ids, not all of them.
    this.#pending = [];
    return text;
  }

  /** Whatever is left, even a split character. */
  flush(): string {
    const text = this.#tokenizer.decode(this.#pending);
    this.#pending = [];
    return text;
  }
}
