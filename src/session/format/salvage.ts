/**
 * What can be saved of a damaged snapshot, message by message: a snapshot cut short by a crash
 * or a disk fault still holds every message written before the cut, and one that fails the
 * schema (a field a newer build wrote, a damaged byte) still holds its good messages. Each
 * message that fits the schema is kept; the others are counted, so the person is told how many
 * could not be read. The damaged file itself is kept aside by the store, whole.
 */
import type { Message } from '../api/data.js';
import { schemaMismatch } from './fits-schema.js';
import { isObject } from '../../util/is-object.js';
import { sessionJsonSchema } from './schema.js';

/** The messages read from a damaged snapshot's text, and what else it still tells. */
export interface Salvage {
  /** The live conversation's messages that fit the schema, in order. */
  messages: Message[];
  /** Messages (whole or cut short) that could not be read. */
  unreadable: number;
  /** The journal seq the snapshot holds events up to, when that part was still readable. */
  journalSeq?: number;
  title?: string | null;
}

const MESSAGE = sessionJsonSchema.properties.messages.items;

/** Salvages `text`, the bytes of a snapshot that did not decode. */
export function salvageSnapshot(text: string): Salvage {
  const whole = parsed(text);
  if (whole !== undefined) {
    const json = isObject(whole) && isObject(whole.json) ? whole.json : {};
    const out = keepValid(Array.isArray(json.messages) ? json.messages : [], 0);
    if (Number.isInteger(json.journalSeq) && (json.journalSeq as number) >= 0) out.journalSeq = json.journalSeq as number;
    if (typeof json.title === 'string' || json.title === null) out.title = json.title;
    return out;
  }
  // Cut short: read the live messages one object at a time, up to the cut.
  const start = text.indexOf('"messages":[');
  const { items, cut } = start < 0 ? { items: [], cut: false } : objectsFrom(text, start + '"messages":['.length);
  const out = keepValid(items, cut ? 1 : 0);
  // The last one: a message's text may quote the words too, and the field comes after the messages.
  const seq = [...text.matchAll(/"journalSeq":(\d+)[,}]/g)].pop();
  if (seq) out.journalSeq = Number(seq[1]);
  const title = /^\{"json":\{[^]*?"title":("(?:[^"\\]|\\.)*"|null),/.exec(text);
  if (title) out.title = parsed(title[1]!) as string | null;
  return out;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function keepValid(items: readonly unknown[], unreadable: number): Salvage {
  const messages: Message[] = [];
  for (const item of items) {
    if (schemaMismatch(item, MESSAGE) !== undefined) unreadable++;
    else messages.push({ ...(item as Message), timestamp: new Date((item as { timestamp: string }).timestamp) });
  }
  return { messages, unreadable };
}

/**
 * The JSON objects of an array whose first element starts at `from`, each parsed on its own:
 * the array's end, or the text's (then `cut`: the last object was cut short), ends it.
 */
function objectsFrom(text: string, from: number): { items: unknown[]; cut: boolean } {
  const items: unknown[] = [];
  let depth = 0;
  let inString = false;
  let begin = -1;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth === 0) begin = i;
      depth++;
    } else if (c === '}' || c === ']') {
      if (depth === 0) return { items, cut: false };
      depth--;
      if (depth === 0) {
        const item = parsed(text.slice(begin, i + 1));
        items.push(item === undefined ? null : item);
        begin = -1;
      }
    }
  }
  return { items, cut: begin >= 0 };
}
