/**
 * Whether a session's search rows cover it, said on the session's own row (schema 33 on): the
 * snapshot version whose rows are written (`search_version`), and of those rows the last event
 * (`search_seq`) and the number of messages (`search_messages`), as `search_sessions` says them.
 *
 * The match (search-match.ts) decided it per session by joining each one's search facts and
 * comparing four of their columns with the session's: of the ten steps a few tenths of a µs each
 * per session a searcher may read (docs/internals.md, "Search's match by part, and the role asked
 * once"), where the floor reads each session once. Written with the snapshot, in the snapshot's
 * own statement (session-rows.ts: a second UPDATE of the row would leave a dead version of it for
 * every snapshot, which the first search after a bulk write pruned), the facts are on the row the
 * match reads anyway: a session is covered when `search_version = snapshot_version`, and only the
 * sessions that are not read their search facts, by key.
 *
 * What may change a session's row without its search rows: a title recorded by the model
 * (`recordRow`, store.ts), a snapshot quarantined (its version raised: not covered), an event
 * appended by a grantee (`journal_seq` raised, the events past `search_seq` found by the last event
 * as before). A title changed by any statement that does not set `search_version` too clears it
 * (the trigger below, whose condition the server checks without calling it when the title stays):
 * the rows' folded title no longer says the session's. Events appended by the session's owner
 * leave the row alone (the append's cost, event-log.ts): the last event is still looked up per
 * session, and compared with `search_seq` (since schema 36 only where the events table holds as
 * many rows as the sessions searched: search-pending.ts).
 */
import { LAST_EVENT_SEQ } from './event-log.js';
import { SEARCHER } from './search-owner.js';
import { EVERY_SESSION, SEERS, VIS_COLUMNS, type EverySession, type Seer } from './search-every-session.js';
import { COUNTED, type MessagesFrom } from './search-path.js';
import { PENDING, TAILS } from './search-pending.js';

/** A session (`s`) whose search rows are of its current snapshot and title. */
const COVERED = 's.search_version IS NOT DISTINCT FROM s.snapshot_version';

/**
 * The session's columns the match reads, one row each: the listing's, what coverage needs, and the
 * messages its rows hold where they cover it (the hits' path is chosen from them: search-path.ts).
 */
const COVERAGE_COLUMNS = `s.id, s.project_key, s.project_path, s.updated_at, s.title, s.snapshot_version,
      ${COVERED} AS covered, s.search_seq, s.search_messages`;

/**
 * The session's title folded as search folds it (src/search/fold.ts), for a covered session: an
 * ASCII title is lowercased (`COLLATE "C"`: ASCII letters only, whatever the database's locale),
 * which is what folding does to ASCII; any other title is its rows' folded title (`d`, read for
 * such a session only).
 */
const FOLDED_TITLE = `CASE WHEN s.covered AND octet_length(s.title) = char_length(s.title) THEN lower(s.title COLLATE "C") ELSE s.folded_title END`;

/**
 * Whether the session's search facts are read (`d`): not covered, or a title that lowercasing does
 * not fold. A NULL title is neither (no title: nothing of it to match).
 */
const FACTS_READ = `NOT s.covered OR octet_length(s.title) <> char_length(s.title)`;

/**
 * The columns, the trigger, and the facts of every session copied onto its row where its rows
 * cover it (the same four comparisons the match made), so that the match's answers stay as they
 * were: row security off for `search_sessions` while they are read (the schema's owner, which a
 * team's admin acts as, reads every row then, as search-owner.ts's migration did).
 */
