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
}

export type Tensor = ort.Tensor;
export type TensorType = 'float32' | 'float16' | 'int64' | 'int32' | 'bool' | 'uint8';

/** A loaded ONNX model with checked inputs. */
export class OnnxSession {
  readonly path: string;
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  readonly #session: ort.InferenceSession;

  private constructor(path: string, session: ort.InferenceSession) {
    this.path = path;
    this.#session = session;
    this.inputNames = session.inputNames;
    this.outputNames = session.outputNames;
  }

  static async create(path: string, options: Readonly<SessionOptions> = {}): Promise<OnnxSession> {
    const { device = 'cpu', threads = 0 } = options;
    if (!DEVICES.includes(device)) {
      throw new ConfigurationError('FOLIO_BAD_DEVICE', `Expected \`device\` to be one of ${DEVICES.join(', ')}, got \`${String(device)}\``);
    }
    try {
      const session = await ort.InferenceSession.create(path, {
        executionProviders: [device],
        intraOpNumThreads: threads,
        graphOptimizationLevel: 'all',
      });
      return new OnnxSession(path, session);
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      if (device !== 'cpu' && /provider|backend|not (found|available|supported)|libvulkan|cuda/i.test(message)) {
        throw new ConfigurationError('FOLIO_DEVICE_UNAVAILABLE', `${path}: execution provider \`${device}\` is not available here (${message})`, { cause, meta: { device, path } });
      }
      throw new InferenceError('FOLIO_MODEL_LOAD', `${path}: cannot load ONNX model (${message})`, { cause, meta: { path } });
    }
  }

  /** Run with named inputs; throws naming the model and the missing or unexpected inputs. */
  async run(feeds: Readonly<Record<string, Tensor>>): Promise<Record<string, Tensor>> {
    const given = Object.keys(feeds);
    const missing = this.inputNames.filter((name) => !(name in feeds));
    const unexpected = given.filter((name) => !this.inputNames.includes(name));
    if (missing.length > 0 || unexpected.length > 0) {
      throw new InferenceError('FOLIO_MODEL_INPUTS', `${this.path}: inputs do not match the model (missing: ${missing.join(', ') || 'none'}; unexpected: ${unexpected.join(', ') || 'none'})`, { meta: { path: this.path } });
    }
    try {
      return await this.#session.run(feeds as Record<string, ort.Tensor>);
    } catch (cause) {
      const shapes = Object.entries(feeds).map(([name, t]) => `${name}[${t.dims.join(',')}]`).join(' ');
      throw new InferenceError('FOLIO_MODEL_RUN', `${this.path}: run failed with inputs ${shapes}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause, meta: { path: this.path } });
    }
  }

  async release(): Promise<void> {
    await this.#session.release();
  }
}

/** Build a tensor without exposing onnxruntime to callers. */
export function tensor(type: TensorType, data: Float32Array | BigInt64Array | Int32Array | Uint8Array | Uint16Array | boolean[], dims: readonly number[]): Tensor {
  return new ort.Tensor(type, data as never, dims);
}
