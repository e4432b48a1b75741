/**
 * The check that the bulk load writes what chatkeep writes: a session the bench built (its rows
 * COPYed, build.ts) is stored again through chatkeep's own store (`adopt`, as an import stores a
 * session) under another ID, and both sessions' rows are compared column by column, the ID
 * aside. `checks['sample: rows as chatkeep writes them']` counts the rows that agree beside all.
 */
import type pg from 'pg';
import type { PostgresStore } from '../../src/store/postgres/store.js';
import { blankSnapshot } from '../../src/session/format/blank.js';
import type { Sample } from './build.js';

/** Each table's columns both writers must agree on (what they write from the same messages). */
const COMPARED: [table: string, key: string, columns: string, order: string][] = [
  ['sessions', 'id', 'title, title_source, status, message_count, archived_messages, schema_version, created_at, updated_at, search_version = snapshot_version, search_messages', ''],
  ['search_sessions', 'session_id', 'owner, messages, archived, tail, title, folded_title', ''],
  ['search_messages', 'session_id', 'owner, n, role, at, archived, content::text, folded, grams::text', ' ORDER BY n'],
  ['search_blocks', 'session_id', 'owner, block, folded', ' ORDER BY block'],
];

export async function sampleRows(store: PostgresStore, admin: pg.Client, sample: Sample, suffix: string): Promise<{ chatkeep: number; floor: number }> {
  const copy = `${sample.id}-via-store-${suffix}`;
  const s = blankSnapshot(copy, store.project.path, sample.createdAt, 'bench');
  s.title = sample.title;
  s.titleSource = 'auto';
  s.updatedAt = sample.updatedAt;
  s.messages = sample.messages.map((m) => ({ ...m }));
  s.stats.messageCount = s.messages.length;
  await store.adopt(s);
  let equal = 0;
  let all = 0;
  for (const [table, key, columns, order] of COMPARED) {
    const read = async (id: string): Promise<string[]> =>
      (await admin.query<{ r: string }>(`SELECT row(${columns})::text AS r FROM chatkeep.${table} WHERE ${key} = $1${order}`, [id])).rows.map((x) => x.r);
    const [built, stored] = [await read(sample.id), await read(copy)];
    all += Math.max(built.length, stored.length);
    equal += built.filter((r, i) => r === stored[i]).length;
  }
  return { chatkeep: equal, floor: all };
}
