/**
 * When a page is finished: the end-of-sequence token, the token budget, or a repetition loop
 * (an OCR model that starts repeating a row of a table rarely stops by itself).
 *
 * Speculative decoding commits several tokens at once; they go through {@link StopCondition.push}
 * one by one and whatever follows a stop is dropped, so greedy and speculative decoding stop at
 * the same token.
 */
import { ConfigurationError } from '../../core/errors.ts';

export type StopReason = 'eos' | 'max-tokens' | 'repetition' | 'aborted';

export interface RepetitionGuardOptions {
  /** Longest repeating unit, in tokens, that is looked for. @default 64 */
  readonly maxPeriod?: number;
  /** The unit must repeat at least this many times… @default 10 */
  readonly minRepeats?: number;
  /** …and the repeating tail must be at least this many tokens long. @default 160 */
  readonly minSpan?: number;
}

export interface StopOptions {
  readonly eosId: number;
  /** Tokens per page, the first one included. */
  readonly maxTokens: number;
  /** `false` turns the guard off. @default {} */
  readonly repetition?: Readonly<RepetitionGuardOptions> | false;
}

/**
 * @example
 * const stop = new StopCondition({ eosId: 2, maxTokens: 2048 });
 * for (const token of committed) if (stop.push(token)) break;
 */
export class StopCondition {
  readonly tokens: number[] = [];
  readonly #eosId: number;
  readonly #maxTokens: number;
  readonly #maxPeriod: number;
  readonly #minRepeats: number;
  readonly #minSpan: number;
  /** run[p]: how many of the latest tokens equal the token p places before them. */
  readonly #run: Int32Array;

  constructor(options: Readonly<StopOptions>) {
    const { eosId, maxTokens, repetition = {} } = options;
    if (!Number.isInteger(maxTokens) || maxTokens < 1) {
      throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`maxTokens\` to be an integer from 1 and up, got \`${maxTokens}\` (${typeof maxTokens})`);
    }
    this.#eosId = eosId;
    this.#maxTokens = maxTokens;
    const { maxPeriod = 64, minRepeats = 10, minSpan = 160 } = repetition === false ? { maxPeriod: 0 } : repetition;
    this.#maxPeriod = maxPeriod;
    this.#minRepeats = minRepeats;
    this.#minSpan = minSpan;
    this.#run = new Int32Array(maxPeriod + 1);
  }

  /** Append one committed token; returns why the page stops here, if it does. */
  push(token: number): StopReason | undefined {
    const t = this.tokens;
    t.push(token);
    if (token === this.#eosId) return 'eos';
    const n = t.length;
    for (let p = 1; p <= this.#maxPeriod; p++) {
      this.#run[p] = n > p && t[n - 1 - p] === token ? this.#run[p]! + 1 : 0;
      // `run + p` tokens form a tail that repeats with period p.
      if (this.#run[p]! + p >= Math.max(this.#minSpan, this.#minRepeats * p)) return 'repetition';
    }
    if (n >= this.#maxTokens) return 'max-tokens';
    return undefined;
  }
}
