/**
 * The store's own schema (`chatkeep` in the database), version by version: each migration is SQL
 * that PostgreSQL 14 runs, never changed once released (test/unit/store/migrations-frozen.test.ts).
 * schema-upgrade.ts applies them.
 */
import { ROW_SECURITY_MIGRATION } from './team/row-security.js';
import { BY_OPERATION_MIGRATION, LOCK_KEYS_MIGRATION, ONCE_PER_STATEMENT_MIGRATION } from './by-operation.js';
import { APPEND_FUNCTION_MIGRATION, EVENT_IDS_MIGRATION } from './event-log.js';
import { LOAD_FUNCTION_MIGRATION } from './load-sql.js';
import { OWNER_APPEND_MIGRATION } from './owner-append.js';
import { APPEND_POLICY_MIGRATION, READ_POLICY_MIGRATION } from './append-policy.js';
import { LISTING_BY_OWNER_MIGRATION } from './listing-index.js';
import { LISTING_ASKS_ONCE_MIGRATION, LISTING_FUNCTION_MIGRATION, LISTING_NEWEST_MIGRATION, LISTING_OF_MIGRATION } from './listing-sql.js';
import { SEARCH_NARROWING_MIGRATION } from './search-narrowing.js';
import { SEARCH_OWNER_MIGRATION } from './search-owner.js';
import {
  SEARCH_MATCH_BLOCKS_MIGRATION,
  SEARCH_MATCH_BY_KEY_MIGRATION,
  SEARCH_MATCH_ASKS_ONCE_MIGRATION, SEARCH_MATCH_SAMPLED_FROM_BLOCKS_MIGRATION,
  SEARCH_MATCH_BY_PROJECT_MIGRATION,
  SEARCH_MATCH_COUNTED_ONCE_MIGRATION,
  SEARCH_MATCH_FLAGGED_MIGRATION,
  SEARCH_MATCH_SEEN_ONCE_MIGRATION,
  SEARCH_MATCH_FUNCTION_MIGRATION,
  SEARCH_MATCH_TAILS_MIGRATION,
} from './search-match.js';
import { SEARCH_BEST_SHOWN_MIGRATION, SEARCH_RESULTS_FOUND_ONLY_MIGRATION, SEARCH_RESULTS_MIGRATION } from './search-results.js';
import { EVENTS_CASCADE_MIGRATION } from './events-cascade.js';