export const SEARCH_COVERAGE_MIGRATION = `
  ALTER TABLE chatkeep.sessions ADD COLUMN search_version bigint, ADD COLUMN search_seq bigint, ADD COLUMN search_messages integer;
  ALTER TABLE chatkeep.search_sessions NO FORCE ROW LEVEL SECURITY;
  UPDATE chatkeep.sessions s SET search_version = d.snapshot_version, search_seq = d.seq, search_messages = d.messages
    FROM chatkeep.search_sessions d
    WHERE d.session_id = s.id AND d.snapshot_version = s.snapshot_version AND d.title IS NOT DISTINCT FROM s.title;
  ALTER TABLE chatkeep.search_sessions FORCE ROW LEVEL SECURITY;
  CREATE FUNCTION chatkeep.search_uncovered() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.search_version := NULL;
      RETURN NEW;
    END
  $$;
  CREATE TRIGGER sessions_search_uncovered BEFORE UPDATE OF title ON chatkeep.sessions FOR EACH ROW
    WHEN (OLD.title IS DISTINCT FROM NEW.title AND OLD.search_version IS NOT DISTINCT FROM NEW.search_version)
    EXECUTE FUNCTION chatkeep.search_uncovered();
`;

/** What the flagged `vis` reads of a session by the index on its project: the columns named, as `byProject`'s lateral names them (search-every-session.ts). */
const PROJECT_COLUMNS = 's.id, s.project_key, s.project_path, s.updated_at, s.title, s.snapshot_version, s.search_version, s.search_seq, s.search_messages';

/**
 * The sessions the searcher may read, with what says whether their rows cover them, by the three
 * branches (a member's own by owner, each shared one by key, a role that sees every session's by
 * the index on the project: search-every-session.ts), only one run: `seer.seesAll` decides.
 */
const sessionsOf = (seer: (typeof SEERS)[Seer]): string => `
      SELECT ${COVERAGE_COLUMNS} FROM chatkeep.sessions s
      WHERE NOT ${seer.seesAll} AND s.owner = ${SEARCHER} AND s.project_key = ANY($1) AND s.trashed_at IS NULL
      UNION ALL
      SELECT ${COVERAGE_COLUMNS}
      FROM (SELECT DISTINCT sh.session_id FROM chatkeep.shares sh WHERE sh.grantee IN (current_user, 'public')) sh
        CROSS JOIN LATERAL (SELECT s.* FROM chatkeep.sessions s WHERE s.id = sh.session_id OFFSET 0) s
      WHERE NOT ${seer.seesAll} AND s.owner <> ${SEARCHER} AND s.project_key = ANY($1) AND s.trashed_at IS NULL
      UNION ALL
      SELECT ${COVERAGE_COLUMNS}
      FROM (SELECT DISTINCT unnest($1::text[]) AS key) k
        CROSS JOIN LATERAL (SELECT ${PROJECT_COLUMNS} FROM chatkeep.sessions s WHERE s.project_key = k.key AND s.trashed_at IS NULL OFFSET 0) s
      WHERE ${seer.seesAll}`;

/**
 * `vis` (search-match.ts) with coverage read off each session's row: the sessions (sessionsOf),
 * none joined with its search facts; the facts read by key only where FACTS_READ says, behind a
 * one-time filter of each row.
 * The columns the rest of the match reads keep their names: `d_messages` and `d_seq` from the
 * row where it is covered, and `d_id`, `d_version`, `d_title`, `folded_title` of the facts, read
 * (NULL where they are not). `seer` says where the one row of whether the role sees every
 * session comes from (search-every-session.ts, SEERS).
 */
const flaggedVis = (seer: (typeof SEERS)[Seer]): string => `${seer.with}vis AS MATERIALIZED (
    SELECT s.*, CASE WHEN s.covered THEN s.search_messages ELSE d.messages END AS d_messages, CASE WHEN s.covered THEN s.search_seq ELSE d.seq END AS d_seq,
      d.session_id AS d_id, d.snapshot_version AS d_version, d.title AS d_title, d.folded_title, ${LAST_EVENT_SEQ('s.id')} AS last_seq
    FROM (${sessionsOf(seer)}) s
      LEFT JOIN LATERAL (SELECT d.* FROM chatkeep.search_sessions d WHERE d.session_id = s.id AND (${FACTS_READ}) OFFSET 0) d ON true),
  `;

