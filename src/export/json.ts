/**
 * The JSON export: the lossless archive of one session, a self-describing document
 * (`format`, `exportVersion`) checked by `schema/export.schema.json`. A pure function of the
 * snapshot, deterministic to the byte: keys in the schema's order, Dates as ISO 8601, no time
 * of export, so exporting the same session twice gives the same file.
 */
import { sessionJsonSchema } from '../session/format/schema.js';
import { Slicer, stringifySliced, type TextSink } from '../session/format/sliced-json.js';
import type { SessionSnapshot } from '../session/api/data.js';
import { EXPORT_FORMAT, EXPORT_VERSION, exportJsonSchema } from './schema.js';

/** An export document as written (the session's Dates already ISO strings once serialised). */
export interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  exportVersion: number;
  /** `chatkeep <version>`: who wrote the file. */
  exportedBy: string;
  session: Record<string, unknown>;
}

const SESSION_KEYS = Object.keys(exportJsonSchema.properties.session.properties);
const MESSAGE_KEYS = Object.keys(sessionJsonSchema.properties.messages.items.properties);
const SEGMENT_KEYS = Object.keys(sessionJsonSchema.properties.archived.items.properties);

/** The export document of `snapshot`, as text (two-space indented, ending in a newline). */
export function exportJson(snapshot: SessionSnapshot, toolVersion: string): string {
  return `${JSON.stringify(exportDocument(snapshot, toolVersion), null, 2)}\n`;
}

/**
 * The same text as `exportJson`, handed to `sink` in pieces as it is made: a session of any
 * size is exported without its whole text (or several copies of it) in memory.
 */
export async function exportJsonTo(snapshot: SessionSnapshot, toolVersion: string, sink: TextSink): Promise<void> {
  await stringifySliced(exportDocument(snapshot, toolVersion), sink, new Slicer(), 2);
  await sink('\n');
}

function exportDocument(snapshot: SessionSnapshot, toolVersion: string): ExportDocument {
  return { format: EXPORT_FORMAT, exportVersion: EXPORT_VERSION, exportedBy: `chatkeep ${toolVersion}`, session: exportedSession(snapshot) };
}

/** The snapshot's fields that an export keeps, in the schema's order (storage fields are not among them). */
function exportedSession(snapshot: SessionSnapshot): Record<string, unknown> {
  const session = ordered(snapshot, SESSION_KEYS, false);
  session.messages = snapshot.messages.map((m) => ordered(m, MESSAGE_KEYS, true));
  session.archived = snapshot.archived.map((segment) => {
    const kept = ordered(segment, SEGMENT_KEYS, true);
    kept.messages = segment.messages.map((m) => ordered(m, MESSAGE_KEYS, true));
    return kept;
  });
  return session;
}

/**
 * `value`'s `known` keys in that order, then (with `others`) its other keys sorted: the same
 * bytes however the object was built. Undefined values are left out, as JSON leaves them.
 */
function ordered(value: object, known: readonly string[], others: boolean): Record<string, unknown> {
  const source = value as Record<string, unknown>;
  const keys = known.filter((key) => Object.hasOwn(source, key));
  if (others) keys.push(...Object.keys(source).filter((key) => !known.includes(key)).sort());
  // fromEntries defines each key, so one named `__proto__` stays a plain field.
  return Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));
}
