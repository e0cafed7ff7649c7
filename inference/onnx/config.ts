/**
 * `folio-model.json`: what a model folder declares about itself (ARCHITECTURE.md's contract), read
 * into one typed object. Every check names the file and the field, so a wrong folder fails at
 * load time with a message that says what to fix rather than deep inside a forward pass.
 */
import { InferenceError } from '../../core/errors.ts';

/** Model families this engine can run. */
export const FAMILIES = ['folio-ocr'] as const;

/** Values of `folio-model.json` → `input`. */
export const MODEL_INPUTS = ['page', 'text-block'] as const;
export type ModelInput = (typeof MODEL_INPUTS)[number];

export interface ViewSize {
  readonly height: number;
  readonly width: number;
}

export interface OcrModelConfig {
  readonly family: (typeof FAMILIES)[number];
  readonly name: string;
  readonly version: string;
  readonly licence: string;
  readonly trainingData: string;
  /**
   * What one view holds: `page` (a whole page, the default when the field is missing) or
   * `text-block` (1–4 text lines; the engine finds the lines itself and reads them view by view).
   */
  readonly input: ModelInput;
  readonly image: {
    readonly globalView: ViewSize;
    readonly tile: ViewSize;
    /** 0: the global view only. */
    readonly maxTiles: number;
    /** `grey`: L from RGB (PIL's integer formula) replicated to 3 channels; `rgb`: channels as they are. */
    readonly colour: 'grey' | 'rgb';
    readonly mean: readonly [number, number, number];
    readonly std: readonly [number, number, number];
  };
  /** Visual tokens per view, image_newline included (vision.onnx appends it). */
  readonly tokensPerView: number;
  readonly special: {
    readonly pad: number;
    readonly bos: number;
    readonly eos: number;
    readonly image: number;
    readonly viewSeparator: number;
  };
  /** Ids before and after the run of image tokens (the suffix starts with the view separator). */
  readonly prompt: { readonly prefixIds: readonly number[]; readonly suffixIds: readonly number[] };
  readonly decoder: {
    readonly layers: number;
    readonly hidden: number;
    readonly kvHeads: number;
    readonly headDim: number;
    readonly vocab: number;
    readonly maxPositions: number;
  };
  readonly draft: { readonly k: number; readonly blocks: number };
  /** Default token budget per page. */
  readonly maxNewTokens: number;
  readonly files: {
    readonly vision: string;
    readonly embed: string;
    readonly decoder: string;
    readonly mtp: string;
    /**
     * Optional step graphs (`onnx.decoder_step`, `onnx.mtp_step`): the same networks over
     * fixed-capacity caches (slot = position, no rollback), for fast decoding on the CPU. Undefined when the
     * model does not declare them (the contract graphs above are enough to decode).
     */
    readonly decoderStep?: string;
    readonly mtpStep?: string;
  };
}

/**
 * Check and normalise the parsed JSON of `folio-model.json`.
 *
 * @example
 * const config = parseModelConfig(JSON.parse(text), 'model/folio-model.json');
 */
