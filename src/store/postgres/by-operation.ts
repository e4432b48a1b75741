/**
 * Row security by operation, and lock keys nobody else can guess. Reading and writing differ, so
 * each table gets a policy per operation instead of one for all:
 *
 * - `events`: a writable grantee may only append, each event after the session's last (its
 *   snapshot's `journal_seq` or its latest event); only the owner updates or deletes one.
 * - `sessions`: a writable grantee may move the epoch (taking the session) and the trash mark,
 *   nothing else: the snapshot and the listing columns are the owner's (a trigger refuses the rest).
 *   What a grantee appends reaches the listing through a definer trigger on `events`
 *   (`note_appended`), which counts the messages and moves `updated_at` and `journal_seq`: the
 *   member never writes those columns. (Since owner-append.ts, a row trigger that skips the
 *   owner's own appends.)
 * - search rows: read by whoever reads the session, written by its owner only (with the snapshot,
 *   in its transaction); nobody else inserts, changes or removes one.
 * - `quarantine`: a row about a session only by its owner (whose snapshot it moves aside).
 *
 * The schema's owner (`chatkeep_owner` on a team's database, the one person on their own) acts
 * for chatkeep itself: the definer trigger runs as it, and migrations that move data run as it,
 * so it sees and changes every row (`chatkeep.is_chatkeep()`); nobody logs in as it.
 *
 * Lock keys: a session's advisory lock key is random (not a sequence anyone can walk through
 * with `pg_advisory_lock(…, generate_series(…))`) and kept in `lock_keys`, readable only by
 * those who may write the session: nobody else can hold a session's lock, or learn its key.
 */

/** A row of `t`'s session whose owner is the role asking (joined by the planner, not called per row). */
export const owned = (t: string): string => `EXISTS (SELECT 1 FROM chatkeep.sessions s WHERE s.id = ${t}.session_id AND s.owner = current_user)`;

/** Whoever may write `t`'s session: its owner, or a role (or the team) it is shared with for writing. */
export const writer = (t: string): string =>
  `EXISTS (SELECT 1 FROM chatkeep.sessions s WHERE s.id = ${t}.session_id AND (s.owner = current_user OR (s.id, s.owner) IN
    (SELECT sh.session_id, sh.owner FROM chatkeep.shares sh WHERE sh.grantee IN (current_user, 'public') AND sh.writable)))`;

const searchPolicies = ['search_sessions', 'search_messages']
  .map(
    (t) => `
  DROP POLICY ${t}_write ON chatkeep.${t};
  CREATE POLICY ${t}_insert ON chatkeep.${t} FOR INSERT WITH CHECK (${owned(t)});
  CREATE POLICY ${t}_update ON chatkeep.${t} FOR UPDATE USING (${owned(t)}) WITH CHECK (${owned(t)});
  CREATE POLICY ${t}_delete ON chatkeep.${t} FOR DELETE USING (${owned(t)});`,
  )
  .join('');

export const BY_OPERATION_MIGRATION = `
  CREATE FUNCTION chatkeep.is_chatkeep() RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM pg_namespace n JOIN pg_roles r ON r.oid = n.nspowner WHERE n.nspname = 'chatkeep' AND r.rolname = current_user)
  $$;
  CREATE FUNCTION chatkeep.is_admin() RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user), false)
  $$;
  -- A function, opaque to the rewriter: a policy on events that read events directly would recurse.
  CREATE FUNCTION chatkeep.last_seq(sid text) RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT greatest((SELECT journal_seq FROM chatkeep.sessions WHERE id = sid), (SELECT max(seq) FROM chatkeep.events WHERE session_id = sid), 0)
  $$;
  CREATE POLICY sessions_by_chatkeep ON chatkeep.sessions FOR ALL USING (chatkeep.is_chatkeep()) WITH CHECK (chatkeep.is_chatkeep());
  CREATE FUNCTION chatkeep.guard_session() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.owner = current_user OR chatkeep.is_chatkeep() OR chatkeep.is_admin() THEN
        RETURN NEW;
      END IF;
      IF to_jsonb(NEW) - 'lock_epoch' - 'trashed_at' IS DISTINCT FROM to_jsonb(OLD) - 'lock_epoch' - 'trashed_at' THEN
        RAISE EXCEPTION 'permission denied: chatkeep session % is %''s, and only its owner changes its snapshot or listing', OLD.id, OLD.owner
          USING ERRCODE = '42501';
      END IF;
      RETURN NEW;
    END
  $$;
  CREATE TRIGGER sessions_guard BEFORE UPDATE ON chatkeep.sessions FOR EACH ROW EXECUTE FUNCTION chatkeep.guard_session();

  DROP POLICY events_write ON chatkeep.events;
  CREATE POLICY events_append ON chatkeep.events FOR INSERT
    WITH CHECK (${writer('events')} AND (${owned('events')} OR seq > chatkeep.last_seq(session_id)));
  CREATE POLICY events_update ON chatkeep.events FOR UPDATE USING (${owned('events')}) WITH CHECK (${owned('events')});
  CREATE POLICY events_delete ON chatkeep.events FOR DELETE USING (${owned('events')});
  -- What someone other than the owner appended, as the listing shows it (the owner's chatkeep
  -- writes its listing with each snapshot). Runs as chatkeep itself; session_user is who appended.
  CREATE FUNCTION chatkeep.note_appended() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    BEGIN
      UPDATE chatkeep.sessions s SET updated_at = greatest(s.updated_at, a.ts), journal_seq = greatest(s.journal_seq, a.seq),
          message_count = s.message_count + a.messages
        FROM (SELECT session_id, max(ts) AS ts, max(seq) AS seq, count(*) FILTER (WHERE type = 'message') AS messages FROM added GROUP BY session_id) a
        WHERE s.id = a.session_id AND s.owner <> session_user;
      RETURN NULL;
    END
  $$;
  CREATE TRIGGER events_appended AFTER INSERT ON chatkeep.events REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION chatkeep.note_appended();
  ${searchPolicies}
  DROP POLICY quarantine_own ON chatkeep.quarantine;
  CREATE POLICY quarantine_own ON chatkeep.quarantine FOR ALL USING (owner = current_user)
    WITH CHECK (owner = current_user AND ${owned('quarantine')});
`;