/**
 * `vis` as flaggedVis gives it, but for two things a session needs only where its rows do not
 * cover it (schema 36): its search facts are one value (`d`, the row of `search_sessions`) that a
 * CASE reads where FACTS_READ says, not a lateral join run for each session to find its condition
 * false; and no last event (whether it has events past its rows is PENDING's, after `vis`:
 * search-pending.ts). Then COUNTED (search-path.ts) and the tails.
 */
const tailsVis = (seer: (typeof SEERS)[Seer]): string => `${seer.with}vis AS MATERIALIZED (
    SELECT s.id, s.project_key, s.project_path, s.updated_at, s.title, s.snapshot_version, s.covered,
      CASE WHEN s.covered THEN s.search_messages ELSE (s.d).messages END AS d_messages, CASE WHEN s.covered THEN s.search_seq ELSE (s.d).seq END AS d_seq,
      (s.d).session_id AS d_id, (s.d).snapshot_version AS d_version, (s.d).title AS d_title, (s.d).folded_title
    FROM (SELECT s.*, CASE WHEN ${FACTS_READ} THEN (SELECT d FROM chatkeep.search_sessions d WHERE d.session_id = s.id) END AS d
      FROM (${sessionsOf(seer)}) s OFFSET 0) s),
  ${COUNTED}${TAILS}`;

/** Rows not covered, as the facts read say (`s`, a row of `vis`): no facts, or facts of another snapshot or title. */
const UNCOVERED = '(NOT s.covered AND (s.d_id IS NULL OR s.d_version IS DISTINCT FROM s.snapshot_version OR s.d_title IS DISTINCT FROM s.title))';

/** Flagged's events past a session's rows: its last event, read in `vis`, beside its rows' last. */
const FLAGGED_PAST = { past: 's.last_seq > s.d_seq', pending: 'coalesce(s.last_seq > s.d_seq, false)', from: `(SELECT s.*, ${FOLDED_TITLE} AS ft FROM vis s) s` };

/** Tails' events past a session's rows: PENDING's answer, once per session (search-pending.ts). */
const TAILS_PAST = { past: 's.ahead', pending: 's.ahead', from: `(SELECT s.*, ${FOLDED_TITLE} AS ft, ${PENDING} AS ahead FROM vis s OFFSET 0) s` };

/**
 * The final SELECT's coverage columns and filter over `vis` (`s`, with its folded title `ft`,
 * FOLDED_TITLE) and the hits (`h`), as the joined match gave them: `hitsIn` counts a word in a column.
 * `past` is whether the session has events past its rows (`s`), `pending` the same as a column,
 * and `from` gives `s`: flagged's compares its last event, read in `vis`; tails' reads PENDING's
 * answer (TAILS_PAST).
 */
const flaggedFinal = (
  hitsIn: (column: string) => string,
  { past, pending, from }: { past: string; pending: string; from: string } = FLAGGED_PAST,
): { columns: string; from: string; where: string } => ({
  columns: `CASE WHEN $2 = '' OR s.ft IS NULL THEN 0 ELSE ${hitsIn('s.ft')} END AS title_hits,
    NOT s.covered AND s.d_title IS DISTINCT FROM s.title AS title_stale,
    NOT s.covered AND (s.d_id IS NULL OR s.d_version IS DISTINCT FROM s.snapshot_version) AS stale,
    ${pending} AS pending,
    CASE WHEN ${UNCOVERED} OR ${past} THEN s.title END AS title`,
  from,
  where: `strpos(s.ft, $2) > 0 OR ${UNCOVERED} OR ${past}`,
});

