/**
 * A session's search rows on PostgreSQL (docs/design.md §18), written by the transaction that
 * writes its snapshot (session-rows.ts), so that a search never has to catch up: the first
 * search on a server of 10,000 sessions is as fast as the next.
 *
 * `chatkeep.search_sessions` says what a session's rows were made from: the snapshot
 * (`snapshot_version`, and `seq`, the last event it holds), the title (as written and folded),
 * and how many messages (`messages`, of which `archived`) with a hash of the last one (`tail`).
 * `chatkeep.search_messages` holds each message: its folded text (src/search/fold.ts) and, on a
 * server without `pg_trgm`, its 3-character sequences as a tsvector (search.ts says why);
 * `chatkeep.search_blocks` the same folded texts, 32 messages a row (search-blocks.ts).
 *
 * Messages only ever grow at the end (a `/reset` archives them in place, flipping `archived`):
 * when the rows hold a prefix of the snapshot's messages (same count archived, same last
 * message), only the new ones are inserted, so an autosave of a long session costs its new
 * messages, not all of them. Anything else rewrites the session's rows.
 */
import { createHash } from 'node:crypto';
import type { ClientBase } from 'pg';
import { fold } from '../../search/fold.js';
import { searchableMessages, type SearchableMessage } from '../../search/rank.js';
import type { SessionSnapshot } from '../../session/api/data.js';
import { BLOCK, blocksOf } from './search-blocks.js';

/** Longer folded messages get no sequences (a tsvector holds under 1 MB of lexemes; 3 characters take at most 12 bytes + 4). */
const MAX_GRAMMED = 60_000;

/**
 * The messages' rows; their 3-character sequences (computed by the server, in its characters, as
 * `strpos` counts them) only where no trigram index (`pg_trgm`) serves the search. In the same
 * statement, the blocks the new messages fall in made again (search-blocks.ts), from the new rows
 * and the earlier messages of the first such block (`$9`: the first new message's number): the
 * statement's own inserts are not visible to its reads, their RETURNING is.
 */
const INSERT_MESSAGES_SQL = `WITH mode AS (SELECT to_regclass('chatkeep.search_messages_trgm') IS NULL AS grammed),
  added AS (INSERT INTO chatkeep.search_messages (session_id, owner, n, role, at, archived, content, folded, grams)
  SELECT $1, $8, m.n, m.role, m.at, m.archived, m.content, m.folded,
    CASE WHEN mode.grammed AND char_length(m.folded) <= ${MAX_GRAMMED} THEN array_to_tsvector(ARRAY(
      SELECT DISTINCT substr(m.folded, i, 3) FROM generate_series(1, char_length(m.folded) - 2) AS i)) END
  FROM unnest($2::int[], $3::text[], $4::float8[], $5::bool[], $6::json[], $7::text[]) AS m(n, role, at, archived, content, folded), mode
  RETURNING session_id, owner, n, folded)
  INSERT INTO chatkeep.search_blocks (session_id, owner, block, folded)
  ${blocksOf(`(SELECT * FROM added UNION ALL SELECT k.session_id, k.owner, k.n, k.folded FROM chatkeep.search_messages k
    WHERE k.session_id = $1 AND k.n >= $9::int / ${BLOCK} * ${BLOCK} AND k.n < $9)`)}
  ON CONFLICT (session_id, block) DO UPDATE SET folded = EXCLUDED.folded`;

/** A session's rows made again from nothing: its messages and their blocks. */
const DELETE_MESSAGES_SQL = `WITH blocks AS (DELETE FROM chatkeep.search_blocks WHERE session_id = $1)
  DELETE FROM chatkeep.search_messages WHERE session_id = $1`;

/**
 * The facts the rows were made from; the session's row gives its snapshot version and its owner,
 * which every search row carries (search-owner.ts), none: the session is gone. The session's row
 * says they cover it (search-coverage.ts) where its title is theirs; a snapshot's own statement
 * says so already (session-rows.ts), so this changes the row only for rows written by a search
 * (search.ts), of a snapshot stored without them.
 */
const UPSERT_SESSION_SQL = `WITH covered AS (UPDATE chatkeep.sessions s SET search_version = s.snapshot_version, search_seq = $2, search_messages = $3
    WHERE s.id = $1 AND s.title IS NOT DISTINCT FROM $6
      AND (s.search_version, s.search_seq, s.search_messages) IS DISTINCT FROM (s.snapshot_version, $2::bigint, $3::int))
  INSERT INTO chatkeep.search_sessions (session_id, owner, snapshot_version, seq, messages, archived, tail, title, folded_title)
  SELECT s.id, s.owner, s.snapshot_version, $2, $3, $4, $5, $6, $7 FROM chatkeep.sessions s WHERE s.id = $1
  ON CONFLICT (session_id) DO UPDATE SET snapshot_version = EXCLUDED.snapshot_version, seq = EXCLUDED.seq, messages = EXCLUDED.messages,
    archived = EXCLUDED.archived, tail = EXCLUDED.tail, title = EXCLUDED.title, folded_title = EXCLUDED.folded_title
  RETURNING owner`;

/** A short hash of a message as search keeps it ('' for none): equal hashes, same message. */
export function tailOf(m: SearchableMessage | undefined): string {
  return m ? createHash('sha1').update(`${m.role}\n${m.timestamp.getTime()}\n${m.content}`).digest('base64') : '';
}

/**
 * Makes session `id`'s search rows say what `snapshot` holds (undefined: a session that cannot be
 * read, indexed empty until it changes). Run inside the transaction that wrote the snapshot (or,
 * for a session indexed by a search, one holding its row), after the session's row is updated.
 * `fresh`: the session's row was inserted by this transaction, so it has no search rows to read
 * first (an ID is issued once: none of an earlier session of that ID can be left); `messages`:
 * the snapshot's searchable messages, where the caller has them already.
 */
export async function writeSearchRows(
  client: ClientBase,
  id: string,
  snapshot: SessionSnapshot | undefined,
  options: { fresh?: boolean; messages?: SearchableMessage[] } = {},
): Promise<void> {
  const messages = options.messages ?? (snapshot ? searchableMessages(snapshot) : []);
  const archived = messages.reduce((n, m) => n + (m.archived ? 1 : 0), 0);
  const [before] = options.fresh ? [] : (
    await client.query<{ messages: number; archived: number; tail: string | null }>(
      'SELECT messages, archived, tail FROM chatkeep.search_sessions WHERE session_id = $1 FOR UPDATE',
      [id],
    )
  ).rows;
  const prefix = before !== undefined && before.tail !== null && before.archived === archived && before.messages <= messages.length
    && before.tail === tailOf(messages[before.messages - 1]);
  const from = prefix ? before.messages : 0;
  if (before && !prefix) await client.query(DELETE_MESSAGES_SQL, [id]);
  const title = snapshot?.title ?? null;
  const upserted = await client.query<{ owner: string }>(UPSERT_SESSION_SQL, [
    id, snapshot?.journalSeq ?? 0, messages.length, archived, tailOf(messages.at(-1)), title, fold(title ?? ''),
  ]);
  const added = messages.slice(from);
  const owner = upserted.rows[0]?.owner;
  if (owner === undefined || added.length === 0) return;
  await client.query(INSERT_MESSAGES_SQL, [
    id,
    added.map((_, i) => from + i),
    added.map((m) => m.role),
    added.map((m) => m.timestamp.getTime()),
    added.map((m) => m.archived),
    added.map((m) => JSON.stringify(m.content)),
    added.map((m) => fold(m.content)),
    owner,
    from,
  ]);
}
