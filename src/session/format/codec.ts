import type { Message, SessionSnapshot } from '../api/data.js';
import { messageVersion } from '../model/message-codec.js';
import { DamagedFileError, FutureSchemaError } from '../api/errors.js';

export { DamagedFileError };
import { JSON_MIGRATABLE_FROM, migrate, SCHEMA_VERSION, settleImportSource } from './migrations.js';
import { schemaProblem } from './standalone-validator.js';
import { stringifySliced, type TextSink } from './sliced-json.js';
import { packageVersion } from '../../version.js';
import { isObject } from '../../util/is-object.js';
import { schemaMismatch } from './fits-schema.js';
import { sessionJsonSchema } from './schema.js';
import { isoDate } from './iso-date.js';

/** A snapshot file that does not parse or validate. */

type SuperJSON = typeof import('superjson').default;

let superjsonPromise: Promise<SuperJSON> | undefined;
/** superjson is loaded on first use: it is not needed before the first snapshot. */
function loadSuperjson(): Promise<SuperJSON> {
  superjsonPromise ??= import('superjson').then((m) => m.default);
  return superjsonPromise;
}

async function validate(json: unknown): Promise<string | undefined> {
  return schemaProblem('session', json);
}

/**
 * Encodes a snapshot as superjson text. A snapshot of the known shape (Dates exactly where the
 * model has them, plain JSON elsewhere) is written directly in superjson's format, which is
 * twice as fast for a 10 MB session as superjson's generic walk; anything else goes through
 * superjson. `decodeSnapshot` mirrors this.
 */
export async function encodeSnapshot(given: SessionSnapshot): Promise<string> {
  const snapshot = asWritten(given);
  const values = dateAnnotations(snapshot);
  if (values) return JSON.stringify({ json: snapshot, meta: { values, v: 1 } });
  const superjson = await loadSuperjson();
  return superjson.stringify(snapshot);
}

/**
 * `encodeSnapshot`'s text, handed to `sink` in pieces made in slices between which the event
 * loop runs (a 10 MB session would otherwise block it for tens of milliseconds). Joined, the
 * pieces are exactly `encodeSnapshot`'s text. The snapshot must not change until this resolves.
 */
export async function encodeSnapshotSliced(given: SessionSnapshot, sink: TextSink): Promise<void> {
  const snapshot = asWritten(given);
  const values = dateAnnotations(snapshot);
  if (values) return stringifySliced({ json: snapshot, meta: { values, v: 1 } }, sink);
  const superjson = await loadSuperjson();
  await sink(superjson.stringify(snapshot));
}

/**
 * The snapshot with the oldest schemaVersion that holds it (`messageVersion`): a session that
 * uses nothing version 3 added is written as version 2, which builds before it read; one that
 * does is refused by them with their "newer build" message, never taken for damage.
 */
function asWritten(snapshot: SessionSnapshot): SessionSnapshot {
  // Checked before it can replace the snapshot in place: one that this build would refuse on
  // the next resume (and quarantine, with every message in it) is never written.
  // (Of this build's own version: that is the one its schema describes.)
  const problem = snapshot.schemaVersion === SCHEMA_VERSION ? schemaMismatch(snapshot, sessionJsonSchema) : undefined;
  if (problem !== undefined) throw new Error(`snapshot of ${snapshot.id} not written: ${problem} (the previous snapshot and the journal are kept)`);
  if (snapshot.schemaVersion !== 3) return snapshot;
  const v3 = (messages: readonly Message[]): boolean => messages.some((m) => messageVersion(m) === 3);
  return v3(snapshot.messages) || snapshot.archived.some((a) => v3(a.messages)) ? snapshot : { ...snapshot, schemaVersion: 2 };
}

