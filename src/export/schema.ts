/**
 * The JSON Schema of a JSON export (`chatkeep sessions export --format json`). It is derived
 * from the snapshot's schema, so a field added to sessions is exported and imported with no
 * change here. Committed verbatim as `schema/export.schema.json`; a unit test keeps the two
 * identical.
 */
import { sessionJsonSchema } from '../session/format/schema.js';

/** The `format` of an export document. */
export const EXPORT_FORMAT = 'chatkeep.export';

/**
 * The version of the export document's shape. A chatkeep imports exports of this version and
 * older, and refuses newer ones; it changes when an older chatkeep could not read an export
 * correctly (an added optional session field does not change it).
 */
export const EXPORT_VERSION = 1;

/**
 * Snapshot fields that say where and by which process a session was last written, not what it
 * holds: left out of an export, and set afresh by the chatkeep that imports it.
 */
export const STORAGE_FIELDS: readonly string[] = ['format', 'schemaVersion', 'status', 'host', 'pid', 'toolVersion', 'journalSeq', 'savedBy'];

const kept = (name: string): boolean => !STORAGE_FIELDS.includes(name);

/** The session part: the snapshot's fields (Dates as ISO 8601 strings), less the storage fields. */
const session = {
  type: 'object',
  required: sessionJsonSchema.required.filter(kept),
  // Unknown fields are refused rather than dropped: an import never loses part of a session.
  additionalProperties: false,
  properties: Object.fromEntries(Object.entries(sessionJsonSchema.properties).filter(([name]) => kept(name))),
};

/** JSON Schema (draft-07) of an export document, exportVersion 1. */
export const exportJsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://chatkeep.dev/schema/export.schema.json',
  title: `chatkeep session export, exportVersion ${EXPORT_VERSION}`,
  description:
    'One session as written by `chatkeep sessions export --format json` and read by `chatkeep sessions import`: every message, the conversations archived by /reset, lineage (parentId, forkPoint, importedFrom, importSource), summary and stats.',
  type: 'object',
  required: ['format', 'exportVersion', 'exportedBy', 'session'],
  additionalProperties: false,
  properties: {
    format: { const: EXPORT_FORMAT },
    exportVersion: { const: EXPORT_VERSION },
    exportedBy: { type: 'string', description: 'The chatkeep that wrote the file, e.g. `chatkeep 0.1.0`.' },
    session,
  },
};
