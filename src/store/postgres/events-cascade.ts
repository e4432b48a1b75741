/**
 * A session's events go with it, without a foreign key checked on every append. The key from
 * `events` to `sessions` ran, for each appended row, a check of its own (a trigger that plans and
 * runs a share lock of the session's row through the server's SPI): ~35 µs of a backend's CPU an
 * append on one connection, ~60 µs of the server's at 200 writers (docs/internals.md, "The append
 * without the foreign key's check"). What it guarded, each append already does:
 *
 * - an event only for a session that exists: every append chatkeep sends is fenced (event-log.ts,
 *   `FENCED_OWNER`), a share lock of the session's row at the lock's epoch, taken before the row
 *   is inserted and held until it commits; no row, nothing inserted. A member's own INSERT passes
 *   `events_append` only where the session's row is readable.
 * - a session deleted with its events: a row trigger before the session's row goes deletes them,
 *   as the key's `ON DELETE CASCADE` did. The delete locks the row first (waiting for an append
 *   that holds it), and the trigger's DELETE sees what that append committed: nothing appended
 *   is left behind.
 *
 * The trigger runs as the one deleting. Whoever may delete a session may delete its events: its
 * owner (`events_delete`), chatkeep itself (`events_by_chatkeep`, below: the key's cascade let it
 * through too) and an admin, to whom no policy applies. A grantee cannot delete a session at all.
 * What is left unguarded: a hand-written INSERT by a session's writer, not fenced, racing the
 * session's deletion could leave an event of a session that no longer exists, which nobody but an
 * admin can read (every read of events goes through its session).
 */

export const EVENTS_CASCADE_MIGRATION = `
  ALTER TABLE chatkeep.events DROP CONSTRAINT events_session_id_fkey;
  CREATE FUNCTION chatkeep.drop_session_events() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM chatkeep.events WHERE session_id = OLD.id;
      RETURN OLD;
    END
  $$;
  CREATE TRIGGER sessions_drop_events BEFORE DELETE ON chatkeep.sessions FOR EACH ROW EXECUTE FUNCTION chatkeep.drop_session_events();
  CREATE POLICY events_by_chatkeep ON chatkeep.events FOR DELETE USING ((SELECT chatkeep.is_chatkeep()));
`;