/** superjson's `meta.values` for the model's Dates, or undefined if anything else needs annotating. */
function dateAnnotations(s: SessionSnapshot): Record<string, ['Date']> | undefined {
  const values: Record<string, ['Date']> = {};
  const date = (value: unknown, path: string): boolean => {
    if (!(value instanceof Date) || Number.isNaN(value.getTime())) return false;
    values[path] = ['Date'];
    return true;
  };
  const plainMessages = (messages: unknown, prefix: string): boolean => {
    if (!Array.isArray(messages)) return false;
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i] as Record<string, unknown>;
      if (Object.getPrototypeOf(m) !== Object.prototype || !date(m.timestamp, `${prefix}.${i}.timestamp`)) return false;
      for (const key in m) if (m[key] === undefined) return false;
    }
    return true;
  };
  if (!date(s.createdAt, 'createdAt') || !date(s.updatedAt, 'updatedAt')) return undefined;
  if (!plainMessages(s.messages, 'messages')) return undefined;
  for (let i = 0; i < s.archived.length; i++) {
    const a = s.archived[i];
    if (!date(a.archivedAt, `archived.${i}.archivedAt`) || !plainMessages(a.messages, `archived.${i}.messages`)) return undefined;
  }
  for (const value of Object.values(s.config)) {
    const v: unknown = value?.value;
    if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return undefined;
  }
  for (const key in s) if ((s as unknown as Record<string, unknown>)[key] === undefined) return undefined;
  return values;
}

/**
 * Decodes `session.json` text: refuses a newer schemaVersion (`FutureSchemaError`), migrates
 * an older one, validates against the schema. Throws `DamagedFileError` for anything that
 * does not parse or validate. superjson decodes anything beyond the model's own Dates.
 */
export async function decodeSnapshot(text: string, file: string): Promise<SessionSnapshot> {
  let raw: unknown;
  const known = knownShape(text);
  try {
    raw = known ?? JSON.parse(text);
  } catch (err) {
    throw new DamagedFileError(file, `not JSON (${(err as Error).message})`);
  }
  if (!isObject(raw) || !isObject(raw.json)) throw new DamagedFileError(file, 'not a superjson document');
  const json = raw.json;
  const version = json.schemaVersion;
  if (json.format !== 'chatkeep.session' || typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new DamagedFileError(file, 'not a chatkeep session (format or schemaVersion missing)');
  }
  if (version > SCHEMA_VERSION) {
    // The writer's version is the least that reads the file, when it is newer than this one.
    const writer = typeof json.toolVersion === 'string' ? json.toolVersion : '';
    throw new FutureSchemaError(file, version, SCHEMA_VERSION, isNewerVersion(writer, packageVersion()) ? writer : undefined);
  }
  if (version >= JSON_MIGRATABLE_FROM && (known !== undefined || onlyModelDates(raw.meta))) {
    // The common case: superjson annotated nothing but the model's Dates, which the schema has
    // checked as ISO strings and reviveDates turns back into Dates: no superjson walk needed
    // (an older version's migrations from here touch no Date, so they run on the JSON).
    const current = version < SCHEMA_VERSION ? migrate(json, version) : json;
    const problem = await validate(current);
    if (problem) throw new DamagedFileError(file, `invalid: ${problem}`);
    return settleImportSource(reviveDates(current as unknown as SessionSnapshot));
  }
  const superjson = await loadSuperjson();
  let decoded: Record<string, unknown>;
  let jsonPart: unknown = json;
  try {
    // The known shape's meta was only checked (knownShape): superjson wants it parsed.
    const meta: unknown = known ? JSON.parse(known.metaText) : raw.meta;
    decoded = superjson.deserialize({ json: json as never, meta: isObject(meta) ? (meta as never) : undefined });
    if (version < SCHEMA_VERSION) {
      decoded = migrate(decoded, version);
      jsonPart = superjson.serialize(decoded).json;
    }
  } catch (err) {
    throw new DamagedFileError(file, `cannot decode (${(err as Error).message})`);
  }
  const problem = await validate(jsonPart);
  if (problem) throw new DamagedFileError(file, `invalid: ${problem}`);
  return settleImportSource(reviveDates(decoded as unknown as SessionSnapshot));
}