/**
 * How the match decides whether a session's search rows cover it, by release: `joined` (schema 18
 * on) joins each session the searcher may read with its search facts (EVERY_SESSION for a role that
 * sees every session) and compares their snapshot version, title and last event with the
 * session's; `flagged` (schema 33) reads it off the session's own row and reads the facts of the
 * few that are not covered (search-coverage.ts); `tails` (schema 36) reads the facts where they are
 * read as one value, and whether a session has events past its rows from the events table read
 * once where it holds few (search-pending.ts). Each gives `vis`, the final SELECT's coverage
 * columns, its FROM (`s`, over `vis`) and its filter past the hits and the ID.
 */
export type Coverage = 'joined' | 'flagged' | 'tails';

/** One variant: `vis` (with the CTEs before it, for `everySession`), and the final SELECT's coverage columns, FROM and filter. */
interface CoverageSql {
  /** `seer`: where the flagged `vis` gets whether the role sees every session (the joined one asks as EVERY_SESSION says). */
  vis: (everySession: EverySession, seer: Seer) => string;
  columns: string;
  from: string;
  where: string;
  /** Where the hits' path takes the searcher's messages (search-path.ts): `counted` where `vis` is followed by COUNTED. */
  messages?: MessagesFrom;
}

/** COVERAGE's variants, `hitsIn` counting the query in a column (search-match.ts, HITS_IN). */
export const coverageSql = (hitsIn: (column: string) => string): Record<Coverage, CoverageSql> => ({
  joined: {
    vis: (everySession) => `${EVERY_SESSION[everySession].with}vis AS MATERIALIZED (
    SELECT ${VIS_COLUMNS}, ${LAST_EVENT_SEQ('s.id')} AS last_seq
    FROM chatkeep.sessions s LEFT JOIN (SELECT d.* FROM chatkeep.search_sessions d WHERE d.owner = ${SEARCHER}) d ON d.session_id = s.id
    WHERE NOT ${EVERY_SESSION[everySession].seesAll} AND s.owner = ${SEARCHER} AND s.project_key = ANY($1) AND s.trashed_at IS NULL
    UNION ALL
    SELECT ${VIS_COLUMNS}, ${LAST_EVENT_SEQ('s.id')} AS last_seq
    FROM (SELECT DISTINCT sh.session_id FROM chatkeep.shares sh WHERE sh.grantee IN (current_user, 'public')) sh
      CROSS JOIN LATERAL (SELECT s.* FROM chatkeep.sessions s WHERE s.id = sh.session_id OFFSET 0) s
      LEFT JOIN LATERAL (SELECT d.* FROM chatkeep.search_sessions d WHERE d.session_id = s.id OFFSET 0) d ON true
    WHERE NOT ${EVERY_SESSION[everySession].seesAll} AND s.owner <> ${SEARCHER} AND s.project_key = ANY($1) AND s.trashed_at IS NULL
    UNION ALL
    ${EVERY_SESSION[everySession].branch}),
  `,
    columns: `CASE WHEN $2 = '' OR s.folded_title IS NULL THEN 0 ELSE ${hitsIn('s.folded_title')} END AS title_hits,
    s.d_title IS DISTINCT FROM s.title AS title_stale,
    (s.d_id IS NULL OR s.d_version IS DISTINCT FROM s.snapshot_version) AS stale,
    coalesce(s.last_seq > s.d_seq, false) AS pending,
    CASE WHEN s.d_title IS DISTINCT FROM s.title OR s.d_id IS NULL OR s.last_seq > s.d_seq
      OR s.d_version IS DISTINCT FROM s.snapshot_version THEN s.title END AS title`,
    from: 'vis s',
    where: `strpos(s.folded_title, $2) > 0 OR s.d_title IS DISTINCT FROM s.title OR s.d_id IS NULL
    OR s.d_version IS DISTINCT FROM s.snapshot_version OR s.last_seq > s.d_seq`,
  },
  flagged: { vis: (_, seer) => flaggedVis(SEERS[seer]), ...flaggedFinal(hitsIn) },
  tails: {
    vis: (_, seer) => tailsVis(SEERS[seer]),
    ...flaggedFinal(hitsIn, TAILS_PAST),
    messages: 'counted',
  },
});