/** A random key for the two-key advisory lock: never 0 (migrations), never negative. */
const RANDOM_KEY = `greatest(1, ('x' || substr(md5(gen_random_uuid()::text), 1, 8))::bit(32)::int & 2147483647)`;

export const LOCK_KEYS_MIGRATION = `
  CREATE TABLE chatkeep.lock_keys (
    session_id text COLLATE "C" PRIMARY KEY REFERENCES chatkeep.sessions (id) ON DELETE CASCADE,
    key integer NOT NULL UNIQUE
  );
  ALTER TABLE chatkeep.lock_keys ENABLE ROW LEVEL SECURITY;
  ALTER TABLE chatkeep.lock_keys FORCE ROW LEVEL SECURITY;
  CREATE POLICY lock_keys_read ON chatkeep.lock_keys FOR SELECT USING (${writer('lock_keys')});
  CREATE POLICY lock_keys_insert ON chatkeep.lock_keys FOR INSERT WITH CHECK (${owned('lock_keys')});
  CREATE POLICY lock_keys_by_chatkeep ON chatkeep.lock_keys FOR ALL USING (chatkeep.is_chatkeep()) WITH CHECK (chatkeep.is_chatkeep());
  -- Keys drawn again on the rare collision (the unique index sees every role's keys; the role does not).
  CREATE FUNCTION chatkeep.give_lock_key() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      LOOP
        BEGIN
          INSERT INTO chatkeep.lock_keys (session_id, key) VALUES (NEW.id, ${RANDOM_KEY});
          RETURN NULL;
        EXCEPTION WHEN unique_violation THEN
          NULL;
        END;
      END LOOP;
    END
  $$;
  CREATE TRIGGER sessions_lock_key AFTER INSERT ON chatkeep.sessions FOR EACH ROW EXECUTE FUNCTION chatkeep.give_lock_key();
  DO $$ DECLARE r record; BEGIN
    FOR r IN SELECT id FROM chatkeep.sessions LOOP
      LOOP
        BEGIN
          INSERT INTO chatkeep.lock_keys (session_id, key) VALUES (r.id, ${RANDOM_KEY});
          EXIT;
        EXCEPTION WHEN unique_violation THEN
          NULL;
        END;
      END LOOP;
    END LOOP;
  END $$;
  ALTER TABLE chatkeep.sessions DROP COLUMN lock_key;
`;

/**
 * `chatkeep.is_chatkeep()` asked once per statement, not once per row. As a bare call in a
 * policy it ran for every row the other policies refused (another member's sessions in a shared
 * project), which made a member's listing several times the admin's; wrapped in a scalar
 * subquery it is an init plan, evaluated once.
 */
export const ONCE_PER_STATEMENT_MIGRATION = `
  ALTER POLICY sessions_by_chatkeep ON chatkeep.sessions
    USING ((SELECT chatkeep.is_chatkeep())) WITH CHECK ((SELECT chatkeep.is_chatkeep()));
  ALTER POLICY lock_keys_by_chatkeep ON chatkeep.lock_keys
    USING ((SELECT chatkeep.is_chatkeep())) WITH CHECK ((SELECT chatkeep.is_chatkeep()));
`;