/**
 * `MIGRATIONS[n - 1]` brings the schema to version n. Event payloads are `json`, not `jsonb`:
 * jsonb refuses the character U+0000 (`unsupported Unicode escape sequence`), which a pasted
 * message may hold, and a message that cannot be stored would be a message lost.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE chatkeep.ids (
    id text COLLATE "C" PRIMARY KEY,
    issued_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE chatkeep.projects (
    key text PRIMARY KEY,
    path text NOT NULL,
    host text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE chatkeep.sessions (
    id text COLLATE "C" PRIMARY KEY REFERENCES chatkeep.ids (id),
    lock_key integer GENERATED ALWAYS AS IDENTITY UNIQUE,
    project_key text NOT NULL REFERENCES chatkeep.projects (key),
    project_path text NOT NULL,
    title text,
    status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed', 'interrupted')),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    message_count integer NOT NULL DEFAULT 0,
    input_tokens bigint NOT NULL DEFAULT 0,
    output_tokens bigint NOT NULL DEFAULT 0,
    by_model jsonb,
    branch text,
    problem jsonb,
    schema_version integer,
    snapshot text,
    snapshot_bytes integer,
    snapshot_at timestamptz,
    journal_seq bigint NOT NULL DEFAULT 0,
    lock_epoch bigint NOT NULL DEFAULT 0,
    trashed_at timestamptz
  );
  CREATE INDEX sessions_by_project ON chatkeep.sessions (project_key, updated_at DESC) WHERE trashed_at IS NULL;
  CREATE TABLE chatkeep.events (
    session_id text COLLATE "C" NOT NULL REFERENCES chatkeep.sessions (id) ON DELETE CASCADE,
    seq bigint NOT NULL,
    ts timestamptz NOT NULL,
    type text NOT NULL,
    payload json NOT NULL,
    PRIMARY KEY (session_id, seq)
  );
  CREATE TABLE chatkeep.holders (
    session_id text COLLATE "C" PRIMARY KEY REFERENCES chatkeep.sessions (id) ON DELETE CASCADE,
    pid integer NOT NULL,
    host text NOT NULL,
    started_at timestamptz NOT NULL,
    backend_pid integer NOT NULL,
    epoch bigint NOT NULL
  );
  CREATE TABLE chatkeep.history (
    n bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_key text NOT NULL,
    line text NOT NULL,
    at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX history_by_project ON chatkeep.history (project_key, n DESC);
  CREATE TABLE chatkeep.quarantine (
    n bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_id text NOT NULL,
    part text NOT NULL,
    reason text NOT NULL,
    at timestamptz NOT NULL,
    content text
  );
  `,
  // 2: the trash and full-text search. A fork's lineage gets columns (listings and
  // the trash show it without reading snapshots); `snapshot_version` counts snapshots, so that a
  // search can tell which sessions changed since it indexed them. The search index is explained
  // in search.ts: each message's folded text, and its 3-character sequences as a tsvector.
  `
  ALTER TABLE chatkeep.sessions ADD COLUMN parent_id text, ADD COLUMN fork_point integer,
    ADD COLUMN snapshot_version bigint NOT NULL DEFAULT 0;
  CREATE INDEX sessions_trashed ON chatkeep.sessions (trashed_at DESC) WHERE trashed_at IS NOT NULL;
  CREATE TABLE chatkeep.search_sessions (
    session_id text COLLATE "C" PRIMARY KEY REFERENCES chatkeep.sessions (id) ON DELETE CASCADE,
    version text NOT NULL
  );
  CREATE TABLE chatkeep.search_messages (
    session_id text COLLATE "C" NOT NULL REFERENCES chatkeep.search_sessions (session_id) ON DELETE CASCADE,
    n integer NOT NULL,
    role text NOT NULL,
    at float8 NOT NULL,
    archived boolean NOT NULL,
    content json NOT NULL,
    folded text NOT NULL,
    grams tsvector,
    PRIMARY KEY (session_id, n)
  );
  CREATE INDEX search_messages_grams ON chatkeep.search_messages USING gin (grams);
  CREATE INDEX search_messages_ungrammed ON chatkeep.search_messages (session_id) WHERE grams IS NULL;
  `,
  // fence and liveness by identity (docs/design.md §11, §12): a holder behind a transaction-pooling pooler keeps
  // its lock as a lease (`expires_at`, renewed by a heartbeat; NULL for a holder on a direct
  // connection, whose advisory lock is the lock), and every holder records its process's start
  // time, so that a dead holder on the same host is told from a live one by identity.
  `
  ALTER TABLE chatkeep.holders ADD COLUMN IF NOT EXISTS expires_at timestamptz, ADD COLUMN IF NOT EXISTS proc_start text;
  `,
  // Per-person rows on a shared server (docs/design.md §9): see row-security.ts.
  ROW_SECURITY_MIGRATION,
  // Titles and empty sessions (docs/design.md §3): how a title came about (automatic or chosen), and how many messages
  // /reset or /compact cleared into the session (a session holding none is not listed). NULL in
  // rows written before: a listing reads such a session when it needs to know.
  `
  ALTER TABLE chatkeep.sessions ADD COLUMN title_source text CHECK (title_source IN ('auto', 'user')),
    ADD COLUMN archived_messages integer;
  `,
  // Search rows written with each snapshot, in its transaction (docs/design.md §18; search-rows.ts):
  // `search_sessions` records what a session's rows were made from. What earlier builds indexed
  // (`version` = 'snapshot_version/last seq') stays valid; a session never indexed is indexed by
  // the first search that meets it. Where the server has `pg_trgm`, a trigram index serves the
  // search instead of the tsvector of sequences (search.ts); without it, nothing changes. Both
  // GIN indexes keep a short pending list (256 kB, not 4 MB): a search right after a bulk write
  // scans it whole, and without one every message would pay a full index insertion.
  // Snapshots move out of the sessions' rows (toasted past 128 bytes): a search or listing that
  // reads every session's columns reads a few hundred pages, not every snapshot under 2 kB.
  `
  ALTER TABLE chatkeep.search_sessions ADD COLUMN snapshot_version bigint, ADD COLUMN seq bigint NOT NULL DEFAULT 0,
    ADD COLUMN messages integer NOT NULL DEFAULT 0, ADD COLUMN archived integer NOT NULL DEFAULT 0,
    ADD COLUMN tail text, ADD COLUMN title text, ADD COLUMN folded_title text;
  UPDATE chatkeep.search_sessions d SET snapshot_version = split_part(d.version, '/', 1)::bigint,
    seq = split_part(d.version, '/', 2)::bigint,
    messages = (SELECT count(*) FROM chatkeep.search_messages m WHERE m.session_id = d.session_id),
    archived = (SELECT count(*) FROM chatkeep.search_messages m WHERE m.session_id = d.session_id AND m.archived);
  ALTER TABLE chatkeep.search_sessions DROP COLUMN version;
  ALTER INDEX chatkeep.search_messages_grams SET (gin_pending_list_limit = 256);
  ALTER TABLE chatkeep.sessions SET (toast_tuple_target = 128);
  DO $$
  DECLARE ops text;
  BEGIN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA chatkeep;
    EXCEPTION WHEN OTHERS THEN
      NULL; -- not installed on the server, or not ours to create: the core index serves
    END;
    SELECT format('%I.%I', n.nspname, c.opcname) INTO ops FROM pg_opclass c JOIN pg_namespace n ON n.oid = c.opcnamespace
      JOIN pg_am a ON a.oid = c.opcmethod WHERE c.opcname = 'gin_trgm_ops' AND a.amname = 'gin' LIMIT 1;
    IF ops IS NOT NULL THEN
      EXECUTE format('CREATE INDEX search_messages_trgm ON chatkeep.search_messages USING gin (folded %s) WITH (gin_pending_list_limit = 256)', ops);
      DROP INDEX chatkeep.search_messages_ungrammed;
    END IF;
  END $$;
  `,
  // Row security by operation: a grantee appends and never rewrites; search rows are the owner's
  // (by-operation.ts). Then lock keys that are random and readable only by a session's writers.
  BY_OPERATION_MIGRATION,
  LOCK_KEYS_MIGRATION,
  // The policy that lets chatkeep itself through, checked once per statement (by-operation.ts).
  ONCE_PER_STATEMENT_MIGRATION,
  // Each event's own ID, by which a write of unknown outcome is read back (event-log.ts).
  EVENT_IDS_MIGRATION,
  // A project's sessions by owner, which a member's listing reads instead of every member's (listing-index.ts).
  LISTING_BY_OWNER_MIGRATION,
  // A member's search narrowed by a policy, so that the trigram index serves it (search-narrowing.ts).
  SEARCH_NARROWING_MIGRATION,
  // The listing as a function whose plan each connection keeps, planned once, not per call (listing-sql.ts).
  LISTING_FUNCTION_MIGRATION,
  // The append as a server function, whose plan a pooler's server connection keeps (event-log.ts).
  APPEND_FUNCTION_MIGRATION,
  // The listing's limit: a member's newest 50 read as 50 rows (listing-sql.ts).
  LISTING_NEWEST_MIGRATION,
  // Search rows carry their session's owner, so that a member's own rows pass row security without a lookup each (search-owner.ts).
  SEARCH_OWNER_MIGRATION,
  // Each event says whether its session's owner appended it, and the listing's trigger skips those (owner-append.ts).
  OWNER_APPEND_MIGRATION,
  // Search's match query as a function whose plan each connection keeps, planned once, not per call (search-match.ts).
  SEARCH_MATCH_FUNCTION_MIGRATION,
  // A resume's statement as a function whose plan each connection keeps, planned once, not per resume (load-sql.ts).
  LOAD_FUNCTION_MIGRATION,
  // The listing asks once per call whether its reader sees every row (listing-sql.ts).
  LISTING_ASKS_ONCE_MIGRATION,
  // Search's listing rows as a function whose plan each connection keeps, planned once, not per search (listing-sql.ts).
  LISTING_OF_MIGRATION,
  // Search's match for a role that sees every session reads each one's facts and last event by key (search-match.ts).
  SEARCH_MATCH_BY_KEY_MIGRATION,
  // Search's match counts each message's hits in one pass, not found by one and counted by another (search-match.ts).
  SEARCH_MATCH_COUNTED_ONCE_MIGRATION,
  // The append's row security without the grantee's subqueries in the owner's plan (append-policy.ts).
  APPEND_POLICY_MIGRATION,
  // Search's results, listing rows and snippets' messages, in one statement by a function whose plan each connection keeps (search-results.ts).
  SEARCH_RESULTS_MIGRATION,
  // The sessions policy for reading with its shares part correlated: a single row's read probes it by key, not hashed (append-policy.ts).
  READ_POLICY_MIGRATION,
  // A session's messages kept in blocks of 32, from which search's match counts a common word (search-blocks.ts).
  SEARCH_MATCH_BLOCKS_MIGRATION,
  // Search's match for a role that sees every session reads its projects' sessions by the index on the project (search-match.ts).
  SEARCH_MATCH_BY_PROJECT_MIGRATION,
  // A session's events deleted with it by a trigger, not a foreign key checked on every append (events-cascade.ts).
  EVENTS_CASCADE_MIGRATION,
  // Search's match asks once per call whether its role sees every session, not in each branch (search-every-session.ts).
  SEARCH_MATCH_ASKS_ONCE_MIGRATION,
  // Search's match samples the searcher's sessions from their blocks, which no trigram index narrows (search-path.ts).
  SEARCH_MATCH_SAMPLED_FROM_BLOCKS_MIGRATION,
  // Search's match counts a common word's hits alone from the blocks; the results find the best message of those shown (search-hits.ts).
  SEARCH_BEST_SHOWN_MIGRATION,
  // Whether a session's search rows cover it, on its own row, so that search's match reads no facts of the sessions they cover (search-coverage.ts).
  SEARCH_MATCH_FLAGGED_MIGRATION,
  // Search's match asks once per call, in its body, whether its role sees every session, not again in its query (search-every-session.ts).
  SEARCH_MATCH_SEEN_ONCE_MIGRATION,
  // Search's results find no best message's plan where none is to be found (search-results.ts).
  SEARCH_RESULTS_FOUND_ONLY_MIGRATION,
  // Search's match reads the events table once where it holds few rows, not each session's last event by key (search-pending.ts).
  SEARCH_MATCH_TAILS_MIGRATION,
];

/** The schema version this build writes. */
export const STORE_SCHEMA_VERSION = MIGRATIONS.length;
