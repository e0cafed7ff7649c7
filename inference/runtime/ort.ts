/**
 * The only module that imports onnxruntime-node (STYLE.md §8). Sessions are created once and
 * reused; inputs are checked by name before a run so a wrong model fails with a clear message.
 */
import * as ort from 'onnxruntime-node';
import { ConfigurationError, InferenceError } from '../../core/errors.ts';

export type Device = 'cpu' | 'webgpu' | 'cuda';
export const DEVICES: readonly Device[] = ['cpu', 'webgpu', 'cuda'];

export interface SessionOptions {
  /** Execution provider. @default 'cpu' */
  readonly device?: Device;
  /** Intra-op threads on the CPU; 0 lets onnxruntime decide. @default 0 */
  readonly threads?: number;
  /**
   * Let idle intra-op threads spin for work. Spinning wins on a quiet machine and loses badly
   * on a busy one (spinning threads steal the cores the real work needs).
   * @default true
   */
  readonly spinning?: boolean;
  /**
   * Outputs to leave in the device's memory (`webgpu` only; ignored elsewhere): they come back as
   * tensors whose `location` is `'gpu-buffer'`, can be fed as inputs of the next run, and must be
   * `dispose()`d. Every other output is brought to the CPU as usual.
   * @default []
   */
  readonly outputsOnDevice?: readonly string[];
  /** `webgpu`: Dawn's validation of every dispatch (session entry `ep.webgpuexecutionprovider.validationMode`). @default true (onnxruntime's default) */
  readonly validation?: boolean;
  /** onnxruntime's log level (0 verbose … 4 fatal): 0 shows which provider each node was assigned to. @default 2 */
  readonly logLevel?: 0 | 1 | 2 | 3 | 4;
  /** The model itself, for one built in memory; `path` then only names it in messages. */
  readonly bytes?: Uint8Array;
  /** Write onnxruntime's per-node profile (JSON) to a file starting with this path when the session is released. */
  readonly profilePrefix?: string;
}

export type Tensor = ort.Tensor;

/** Name, element type and shape of a model input or output (symbolic dimensions as strings). */
export interface ValueInfo {
  readonly name: string;
  /** Element type, e.g. `float32`; undefined for non-tensor values. */
  readonly type?: string;
  /** Dimensions: a number when fixed, a string when symbolic, empty when unknown. */
  readonly shape: readonly (number | string)[];
}
export type TensorType = 'float32' | 'float16' | 'int64' | 'int32' | 'bool' | 'uint8';

/** What to do about a provider that would not start (see shared/guides/GPU.md). */
const DEVICE_HINTS: Readonly<Partial<Record<Device, string>>> = {
  webgpu:
    '; webgpu needs libvulkan.so.1 (Debian: libvulkan1) and a GPU Vulkan driver (VK_DRIVER_FILES pointing at its ICD manifest); software Vulkan is rejected',
  cuda: '; onnxruntime-node fetches its CUDA files at install time, which .npmrc skips (onnxruntime-node-install=skip): reinstall onnxruntime-node where that download works (without that .npmrc line, CUDA installed), or use --device webgpu',
};

/** A loaded ONNX model with checked inputs. */
export class OnnxSession {
  readonly path: string;
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  /** Types and shapes of the inputs, in model order: what a loader checks a model against. */
  readonly inputInfo: readonly ValueInfo[];
  readonly outputInfo: readonly ValueInfo[];
  readonly #session: ort.InferenceSession;

  private constructor(path: string, session: ort.InferenceSession) {
    this.path = path;
    this.#session = session;
    this.inputNames = session.inputNames;
    this.outputNames = session.outputNames;
    this.inputInfo = describeValues(session.inputNames, session.inputMetadata);
    this.outputInfo = describeValues(session.outputNames, session.outputMetadata);
  }

