/**
 * A one-operator ONNX model, written here byte by byte: `Gather` (axis 0) of `n` float tensors by
 * one shared int64 row list. A resident KV cache (kv-buffer.ts) uses it to drop the sequences that
 * left the batch without its tensors ever leaving the device's memory; onnxruntime has no other
 * way to run one operator on a device tensor. The model depends on nothing but `n`, so no file
 * ships with it.
 *
 * Only the protobuf fields this graph needs are encoded (onnx.proto3 numbers): ModelProto
 * ir_version 1, graph 7, opset_import 8; GraphProto node 1, name 2, input 11, output 12; NodeProto
 * input 1, output 2, op_type 4; ValueInfoProto name 1, type 2; TypeProto tensor_type 1;
 * Tensor elem_type 1, shape 2; TensorShapeProto dim 1; Dimension dim_param 2.
 */

import { ConfigurationError } from '../../core/errors.ts';
import type { Tensor } from '../runtime/ort.ts';
import { tensor } from '../runtime/ort.ts';
import type { SessionLike } from './forward.ts';
import type { RowGather } from './kv-buffer.ts';

const FLOAT = 1;
const INT64 = 7;
const utf8 = new TextEncoder();

function varint(value: number): number[] {
  const bytes: number[] = [];
  let v = value;
  while (v > 127) {
    bytes.push((v & 127) | 128);
    v = Math.floor(v / 128);
  }
  bytes.push(v);
  return bytes;
}

/** A varint field (wire type 0). */
const int = (field: number, value: number): number[] => [...varint(field << 3), ...varint(value)];
/** A length-delimited field (wire type 2): a string or a nested message. */
const bytes = (field: number, payload: readonly number[] | string): number[] => {
  const body = typeof payload === 'string' ? [...utf8.encode(payload)] : payload;
  return [...varint((field << 3) | 2), ...varint(body.length), ...body];
};

/** ValueInfoProto of a tensor: element type and named dimensions. */
function tensorInfo(name: string, elemType: number, dims: readonly string[]): number[] {
  const shape = bytes(
    2,
    dims.flatMap((d) => bytes(1, bytes(2, d))),
  );
  return [...bytes(1, name), ...bytes(2, bytes(1, [...int(1, elemType), ...shape]))];
}

/** Input and output names of the model for `n` tensors. */
export function gatherRowsNames(n: number): { inputs: string[]; rows: string; outputs: string[] } {
  return { inputs: Array.from({ length: n }, (_, i) => `x${i}`), rows: 'rows', outputs: Array.from({ length: n }, (_, i) => `y${i}`) };
}

/**
 * The model's bytes: inputs `x0..x{n−1}` (float, rank 4) and `rows` (int64 [m]), outputs
 * `y0..y{n−1}` with `y_i = x_i[rows]`.
 *
 * @example
 * const session = await OnnxSession.create('gather-rows', { bytes: gatherRowsModel(2), device: 'webgpu' });
 */
export function gatherRowsModel(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < 1) throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`n\` to be an integer from 1 up, got \`${n}\``);
  const { inputs, rows, outputs } = gatherRowsNames(n);
  const nodes = inputs.flatMap((x, i) => bytes(1, [...bytes(1, x), ...bytes(1, rows), ...bytes(2, outputs[i]!), ...bytes(4, 'Gather')]));
  const graph = [
    ...nodes,
    ...bytes(2, 'folio_gather_rows'),
    ...inputs.flatMap((x, i) => bytes(11, tensorInfo(x, FLOAT, [`b${i}`, `h${i}`, `c${i}`, `d${i}`]))),
    ...bytes(11, tensorInfo(rows, INT64, ['m'])),
    ...outputs.flatMap((y, i) => bytes(12, tensorInfo(y, FLOAT, ['m', `h${i}`, `c${i}`, `d${i}`]))),
  ];
  return Uint8Array.from([...int(1, 8), ...bytes(7, graph), ...bytes(8, [...bytes(1, ''), ...int(2, 17)])]);
}

/**
 * A {@link RowGather} over sessions of the model, one per tensor count, opened on first use by
 * `open` (which decides the device and keeps the outputs there).
 *
 * @example
 * const gather = rowGather((n) => OnnxSession.create(`gather-rows(${n})`, { bytes: gatherRowsModel(n), device, outputsOnDevice: gatherRowsNames(n).outputs }));
 * const kept = await gather(cacheTensors, [0, 2]);
 */
export function rowGather(open: (n: number) => Promise<SessionLike>): RowGather {
  const sessions = new Map<number, Promise<SessionLike>>();
  return async (tensors, rows) => {
    const n = tensors.length;
    let session = sessions.get(n);
    if (session === undefined) {
      session = open(n);
      sessions.set(n, session);
    }
    const names = gatherRowsNames(n);
    const feeds: Record<string, Tensor> = Object.fromEntries(names.inputs.map((name, i) => [name, tensors[i]!]));
    feeds[names.rows] = tensor('int64', BigInt64Array.from(rows, BigInt), [rows.length]);
    const out = await (await session).run(feeds, Object.fromEntries(names.outputs.map((o) => [o, null])));
    return names.outputs.map((o) => out[o]!);
  };
}
