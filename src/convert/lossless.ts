/**
 * What both framework adapters share: a framework's item is stored as chatkeep's fields (the
 * text, tool calls and results every reader of a session understands: listings, search,
 * exports, titles, chatkeep's own REPL) plus, as the message's native item, only the keys those
 * fields do not give back exactly. Reading rebuilds the item from the fields and lays the kept
 * keys over it, so what comes back deep-equals what went in; a message written by another host
 * (no native item) is rebuilt from its fields alone.
 *
 * JSON holds the kept keys: bytes (`Uint8Array`) are written as base64 and their places
 * recorded; a key whose value is `undefined` is not kept (JSON has no such value). Anything
 * else JSON cannot hold is refused with `UnstorableItemError` before anything is written.
 */
import { isDeepStrictEqual } from 'node:util';
import { UnstorableItemError } from '../session/api/adapter-errors.js';
import { isPlainObject } from '../util/is-object.js';

/** A framework item as a plain object. */
export type Item = Record<string, unknown>;

/** What a message keeps of its framework item beyond chatkeep's own fields. */
export interface NativeItem {
  /** The framework that wrote it: `openai-agents` or `langchain`. */
  format: string;
  /** The item's keys that chatkeep's fields do not give back exactly, as they were. */
  keep?: Item;
  /** Keys the fields give that the item did not have. */
  absent?: string[];
  /** Places in `keep` (key paths) of bytes written as base64. */
  bytes?: (string | number)[][];
}

export { UnstorableItemError } from '../session/api/adapter-errors.js';

/**
 * The item with keys whose value is `undefined` left out, at every depth (what JSON keeps). A
 * value that holds itself (a cycle) is refused: JSON cannot hold it.
 */
export function withoutUndefined(value: unknown, format = 'framework', within: readonly unknown[] = []): unknown {
  if (!Array.isArray(value) && !isPlainObject(value)) return value;
  if (within.includes(value)) throw new UnstorableItemError(format, 'a cycle');
  const inner = [...within, value];
  if (Array.isArray(value)) return value.map((v) => withoutUndefined(v, format, inner));
  // Only plain objects are copied: anything else (bytes, a Date, a class instance) stays itself, for toJson to judge.
  const out: Item = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = withoutUndefined(v, format, inner);
  return out;
}

/** Splits `item` into what `rebuild(fields)` gives back and what must be kept beside the fields. */
export function nativeItem(format: string, item: Item, fromFields: Item): NativeItem | undefined {
  const clean = withoutUndefined(item, format) as Item;
  const keep: Item = {};
  for (const [key, value] of Object.entries(clean)) if (!isDeepStrictEqual(fromFields[key], value)) keep[key] = value;
  const absent = Object.keys(fromFields).filter((key) => !(key in clean));
  if (Object.keys(keep).length === 0 && absent.length === 0) return undefined;
  const bytes: (string | number)[][] = [];
  const native: NativeItem = { format, ...(Object.keys(keep).length > 0 ? { keep: toJson(format, keep, [], bytes) as Item } : {}) };
  if (absent.length > 0) native.absent = absent;
  if (bytes.length > 0) native.bytes = bytes;
  // What JSON gives back must be the item: refuse now rather than lose a part on the next read.
  if (!isDeepStrictEqual(rebuild(JSON.parse(JSON.stringify(native)) as NativeItem, fromFields), clean)) {
    throw new UnstorableItemError(format, 'a value JSON does not hold');
  }
  return native;
}

/** The item again: the fields' item with the kept keys laid over it. */
export function rebuild(native: NativeItem | undefined, fromFields: Item): Item {
  if (!native) return fromFields;
  const keep = structuredClone(native.keep ?? {});
  for (const path of native.bytes ?? []) restoreBytes(keep, path);
  const item: Item = { ...fromFields, ...keep };
  for (const key of native.absent ?? []) delete item[key];
  return item;
}

/** A JSON-safe copy: bytes become base64 (their paths recorded); other non-JSON values are refused. */
function toJson(format: string, value: unknown, path: (string | number)[], bytes: (string | number)[][]): unknown {
  if (value instanceof Uint8Array) {
    bytes.push(path);
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  }
  if (Array.isArray(value)) return value.map((v, i) => toJson(format, v, [...path, i], bytes));
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new UnstorableItemError(format, `${String(value)} at ${path.join('.')}`);
    return value;
  }
  if (isPlainObject(value)) {
    const out: Item = {};
    for (const [key, v] of Object.entries(value)) out[key] = toJson(format, v, [...path, key], bytes);
    return out;
  }
  throw new UnstorableItemError(format, `${typeof value === 'object' ? (value.constructor?.name ?? 'object') : typeof value} at ${path.join('.') || 'top'}`);
}

function restoreBytes(root: Item, path: readonly (string | number)[]): void {
  let parent: Record<string | number, unknown> = root;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  const text = parent[last];
  if (typeof text === 'string') parent[last] = new Uint8Array(Buffer.from(text, 'base64'));
}
