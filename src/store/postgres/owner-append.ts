/**
 * The owner's own append without the listing's trigger. `note_appended` (by-operation.ts) moves
 * a session's listing for what someone other than its owner appends; it ran for every INSERT
 * into `events` as a statement trigger with a transition table, owner's or not, and changed
 * nothing for the owner's (whose chatkeep writes its listing with each snapshot): at 200 writers
 * a third of an append's server CPU (docs/internals.md, "Where the 200 writers' append time
 * went"). Now each event says whether its session's owner appended it (`by_owner`, from the
 * fence's row, event-log.ts), the events policy holds that true (only the owner may append a row
 * marked so), and the trigger is a row trigger for the rest (`WHEN (NOT NEW.by_owner)`): the
 * owner's append queues no trigger at all, and a grantee's, or any INSERT that does not say, is
 * noted as before, each row by itself.
 */
import { owned, writer } from './by-operation.js';
import { APPEND_SQL, appendFunction } from './event-log.js';

export const OWNER_APPEND_MIGRATION = `
  ALTER TABLE chatkeep.events ADD COLUMN by_owner boolean NOT NULL DEFAULT false;
  ALTER POLICY events_append ON chatkeep.events
    WITH CHECK (${writer('events')} AND (${owned('events')} OR (NOT by_owner AND seq > chatkeep.last_seq(session_id))));
  DROP TRIGGER events_appended ON chatkeep.events;
  CREATE OR REPLACE FUNCTION chatkeep.note_appended() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    BEGIN
      UPDATE chatkeep.sessions s SET updated_at = greatest(s.updated_at, NEW.ts), journal_seq = greatest(s.journal_seq, NEW.seq),
          message_count = s.message_count + (NEW.type = 'message')::int
        WHERE s.id = NEW.session_id AND s.owner <> session_user;
      RETURN NULL;
    END
  $$;
  CREATE TRIGGER events_appended AFTER INSERT ON chatkeep.events FOR EACH ROW WHEN (NOT NEW.by_owner)
    EXECUTE FUNCTION chatkeep.note_appended();
  ${appendFunction('CREATE OR REPLACE', APPEND_SQL)}
`;
