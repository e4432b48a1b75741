/**
 * Search rows that carry their session's owner (docs/design.md §9, §18), so that row security
 * decides a member's own rows without a probe of `sessions` per row.
 *
 * A search row was readable when its session was: each row read paid a lookup of its session
 * under that table's own policy (~8 buffers), per visible session for its search facts and per
 * message for its hits; for a member of 10,000 sessions that was most of a search. Now both
 * tables hold `owner`, and foreign keys on (session, owner) keep it equal to the session's for
 * every role, the admin's included (a session's owner never changes: row-security.ts). The read
 * policy lets a row through at once when its owner is the role asking, which then owns its
 * session; any other row still needs its session readable (a share), as before: no row is
 * readable that was not. Writing is as strict as before, the owner named: only a session's
 * owner writes its rows.
 *
 * The migration rewrites every search row once (on a team's server of millions of messages,
 * minutes, under the migration's lock). It runs as the schema's owner, which owns the tables:
 * row security is left off for them while it fills the column, so that it reaches every row.
 */

import { owned } from './by-operation.js';

/** The role asking, in the default collation, as `owner` is kept: so that an index on owner serves it. */
export const SEARCHER = `current_user::text COLLATE "default"`;

/**
 * A row of `t` whose session the role asking may read (row security on `sessions` decides), by
 * a lookup of that session: `OFFSET 0` keeps the planner from hashing every session of the
 * server instead, which it would do once for a search that meets a single row of a shared session.
 */
export const sessionReadable = (t: string): string => `EXISTS (SELECT 1 FROM chatkeep.sessions s WHERE s.id = ${t}.session_id OFFSET 0)`;

/** A row of `t`, named as the role asking's, whose session that role owns. */
export const ownedAndNamed = (t: string): string => `${t}.owner = current_user AND ${owned(t)}`;

const TABLES = ['search_sessions', 'search_messages'] as const;

const policies = TABLES.map((t) => `
  ALTER POLICY ${t}_read ON chatkeep.${t} USING (${t}.owner = current_user OR ${sessionReadable(t)});
  ALTER POLICY ${t}_insert ON chatkeep.${t} WITH CHECK (${ownedAndNamed(t)});
  ALTER POLICY ${t}_update ON chatkeep.${t} USING (${ownedAndNamed(t)}) WITH CHECK (${ownedAndNamed(t)});`).join('');

export const SEARCH_OWNER_MIGRATION = `
  ALTER TABLE chatkeep.sessions ADD CONSTRAINT sessions_id_owner UNIQUE (id, owner);
  ALTER TABLE chatkeep.search_sessions ADD COLUMN owner text;
  ALTER TABLE chatkeep.search_messages ADD COLUMN owner text;
  ALTER TABLE chatkeep.search_sessions NO FORCE ROW LEVEL SECURITY;
  ALTER TABLE chatkeep.search_messages NO FORCE ROW LEVEL SECURITY;
  UPDATE chatkeep.search_sessions d SET owner = s.owner FROM chatkeep.sessions s WHERE s.id = d.session_id;
  DO $$
  DECLARE defs text[];
  BEGIN
    -- Every message's row is rewritten: its indexes are made again after it, not added to row by row (the trigram
    -- index's pending list made that hours at a million sessions). The same definitions, read from the server.
    SELECT array_agg(pg_get_indexdef(i.indexrelid)) INTO defs FROM pg_index i
      WHERE i.indrelid = 'chatkeep.search_messages'::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid);
    EXECUTE (SELECT string_agg(format('DROP INDEX %s', i.indexrelid::regclass), '; ') FROM pg_index i
      WHERE i.indrelid = 'chatkeep.search_messages'::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid));
    UPDATE chatkeep.search_messages m SET owner = d.owner FROM chatkeep.search_sessions d WHERE d.session_id = m.session_id;
    EXECUTE array_to_string(defs, '; ');
  END $$;
  ALTER TABLE chatkeep.search_sessions FORCE ROW LEVEL SECURITY;
  ALTER TABLE chatkeep.search_messages FORCE ROW LEVEL SECURITY;
  ALTER TABLE chatkeep.search_sessions ALTER COLUMN owner SET DEFAULT current_user, ALTER COLUMN owner SET NOT NULL,
    ADD CONSTRAINT search_sessions_by_owner UNIQUE (owner, session_id);
  ALTER TABLE chatkeep.search_messages ALTER COLUMN owner SET DEFAULT current_user, ALTER COLUMN owner SET NOT NULL;
  ALTER TABLE chatkeep.search_messages DROP CONSTRAINT search_messages_session_id_fkey,
    ADD CONSTRAINT search_messages_session_fkey FOREIGN KEY (session_id, owner)
      REFERENCES chatkeep.search_sessions (session_id, owner) ON DELETE CASCADE;
  ALTER TABLE chatkeep.search_sessions DROP CONSTRAINT search_sessions_session_id_fkey,
    ADD CONSTRAINT search_sessions_session_fkey FOREIGN KEY (session_id, owner)
      REFERENCES chatkeep.sessions (id, owner) ON DELETE CASCADE;
  ${policies}
`;
