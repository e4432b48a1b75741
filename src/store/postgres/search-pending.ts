/**
 * Whether a session a search may read has events past its search rows (`pending` in the match,
 * search-match.ts: its unsaved messages are read and searched in memory), known without a probe
 * of the events per session where the events table holds fewer rows than the search's sessions.
 *
 * A session's events are deleted once a snapshot holds them (event-log.ts compacts), so `events`
 * holds the tails of the sessions written to since their last snapshot: few rows on a live server,
 * none in the scale bench when it searches. Schemas 18 to 35 read each session's last event by key
 * (LAST_EVENT_SEQ), a probe of the events index per session the searcher may read, whatever the
 * table held: for the single user's 2,000 sessions, the table empty, 2,000 probes and 4,000
 * buffers, ~0.9 ms of the 4.4 ms of backend CPU her match took for a rare word (docs/internals.md,
 * "Search's match: the sessions' tails read once").
 *
 * Schema 36 reads the table itself, up to as many rows as the search has sessions (`tail`, after
 * `vis` and COUNTED, search-path.ts); fewer than that means every row the searcher may read is in
 * it (`whole`), and a session none of them names has no event past anything: only the sessions
 * it names are probed. Otherwise each session is probed, as before. Where the table has no page
 * it is read whoever reads (nothing to read). Otherwise only by a reader no row security applies to
 * (`row_security_active`: false for a superuser or a role with BYPASSRLS, the admin as
 * `chatkeep.is_admin()` says), whose read of a row costs a fraction of a probe (a few hundredths of
 * a µs against ~0.5) and never more rows than the probes it may save; and not where its pages times the rows a
 * page held when the statistics last counted (`pg_class`: a count, not a row) say it holds as many
 * rows as the sessions searched, which a table of dead rows would cost to read (with no count yet,
 * it is read). Under row security each row read is checked by the events policy, and the plan a
 * connection keeps checked it by a hashed subplan, a scan of every session of the server under its
 * own policy: a member's match at 10,000 sessions with 180 events on the server, 30 of them hers,
 * took 9.1 ms of backend CPU against 3.3 with the probes. A role under row security (a member, the
 * schema's owner) probes as before wherever the table has a page.
 */
import { LAST_EVENT_SEQ } from './event-log.js';

/** Whether reading `events` costs less than a probe per session, as the header says (one row `yes`; COUNTED's `n` in scope). */
const TRIED = `SELECT pg_relation_size(c.oid) = 0 OR (NOT row_security_active(c.oid) AND (c.reltuples < 0 OR c.relpages = 0
      OR pg_relation_size(c.oid) / current_setting('block_size')::float8 * c.reltuples / c.relpages < (SELECT n FROM counted))) AS yes
    FROM pg_class c WHERE c.oid = 'chatkeep.events'::regclass`;

/** The CTEs after `vis` and COUNTED: the sessions the events the searcher may read name (`tail`), and whether those are all of them (`whole`). */
export const TAILS = `tried AS MATERIALIZED (${TRIED}),
  tail AS MATERIALIZED (SELECT e.session_id FROM chatkeep.events e WHERE (SELECT yes FROM tried) LIMIT (SELECT n FROM counted)),
  whole AS MATERIALIZED (SELECT (SELECT yes FROM tried) AND count(*) < (SELECT n FROM counted) AS yes FROM tail),
  `;

/**
 * Whether the session `s` (a row of `vis`) has an event past its rows' last (`d_seq`), as a boolean:
 * false where `tail` is whole and does not name it (a hashed lookup), its last event by key
 * otherwise. Written once per session, in a subquery the planner keeps (`OFFSET 0`): each of the
 * final SELECT's three readings of it would otherwise run it again.
 */
export const PENDING = `CASE WHEN (SELECT yes FROM whole) AND NOT s.id IN (SELECT t.session_id FROM tail t) THEN false
      ELSE coalesce(${LAST_EVENT_SEQ('s.id')} > s.d_seq, false) END`;
