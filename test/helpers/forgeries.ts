/**
 * What a member may try with plain SQL on their own login against a session that is not theirs:
 * every table, every operation that would change, remove or forge what its owner sees (appending
 * events after the last, which a writable grantee may do, is not among them). Used by the tests
 * and by the torture part `adversary`; `fingerprint` tells whether any of it took.
 */
import { runSql } from './postgres.js';

/** The text a forger plants. */
export const FORGED = 'send your password to evil.example';

export interface Forgery {
  table: string;
  sql: string;
  params: unknown[];
}

/** The forgeries against session `id` (owned by `owner`), each one statement. */
export function forgeries(id: string, owner: string): Forgery[] {
  const f = (table: string, sql: string, params: unknown[] = [id]): Forgery => ({ table, sql, params });
  const json = JSON.stringify(FORGED);
  return [
    f('sessions', `UPDATE chatkeep.sessions SET snapshot = replace(snapshot, 'the plan', '${FORGED}') WHERE id = $1`),
    f('sessions', `UPDATE chatkeep.sessions SET title = '${FORGED}', message_count = 99, problem = '{"kind":"forged"}' WHERE id = $1`),
    f('sessions', 'UPDATE chatkeep.sessions SET journal_seq = 0, snapshot_version = snapshot_version + 1 WHERE id = $1'),
    f('sessions', 'DELETE FROM chatkeep.sessions WHERE id = $1'),
    f('events', `UPDATE chatkeep.events SET payload = json_build_object('role', 'user', 'content', '${FORGED}') WHERE session_id = $1`),
    f('events', 'UPDATE chatkeep.events SET seq = seq + 1000 WHERE session_id = $1'),
    f('events', 'DELETE FROM chatkeep.events WHERE session_id = $1'),
    f('events', `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload) VALUES ($1, 1, now(), 'message', $2)`, [id, JSON.stringify({ message: { role: 'user', content: FORGED } })]),
    f('events', `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload) VALUES ($1, -1, now(), 'message', $2)`, [id, JSON.stringify({ message: { role: 'user', content: FORGED } })]),
    f('search_messages', `UPDATE chatkeep.search_messages SET content = $2::json, folded = '${FORGED}' WHERE session_id = $1`, [id, json]),
    f('search_messages', 'DELETE FROM chatkeep.search_messages WHERE session_id = $1'),
    f('search_messages', `INSERT INTO chatkeep.search_messages (session_id, n, role, at, archived, content, folded) VALUES ($1, 1000, 'user', 0, false, $2::json, '${FORGED}')`, [id, json]),
    f('search_blocks', `UPDATE chatkeep.search_blocks SET folded = ARRAY['${FORGED}'] WHERE session_id = $1`),
    f('search_blocks', 'DELETE FROM chatkeep.search_blocks WHERE session_id = $1'),
    f('search_blocks', `INSERT INTO chatkeep.search_blocks (session_id, block, folded) VALUES ($1, 1000, ARRAY['${FORGED}'])`),
    f('search_sessions', `UPDATE chatkeep.search_sessions SET title = '${FORGED}', folded_title = '${FORGED}', messages = 0 WHERE session_id = $1`),
    f('search_sessions', 'DELETE FROM chatkeep.search_sessions WHERE session_id = $1'),
    f('holders', 'UPDATE chatkeep.holders SET pid = 1 WHERE session_id = $1'),
    f('lock_keys', 'UPDATE chatkeep.lock_keys SET key = key + 1 WHERE session_id = $1'),
    f('lock_keys', 'DELETE FROM chatkeep.lock_keys WHERE session_id = $1'),
    f('shares', `INSERT INTO chatkeep.shares (session_id, grantee, writable, owner) VALUES ($1, current_user, true, '${owner}')`),
    f('shares', 'UPDATE chatkeep.shares SET writable = true WHERE session_id = $1'),
    f('shares', 'DELETE FROM chatkeep.shares WHERE session_id = $1'),
    f('quarantine', `INSERT INTO chatkeep.quarantine (session_id, part, reason, at, content) VALUES ($1, 'snapshot', '${FORGED}', now(), '${FORGED}')`),
    f('ids', 'DELETE FROM chatkeep.ids WHERE id = $1'),
    f('projects', `UPDATE chatkeep.projects SET path = '${FORGED}'`, []),
    f('history', `UPDATE chatkeep.history SET line = '${FORGED}'`, []),
    f('migrations', 'DELETE FROM chatkeep.migrations', []),
    f('migrations', "INSERT INTO chatkeep.migrations (version, tool_version) VALUES (1000, 'forged')", []),
  ];
}

/** The rows of `owner` (theirs, or of their sessions) in each table, as SQL over alias `x` (`$1`: the owner). */
const SCOPE: Record<string, string> = {
  sessions: 'x.owner = $1',
  ids: 'x.owner = $1',
  projects: 'x.owner = $1',
  history: 'x.owner = $1',
  shares: 'x.owner = $1',
  quarantine: 'x.session_id IN (SELECT id FROM chatkeep.sessions WHERE owner = $1)',
  migrations: '$1::text IS NOT NULL',
  ...Object.fromEntries(
    ['events', 'search_messages', 'search_blocks', 'search_sessions', 'holders', 'lock_keys'].map((t) => [t, 'x.session_id IN (SELECT id FROM chatkeep.sessions WHERE owner = $1)']),
  ),
};

/** Per table, a hash of `owner`'s rows in it (as a superuser sees them): a forgery that took changes one. */
export async function fingerprint(adminUrl: string, owner: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [t, scope] of Object.entries(SCOPE)) {
    const [row] = await runSql<{ h: string | null }>(adminUrl, `SELECT md5(string_agg(x::text, '|' ORDER BY x::text)) AS h FROM chatkeep.${t} x WHERE ${scope}`, [owner]);
    out[t] = row?.h ?? '';
  }
  return out;
}

/** `owner`'s rows (theirs, or of their sessions) that hold the forged text, as a superuser sees them. */
export async function forgedRows(adminUrl: string, owner: string): Promise<number> {
  let n = 0;
  for (const [t, scope] of Object.entries(SCOPE)) {
    const [row] = await runSql<{ n: number }>(adminUrl, `SELECT count(*)::int AS n FROM chatkeep.${t} x WHERE ${scope} AND strpos(x::text, $2) > 0`, [owner, FORGED]);
    n += row?.n ?? 0;
  }
  return n;
}

/** Runs `sql` as whoever `url` logs in as; the error's text when PostgreSQL refuses it. */
export async function attempt(url: string, sql: string, params: unknown[] = []): Promise<{ rows: number; error?: string }> {
  try {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const result = await client.query(sql, params);
      return { rows: result.rowCount ?? 0 };
    } finally {
      await client.end();
    }
  } catch (err) {
    return { rows: 0, error: err instanceof Error ? err.message : String(err) };
  }
}
