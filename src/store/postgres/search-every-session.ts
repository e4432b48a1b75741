/**
 * The sessions a search looks at (`vis`, search-match.ts) for a role that sees every session, by
 * how each release read them, and the columns every branch of `vis` gives.
 */
import { SEES_ALL, SEES_ALL_CALL } from './listing-index.js';
import { LAST_EVENT_SEQ } from './event-log.js';

/** What the match needs of a session (`s`) and of its search rows' facts (`d`). */
export const VIS_COLUMNS = `s.id, s.project_key, s.project_path, s.updated_at, s.title, s.snapshot_version, d.session_id AS d_id,
      d.snapshot_version AS d_version, d.seq AS d_seq, d.messages AS d_messages, d.title AS d_title, d.folded_title`;

/** What `vis` takes of a session: each column named in the lateral read too, whose `OFFSET 0` would otherwise form every column of each row. */
const ASKED_COLUMNS = 's.id, s.project_key, s.project_path, s.updated_at, s.title, s.snapshot_version';

/** The projects' sessions asked of a role that sees every session, as joinedWhole and byKey read them. */
const ASKED_WHERE = `
    WHERE ${SEES_ALL} AND s.project_key = ANY($1) AND s.trashed_at IS NULL`;

/**
 * `vis`'s branch for a role that sees every session (a single user's database, the admin), by
 * how each release wrote it (`with`: CTEs it needs before `vis`). `joinedWhole` (schema 18) joined
 * every search fact of the server, and every event of the server grouped by session, to the
 * sessions of the projects asked for: the events and facts of every other project read for a
 * search of one. `byKey` (schema 22) reads each listed session's facts and last event by its key,
 * as the member's branches do: three buffers a session for its facts, two for its last event.
 *
 * Both filtered the projects' sessions by `project_key` on the row, and the generic plan read them
 * by a sequential scan whenever the statistics of its first call made one project most of the
 * table: `sessions` moves any column past 24 bytes out of the row (`toast_tuple_target = 128`,
 * migrations.ts), a project key such as `vm:/tmp/…` or a long remote among them, so the scan
 * fetched each session's key from TOAST to compare it (three buffers a session: 6,106 buffers
 * for the 2,000 sessions of one project of 4,000). `byProject` reads them by the index on
 * `(project_key, owner, updated_at)` that holds the key, a lookup per project (lateral, and
 * `enable_seqscan` off for such a role so that no estimate turns it into a scan: search-match.ts,
 * BY_PROJECT_SCANS),
 * into `asked`; their search facts then by one hashed pass over `search_sessions` where the asked
 * sessions are at least a quarter of the server's facts (`wide`; `pg_class.reltuples`), by key
 * otherwise (a project among many costs its own sessions, not the server's); each last event by
 * key (a hashed pass over `events` would have row security look up each event's session for a
 * role that is not a superuser). `byProjectAskedOnce` (schema 30) is `byProject` asking once per
 * statement whether the role sees every session (SEER, below). A released migration never
 * changes (docs/postgres.md), so schema 18's, 22's and 28's texts are still built from the others.
 */
export type EverySession = 'joinedWhole' | 'byKey' | 'byProject' | 'byProjectAskedOnce';

/** `with` and `branch` as above; `seesAll`, SQL for whether the role asking sees every session, as the member's branches ask it. */
export interface EverySessionSql {
  with: string;
  branch: string;
  seesAll: string;
}

const JOINED_WHOLE = {
  with: '',
  branch: `SELECT ${VIS_COLUMNS}, ev.last_seq
    FROM chatkeep.sessions s LEFT JOIN chatkeep.search_sessions d ON d.session_id = s.id
      LEFT JOIN (SELECT session_id, max(seq) AS last_seq FROM chatkeep.events GROUP BY session_id) ev ON ev.session_id = s.id${ASKED_WHERE}`,
};