  static async create(path: string, options: Readonly<SessionOptions> = {}): Promise<OnnxSession> {
    const { device = 'cpu', threads = 0, spinning = true, outputsOnDevice = [], logLevel = 2, validation = true, profilePrefix, bytes } = options;
    if (!DEVICES.includes(device)) {
      throw new ConfigurationError('FOLIO_BAD_DEVICE', `Expected \`device\` to be one of ${DEVICES.join(', ')}, got \`${String(device)}\``);
    }
    try {
      const source = bytes ?? path;
      const sessionOptions: ort.InferenceSession.SessionOptions = {
        executionProviders: [device],
        intraOpNumThreads: threads,
        graphOptimizationLevel: 'all',
        logSeverityLevel: logLevel,
        ...(profilePrefix === undefined ? {} : { enableProfiling: true, profileFilePrefix: profilePrefix }),
        ...(device === 'webgpu' && outputsOnDevice.length > 0 ? { preferredOutputLocation: await outputLocations(source, outputsOnDevice) } : {}),
        // Session config entries, flattened with dots by the binding.
        extra: {
          ...(spinning ? {} : { session: { intra_op: { allow_spinning: '0' } } }),
          ...(device === 'webgpu' && !validation ? { ep: { webgpuexecutionprovider: { validationMode: 'disabled' } } } : {}),
        },
      };
      const session = await openSession(source, sessionOptions);
      return new OnnxSession(path, session);
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      if (device !== 'cpu' && /provider|backend|not (found|available|supported)|libvulkan|cuda/i.test(message)) {
        throw new ConfigurationError(
          'FOLIO_DEVICE_UNAVAILABLE',
          `${path}: execution provider \`${device}\` is not available here (${message})${DEVICE_HINTS[device] ?? ''}`,
          { cause, meta: { device, path } },
        );
      }
      throw new InferenceError('FOLIO_MODEL_LOAD', `${path}: cannot load ONNX model (${message})`, { cause, meta: { path } });
    }
  }

  /**
   * Run with named inputs; throws naming the model and the missing or unexpected inputs.
   * `fetches` (optional) names the outputs to return; a tensor given there receives the output in
   * its own memory (bind it to an input's buffer to update that buffer in place).
   */
  async run(feeds: Readonly<Record<string, Tensor>>, fetches?: Readonly<Record<string, Tensor | null>>): Promise<Record<string, Tensor>> {
    const given = Object.keys(feeds);
    const missing = this.inputNames.filter((name) => !(name in feeds));
    const unexpected = given.filter((name) => !this.inputNames.includes(name));
    if (missing.length > 0 || unexpected.length > 0) {
      throw new InferenceError(
        'FOLIO_MODEL_INPUTS',
        `${this.path}: inputs do not match the model (missing: ${missing.join(', ') || 'none'}; unexpected: ${unexpected.join(', ') || 'none'})`,
        { meta: { path: this.path } },
      );
    }
    try {
      const inputs = feeds as Record<string, ort.Tensor>;
      return await (fetches === undefined ? this.#session.run(inputs) : this.#session.run(inputs, fetches as Record<string, ort.Tensor | null>));
    } catch (cause) {
      const shapes = Object.entries(feeds)
        .map(([name, t]) => `${name}[${t.dims.join(',')}]`)
        .join(' ');
      throw new InferenceError('FOLIO_MODEL_RUN', `${this.path}: run failed with inputs ${shapes}: ${cause instanceof Error ? cause.message : String(cause)}`, {
        cause,
        meta: { path: this.path },
      });
    }
  }

  async release(): Promise<void> {
    await this.#session.release();
  }
}

/**
 * Every output's location, by name: a record naming each output is the form measured to work on
 * WebGPU (a partial one was not tried). The names are not known before the session exists, so a
 * probe session (CPU, no optimisation, released at once) reads them.
 */
/** A session from a file or from a model's bytes (the binding's two overloads). */
function openSession(source: string | Uint8Array, options: ort.InferenceSession.SessionOptions): Promise<ort.InferenceSession> {
  return typeof source === 'string' ? ort.InferenceSession.create(source, options) : ort.InferenceSession.create(source, options);
}

async function outputLocations(source: string | Uint8Array, onDevice: readonly string[]): Promise<Record<string, 'gpu-buffer' | 'cpu'>> {
  const probe = await openSession(source, { executionProviders: ['cpu'], graphOptimizationLevel: 'disabled' });
  try {
    return Object.fromEntries(probe.outputNames.map((name) => [name, onDevice.includes(name) ? 'gpu-buffer' : 'cpu']));
  } finally {
    await probe.release();
  }
}

function describeValues(names: readonly string[], metadata: readonly ort.InferenceSession.ValueMetadata[] | undefined): ValueInfo[] {
  // Older bindings have no metadata: names alone still let callers check inputs.
  return names.map((name, index) => {
    const meta = metadata?.[index];
    return meta?.isTensor ? { name, type: meta.type, shape: [...meta.shape] } : { name, shape: [] };
  });
}

/** Free the native memory of tensors now rather than at garbage collection (CPU tensors ignore it). */
export function disposeTensors(tensors: Iterable<Tensor | undefined>): void {
  for (const t of tensors) t?.dispose();
}

/** Build a tensor without exposing onnxruntime to callers. */
export function tensor(
  type: TensorType,
  data: Float32Array | BigInt64Array | Int32Array | Uint8Array | Uint16Array | boolean[],
  dims: readonly number[],
): Tensor {
  return new ort.Tensor(type, data as never, dims);
}
