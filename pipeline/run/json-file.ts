/**
 * A JSON file written piece by piece: the `.json` of a 1,700-page document is a 23 MB string
 * when stringified whole, and as much again encoded for the write, at the end of the run when
 * the document's elements are all in memory too. Written here one array item at a time, the
 * file is byte for byte what `JSON.stringify(value, null, 1)` gives.
 */
import { open } from 'node:fs/promises';

/** Pieces are gathered to about this many characters before each write. */
const WRITE_CHARS = 1 << 20;

/**
 * Write `value` to `path` as `JSON.stringify(value, null, 1)` would, without building the whole
 * string: the top-level object's arrays go item by item.
 *
 * @example
 * await writeJsonFile('out/a.json', { source, pages, elements });
 */
export async function writeJsonFile(path: string, value: unknown): Promise<void> {
  const file = await open(path, 'w');
  try {
    let pending = '';
    for (const piece of jsonPieces(value)) {
      pending += piece;
      if (pending.length >= WRITE_CHARS) {
        await file.write(pending);
        pending = '';
      }
    }
    await file.write(pending);
  } finally {
    await file.close();
  }
}

/** `JSON.stringify(value, null, 1)` in pieces: the top-level object's keys, and its arrays' items one by one. */
export function* jsonPieces(value: unknown): Generator<string> {
  if (!isPlainObject(value)) {
    yield JSON.stringify(value, null, 1) ?? '';
    return;
  }
  // What `JSON.stringify` leaves out of an object.
  const entries = Object.entries(value).filter(([, item]) => item !== undefined && typeof item !== 'function' && typeof item !== 'symbol');
  if (entries.length === 0) {
    yield '{}';
    return;
  }
  yield '{\n';
  for (const [i, [key, item]] of entries.entries()) {
    yield ` ${JSON.stringify(key)}: `;
    if (Array.isArray(item) && item.length > 0) {
      yield '[\n';
      for (let j = 0; j < item.length; j++) yield `  ${nested(item[j], '  ')}${j < item.length - 1 ? ',' : ''}\n`;
      yield ' ]';
    } else {
      yield nested(item, ' ');
    }
    yield i < entries.length - 1 ? ',\n' : '\n';
  }
  yield '}';
}

/** One value as `JSON.stringify` indents it at `indent`; strings never hold a raw line break, so re-indenting is safe. */
function nested(value: unknown, indent: string): string {
  // Array holes and values JSON cannot hold are `null` inside arrays, as in `JSON.stringify`.
  return (JSON.stringify(value, null, 1) ?? 'null').replaceAll('\n', `\n${indent}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