const BY_KEY = {
  with: '',
  branch: `SELECT ${VIS_COLUMNS}, ${LAST_EVENT_SEQ('s.id')} AS last_seq
    FROM chatkeep.sessions s LEFT JOIN LATERAL (SELECT d.* FROM chatkeep.search_sessions d WHERE d.session_id = s.id OFFSET 0) d ON true${ASKED_WHERE}`,
};

/** `byProject`, asking whether the role sees every session as `seesAll` says. */
const byProject = (seesAll: string): { with: string; branch: string } => ({
  with: `asked AS MATERIALIZED (
    SELECT ${ASKED_COLUMNS}
    FROM (SELECT DISTINCT unnest($1::text[]) AS key) k
      CROSS JOIN LATERAL (SELECT ${ASKED_COLUMNS} FROM chatkeep.sessions s WHERE s.project_key = k.key AND s.trashed_at IS NULL OFFSET 0) s
    WHERE ${seesAll}),
  wide AS MATERIALIZED (
    SELECT count(*) > 0 AND count(*) * 4 >= (SELECT c.reltuples FROM pg_class c WHERE c.oid = 'chatkeep.search_sessions'::regclass) AS yes FROM asked),
  `,
  branch: `SELECT ${VIS_COLUMNS}, ${LAST_EVENT_SEQ('s.id')} AS last_seq
    FROM asked s LEFT JOIN chatkeep.search_sessions d ON d.session_id = s.id
    WHERE (SELECT yes FROM wide)
    UNION ALL
    SELECT ${VIS_COLUMNS}, ${LAST_EVENT_SEQ('s.id')} AS last_seq
    FROM asked s LEFT JOIN LATERAL (SELECT d.* FROM chatkeep.search_sessions d WHERE d.session_id = s.id OFFSET 0) d ON true
    WHERE NOT (SELECT yes FROM wide)`,
});

/**
 * Whether the role asking sees every session, asked once per statement (`seer`, schema 30 on):
 * SEES_ALL written in a branch is an init plan of its own, a query of `pg_namespace` and
 * `pg_roles` each (~0.1 ms of the server's CPU: three a match, `asked`'s and the two branches
 * of a role that sees only its own and shared sessions); each branch now reads `seer`'s one row.
 */
export const SEER = {
  with: `seer AS MATERIALIZED (SELECT ${SEES_ALL_CALL} AS yes),
  `,
  seesAll: '(SELECT yes FROM seer)',
};

/**
 * The PL/pgSQL variable of `chatkeep.search_match` that holds SEES_ALL_CALL's answer, asked once in
 * its body (search-match.ts), which needs it before the query (for its scans) and asked again in `seer`.
 */
export const SEEN = 'seen';

/**
 * Where `seer` gets its answer, by release: `asked` (schema 30 on) calls SEES_ALL_CALL in the query,
 * a second asking beside the function body's (two SQL functions of a catalog query each, 0.06–0.19 ms
 * of a member's backend CPU a match); `given` (schema 34) reads the body's answer (SEEN). `given` is valid
 * only inside the function; a statement of its own asks (search-match.ts, matchStatement).
 */
export type Seer = 'asked' | 'given';

export const SEERS: Record<Seer, { with: string; seesAll: string }> = {
  asked: SEER,
  given: { with: `seer AS MATERIALIZED (SELECT ${SEEN} AS yes),
  `, seesAll: SEER.seesAll },
};

const BY_PROJECT_ASKED_ONCE = byProject(SEER.seesAll);

export const EVERY_SESSION: Record<EverySession, EverySessionSql> = {
  joinedWhole: { ...JOINED_WHOLE, seesAll: SEES_ALL },
  byKey: { ...BY_KEY, seesAll: SEES_ALL },
  byProject: { ...byProject(SEES_ALL), seesAll: SEES_ALL },
  byProjectAskedOnce: { with: `${SEER.with}${BY_PROJECT_ASKED_ONCE.with}`, branch: BY_PROJECT_ASKED_ONCE.branch, seesAll: SEER.seesAll },
};
