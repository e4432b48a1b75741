/**
 * Checks a JSON export before anything is written (`chatkeep sessions import`): it must be
 * JSON, a chatkeep export, of a version this chatkeep reads, with a safe session ID, valid
 * against `schema/export.schema.json`, its times real dates. Pure: text in, a snapshot out,
 * or a `UserError` (exit 2) saying in one line what is wrong.
 */
import { printable, UserError } from '../session/api/errors.js';
import { isValidId } from '../session/api/ids.js';
import { SCHEMA_VERSION, settleImportSource } from '../session/format/migrations.js';
import { schemaProblem } from '../session/format/standalone-validator.js';
import type { SessionSnapshot } from '../session/api/data.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from './schema.js';
import { isObject } from '../util/is-object.js';

/**
 * The largest file `sessions import` reads unless told otherwise: 512 MiB, about the longest
 * text JavaScript can hold, so whatever chatkeep can store it can import back (its export is
 * about as large as the session). Only a guard against input that is not an export.
 */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;

/** The environment variable that changes the guard, in MiB. */
export const IMPORT_LIMIT_VAR = 'CHATKEEP_IMPORT_LIMIT_MB';

/** The guard in bytes: `CHATKEEP_IMPORT_LIMIT_MB` when set, else {@link MAX_IMPORT_BYTES}. */
export function importLimit(env: Record<string, string | undefined>): number {
  const text = env[IMPORT_LIMIT_VAR]?.trim();
  if (text === undefined || text === '') return MAX_IMPORT_BYTES;
  const mib = Number(text);
  if (!Number.isInteger(mib) || mib < 1) throw new UserError(`Bad ${IMPORT_LIMIT_VAR} \`${printable(text)}\`: give a whole number of MiB, at least 1.`, 'E_CONFIG');
  return mib * 1024 * 1024;
}

const EXPORT_COMMAND = ['sessions', 'export', 'ID', '--format', 'json'];

/** A bad import: what is wrong with `source`, and (`suggest`) the command that writes a good one. */
export function importRefusal(source: string, problem: string, suggest = true): UserError {
  return new UserError(`Cannot import ${source}: ${problem}; nothing was imported.`, 'E_IMPORT', 2, suggest ? { to: 'Import a file written by:', run: EXPORT_COMMAND } : undefined);
}

/** The refusal of a file over the guard (`limit` bytes), saying how to raise it. */
export function tooLarge(source: string, limit: number): UserError {
  const mib = Math.floor(limit / 1024 / 1024);
  return new UserError(
    `Cannot import ${source}: it is larger than ${mib} MiB, the most an import reads; nothing was imported. To read more, set ${IMPORT_LIMIT_VAR} to the size in MiB (e.g. ${IMPORT_LIMIT_VAR}=${mib * 2}).`,
    'E_IMPORT',
  );
}

/**
 * The session in an export's text, as a snapshot whose storage fields (status, host, pid,
 * journalSeq, toolVersion) are placeholders for the importer to set. `source` names the input
 * in messages (`chat.json`, `standard input`).
 */
export async function checkImport(text: string, source: string): Promise<SessionSnapshot> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (err) {
    throw importRefusal(source, `it is not JSON (${(err as Error).message})`);
  }
  if (!isObject(document)) throw importRefusal(source, 'it is not a chatkeep export (not a JSON object)');
  if (document.format !== EXPORT_FORMAT) {
    const what = isObject(document.json) && document.json.format === 'chatkeep.session'
      ? "it is a session's own file (session.json), not an export"
      : `it is not a chatkeep export (format ${typeof document.format === 'string' ? `\`${printable(document.format)}\`` : 'missing'}, not \`${EXPORT_FORMAT}\`)`;
    throw importRefusal(source, what);
  }
  const version = document.exportVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw importRefusal(source, 'its exportVersion is missing or not a whole number');
  }
  if (version > EXPORT_VERSION) {
    const by = typeof document.exportedBy === 'string' ? ` by ${printable(document.exportedBy)}` : '';
    throw importRefusal(source, `it was written${by} with exportVersion ${version}, newer than this chatkeep reads (${EXPORT_VERSION}); upgrade chatkeep to import it`, false);
  }
  // The ID becomes a directory name: said plainly before the schema's more general complaint.
  const id = isObject(document.session) ? document.session.id : undefined;
  if (typeof id === 'string' && !isValidId(id)) {
    throw importRefusal(source, `its session ID \`${printable(id)}\` is not a valid ID (1–128 letters, digits, '.', '_' or '-', starting with a letter or digit)`, false);
  }
  const problem = await schemaProblem('export', document);
  if (problem) throw importRefusal(source, `it does not match the export schema: ${problem}`);
  return snapshotOf(document.session as Record<string, unknown>, source);
}

/** The snapshot of a validated export's session: Dates revived (and checked), storage fields as placeholders. */
function snapshotOf(session: Record<string, unknown>, source: string): SessionSnapshot {
  const date = (value: unknown, where: string): Date => {
    const at = new Date(value as string);
    if (Number.isNaN(at.getTime())) throw importRefusal(source, `${where} \`${printable(String(value))}\` is not a real time`);
    return at;
  };
  const messages = (list: unknown, where: string): unknown[] =>
    (list as Record<string, unknown>[]).map((m, i) => ({ ...m, timestamp: date(m.timestamp, `${where}/${i}/timestamp`) }));
  const archived = (session.archived as Record<string, unknown>[]).map((segment, i) => ({
    ...segment,
    archivedAt: date(segment.archivedAt, `/session/archived/${i}/archivedAt`),
    messages: messages(segment.messages, `/session/archived/${i}/messages`),
  }));
  return settleImportSource({
    ...(session as unknown as SessionSnapshot),
    format: 'chatkeep.session',
    schemaVersion: SCHEMA_VERSION,
    createdAt: date(session.createdAt, '/session/createdAt'),
    updatedAt: date(session.updatedAt, '/session/updatedAt'),
    messages: messages(session.messages, '/session/messages') as SessionSnapshot['messages'],
    archived: archived as unknown as SessionSnapshot['archived'],
    status: 'closed',
    host: '',
    pid: 0,
    toolVersion: 'unknown',
    journalSeq: 0,
  });
}