const MODEL_DATE = '(?:createdAt|updatedAt|messages\\.\\d+\\.timestamp|archived\\.\\d+\\.archivedAt|archived\\.\\d+\\.messages\\.\\d+\\.timestamp)';
const MODEL_DATE_PATH = new RegExp(`^${MODEL_DATE}$`);
/** The meta `encodeSnapshot` writes for the known shape, as text: the model's Dates and nothing else. */
const MODEL_DATES_META = new RegExp(`^\\{"values":\\{"${MODEL_DATE}":\\["Date"\\](?:,"${MODEL_DATE}":\\["Date"\\])*\\},"v":1\\}$`);
const META_KEY = ',"meta":';

/**
 * The document `encodeSnapshot` writes for the known shape (`{"json":…,"meta":…}`, compact, the
 * meta last), with only its `json` parsed: its meta, one annotation per message (a tenth of a
 * 2,000-message snapshot's text and a quarter of parsing it, each key a new property), is checked
 * as text instead. Undefined for any other text, which is parsed whole: the same answer, since
 * a meta that matches holds no `,"meta":` of its own, so the last one found is where it starts.
 * A json part that does not parse is parsed whole too, so a damaged snapshot is told as before.
 * `metaText`: the meta as it stands, parsed only where superjson decodes it (an older version's
 * migrations), never the whole document a second time.
 */
function knownShape(text: string): { json: unknown; metaText: string } | undefined {
  const at = text.lastIndexOf(META_KEY);
  const metaText = at < 0 ? '' : text.slice(at + META_KEY.length, -1);
  if (at < 0 || !text.startsWith('{"json":') || !text.endsWith('}') || !MODEL_DATES_META.test(metaText)) return undefined;
  try {
    return { json: JSON.parse(text.slice('{"json":'.length, at)) as unknown, metaText };
  } catch {
    return undefined;
  }
}

/** True when superjson's meta annotates only Dates, and only where the model keeps them. */
function onlyModelDates(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isObject(meta)) return false;
  for (const key of Object.keys(meta)) if (key !== 'values' && key !== 'v' && key !== 'referentialEqualities') return false;
  if (meta.values === undefined) return true;
  if (!isObject(meta.values)) return false;
  // for…in, not Object.entries: a 2,000-message snapshot has 2,000 annotations, and building an
  // array per entry cost half this check, which every resume runs. An inherited key (none on a
  // parsed object) would fail the path test: the generic walk then decodes.
  const values = meta.values;
  for (const path in values) {
    const annotation = values[path];
    if (!Array.isArray(annotation) || annotation.length !== 1 || annotation[0] !== 'Date' || !MODEL_DATE_PATH.test(path)) return false;
  }
  return true;
}

/** A damaged `meta` leaves ISO strings where Dates belong: the schema has vouched for their format. */
function reviveDates(s: SessionSnapshot): SessionSnapshot {
  const date = (value: Date | string): Date => (value instanceof Date ? value : isoDate(value));
  s.createdAt = date(s.createdAt);
  s.updatedAt = date(s.updatedAt);
  for (const m of s.messages) m.timestamp = date(m.timestamp);
  for (const a of s.archived) {
    a.archivedAt = date(a.archivedAt);
    for (const m of a.messages) m.timestamp = date(m.timestamp);
  }
  return s;
}

/** True when `a` is a semantic version (x.y.z…) above `b`. */
function isNewerVersion(a: string, b: string): boolean {
  const parse = (v: string): number[] | undefined => /^(\d+)\.(\d+)\.(\d+)/.exec(v)?.slice(1).map(Number);
  const [x, y] = [parse(a), parse(b)];
  if (!x) return false;
  if (!y) return true;
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! > y[i]!;
  return false;
}