export function parseModelConfig(json: unknown, file: string): OcrModelConfig {
  const r = new Reader(file);
  const root = r.object(json, '');
  const family = r.string(root, 'family');
  if (!(FAMILIES as readonly string[]).includes(family)) {
    throw new InferenceError('FOLIO_MODEL_FAMILY', `${file}: unknown model family \`${family}\`; this engine runs ${FAMILIES.join(', ')}`, {
      meta: { file, family },
    });
  }
  const input = root.input ?? 'page';
  if (!(MODEL_INPUTS as readonly unknown[]).includes(input)) {
    throw new InferenceError(
      'FOLIO_MODEL_CONFIG',
      `${file}: expected \`input\` to be one of ${MODEL_INPUTS.join(', ')}, got \`${JSON.stringify(input)?.slice(0, 60)}\` (${typeof input})`,
      { meta: { file, field: 'input' } },
    );
  }
  const image = r.object(root.image, 'image');
  const view = (o: unknown, at: string): ViewSize => {
    const v = r.object(o, at);
    return { height: r.int(v, 'height', at, 1), width: r.int(v, 'width', at, 1) };
  };
  const colour = String(image.colour ?? 'rgb')
    .toLowerCase()
    .startsWith('grey')
    ? 'grey'
    : 'rgb';
  const special = r.object(root.special_tokens, 'special_tokens');
  const prompt = r.object(root.prompt, 'prompt');
  const decoder = r.object(root.decoder, 'decoder');
  const draft = r.object(root.draft_head ?? {}, 'draft_head');
  const generation = r.object(root.generation ?? {}, 'generation');
  const visual = r.object(root.visual_tokens, 'visual_tokens');
  const onnx = r.object(root.onnx ?? {}, 'onnx');
  const declared = (key: string): string | undefined => {
    const entry = onnx[key];
    return typeof entry === 'object' && entry !== null && typeof (entry as Record<string, unknown>).file === 'string'
      ? ((entry as Record<string, unknown>).file as string)
      : undefined;
  };
  const fileOf = (key: string, fallback: string): string => declared(key) ?? fallback;
  const decoderStep = declared('decoder_step');
  const mtpStep = declared('mtp_step');
  return {
    family: family as OcrModelConfig['family'],
    name: typeof root.name === 'string' ? root.name : family,
    version: r.string(root, 'version'),
    licence: typeof root.licence === 'string' ? root.licence : typeof root.license === 'string' ? root.license : 'unknown',
    input: input as ModelInput,
    trainingData: typeof root.training_data === 'string' ? root.training_data : JSON.stringify(root.training_data ?? 'unknown'),
    image: {
      globalView: view(image.global_view, 'image.global_view'),
      tile: view(image.tile ?? image.global_view, 'image.tile'),
      maxTiles: r.int(image, 'max_tiles', 'image', 0),
      colour,
      mean: r.triple(image, 'mean', 'image'),
      std: r.triple(image, 'std', 'image'),
    },
    tokensPerView: r.int(visual, 'tokens_per_view', 'visual_tokens', 1),
    special: {
      pad: r.int(special, 'pad', 'special_tokens', 0),
      bos: r.int(special, 'bos', 'special_tokens', 0),
      eos: r.int(special, 'eos', 'special_tokens', 0),
      image: r.int(special, 'image', 'special_tokens', 0),
      viewSeparator: r.int(special, 'view_separator', 'special_tokens', 0),
    },
    prompt: { prefixIds: r.ids(prompt, 'prefix_ids', 'prompt'), suffixIds: r.ids(prompt, 'suffix_ids', 'prompt') },
    decoder: {
      layers: r.int(decoder, 'layers', 'decoder', 1),
      hidden: r.int(decoder, 'hidden', 'decoder', 1),
      kvHeads: r.int(decoder, 'kv_heads', 'decoder', 1),
      headDim: r.int(decoder, 'head_dim', 'decoder', 1),
      vocab: r.int(decoder, 'vocab', 'decoder', 2),
      maxPositions: r.int(decoder, 'max_positions', 'decoder', 1),
    },
    draft: {
      k: draft.K === undefined ? 0 : r.int(draft, 'K', 'draft_head', 0),
      blocks: draft.blocks === undefined ? 0 : r.int(draft, 'blocks', 'draft_head', 0),
    },
    maxNewTokens: generation.max_new_tokens === undefined ? 2048 : r.int(generation, 'max_new_tokens', 'generation', 1),
    files: {
      vision: fileOf('vision', 'vision.onnx'),
      embed: fileOf('embed_tokens', 'embed_tokens.onnx'),
      decoder: fileOf('decoder', 'decoder.onnx'),
      mtp: fileOf('mtp', 'mtp.onnx'),
      ...(decoderStep === undefined ? {} : { decoderStep }),
      ...(mtpStep === undefined ? {} : { mtpStep }),
    },
  };
}

/** Field readers whose errors say `file: field: expected …, got …`. */
class Reader {
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  object(value: unknown, at: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.#fail(at || '(root)', 'an object', value);
    return value as Record<string, unknown>;
  }

  string(o: Record<string, unknown>, key: string): string {
    const v = o[key];
    if (typeof v !== 'string' || v === '') this.#fail(key, 'a non-empty string', v);
    return v as string;
  }

  int(o: Record<string, unknown>, key: string, at: string, min: number): number {
    const v = o[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) this.#fail(`${at}.${key}`, `an integer from ${min} and up`, v);
    return v as number;
  }

  ids(o: Record<string, unknown>, key: string, at: string): number[] {
    const v = o[key];
    if (!Array.isArray(v) || !v.every((x) => Number.isInteger(x) && x >= 0)) this.#fail(`${at}.${key}`, 'an array of token ids', v);
    return v as number[];
  }

  triple(o: Record<string, unknown>, key: string, at: string): [number, number, number] {
    const v = o[key];
    if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) this.#fail(`${at}.${key}`, 'three numbers', v);
    return v as [number, number, number];
  }

  #fail(field: string, expected: string, got: unknown): never {
    const shown = got === undefined ? 'nothing' : `\`${JSON.stringify(got)?.slice(0, 60)}\` (${Array.isArray(got) ? 'array' : typeof got})`;
    throw new InferenceError('FOLIO_MODEL_CONFIG', `${this.#file}: expected \`${field}\` to be ${expected}, got ${shown}`, {
      meta: { file: this.#file, field },
    });
  }
}
