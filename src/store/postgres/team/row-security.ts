/**
 * Per-person rows on a shared server (docs/design.md §9). Every row chatkeep keeps
 * belongs to the database role that wrote it, and row-level security, forced for the tables'
 * owner too, lets a role see and change only its own rows and those shared with it:
 *
 * - `sessions`, `ids`, `projects`, `history`, `quarantine` carry an `owner` column
 *   (default `current_user`); rows from before this migration belong to the role that owns
 *   the table, which is the one person of a single-user database.
 * - `events`, `holders` and the search rows follow their session: readable while the session
 *   is, written only by whoever may write it.
 * - `shares` records explicit sharing: a session, a grantee (a role, or `public` for every
 *   member of the team) and whether it may write. Only the session's owner shares.
 *   A share counts only when its `owner` is the session's, so a forged share does nothing.
 * - A session's owner never changes (a trigger), so a writable share cannot take a session.
 *
 * A superuser, or a role with BYPASSRLS, sees everything: that is PostgreSQL's rule, and
 * `chatkeep db status` says so.
 */

/** The tables whose rows carry their owner's role. */
export const OWNED_TABLES = ['ids', 'projects', 'sessions', 'history', 'quarantine'] as const;

/** The tables whose rows follow their session's visibility (column `session_id`). */
export const FOLLOWING_TABLES = ['events', 'holders', 'search_sessions', 'search_messages'] as const;

/** Every table under row-level security (all but `migrations`, which holds no one's data). */
export const SECURED_TABLES = [...OWNED_TABLES, ...FOLLOWING_TABLES, 'shares'] as const;

/** The grantee that stands for the whole team (no role can be named `public`). */
export const TEAM = 'public';

/** A session's owner, the role asking, and whether that role may write to it (one row; none when it cannot see it). */
export const OWNER_SQL = `SELECT s.owner, current_user AS role, s.owner = current_user
    OR EXISTS (SELECT 1 FROM chatkeep.shares sh WHERE sh.session_id = s.id AND sh.owner = s.owner AND sh.grantee IN (current_user, '${TEAM}') AND sh.writable)
    OR (SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user) AS writable,
    s.owner = current_user OR (SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user) AS mine
  FROM chatkeep.sessions s WHERE s.id = $1`;

const ownedColumns = OWNED_TABLES.map(
  (t) => `
  ALTER TABLE chatkeep.${t} ADD COLUMN owner text;
  UPDATE chatkeep.${t} SET owner = (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = 'chatkeep.${t}'::regclass);
  ALTER TABLE chatkeep.${t} ALTER COLUMN owner SET DEFAULT current_user, ALTER COLUMN owner SET NOT NULL;`,
).join('');

const forced = SECURED_TABLES.map((t) => `
  ALTER TABLE chatkeep.${t} ENABLE ROW LEVEL SECURITY;
  ALTER TABLE chatkeep.${t} FORCE ROW LEVEL SECURITY;`).join('');

/** Who may read a session's rows: whoever sees the session (row security on `sessions` decides). */
const readable = (t: string): string => `EXISTS (SELECT 1 FROM chatkeep.sessions s WHERE s.id = ${t}.session_id)`;

/** Shares naming this role or the team (`writable`: those that let it write), as (session, owner) pairs. */
const sharedWithMe = (writable: boolean): string =>
  `(SELECT sh.session_id, sh.owner FROM chatkeep.shares sh WHERE sh.grantee IN (current_user, '${TEAM}')${writable ? ' AND sh.writable' : ''})`;

/** Who may write a session's rows: its owner, and whoever it is shared with for writing. */
const writable = (t: string): string =>
  `EXISTS (SELECT 1 FROM chatkeep.sessions s WHERE s.id = ${t}.session_id AND (s.owner = current_user OR (s.id, s.owner) IN ${sharedWithMe(true)}))`;

// Policies are subqueries, not function calls, so that the planner joins them (a search over
// 200,000 messages checks them with one hash join, not a function call per row).
const following = FOLLOWING_TABLES.map((t) => {
  const write = t.startsWith('search') ? readable(t) : writable(t);
  return `
  CREATE POLICY ${t}_read ON chatkeep.${t} FOR SELECT USING (${readable(t)});
  CREATE POLICY ${t}_write ON chatkeep.${t} FOR ALL USING (${write}) WITH CHECK (${write});`;
}).join('');

/**
 * The migration. Search rows are written by whoever searches (the index catches up at search
 * time), so a role that may read a session may write its search rows; nothing else.
 */
export const ROW_SECURITY_MIGRATION = `${ownedColumns}
  -- Two people working on the same repository each have their own row of it.
  ALTER TABLE chatkeep.sessions DROP CONSTRAINT sessions_project_key_fkey;
  ALTER TABLE chatkeep.projects DROP CONSTRAINT projects_pkey;
  ALTER TABLE chatkeep.projects ADD PRIMARY KEY (owner, key);
  ALTER TABLE chatkeep.sessions ADD FOREIGN KEY (owner, project_key) REFERENCES chatkeep.projects (owner, key);
  CREATE INDEX sessions_by_owner ON chatkeep.sessions (owner);
  CREATE TABLE chatkeep.shares (
    session_id text COLLATE "C" NOT NULL REFERENCES chatkeep.sessions (id) ON DELETE CASCADE,
    grantee text NOT NULL,
    writable boolean NOT NULL DEFAULT false,
    owner text NOT NULL DEFAULT current_user,
    shared_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (session_id, grantee)
  );
  -- A function, opaque to the rewriter: a policy on shares that read sessions directly would
  -- recurse (sessions' own policy reads shares).
  CREATE FUNCTION chatkeep.owns(sid text) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM chatkeep.sessions s WHERE s.id = sid AND s.owner = current_user)
  $$;
  CREATE FUNCTION chatkeep.keep_owner() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.owner IS DISTINCT FROM OLD.owner THEN
        RAISE EXCEPTION 'permission denied: a chatkeep row''s owner never changes' USING ERRCODE = '42501';
      END IF;
      RETURN NEW;
    END
  $$;
  CREATE TRIGGER sessions_keep_owner BEFORE UPDATE OF owner ON chatkeep.sessions FOR EACH ROW EXECUTE FUNCTION chatkeep.keep_owner();
  CREATE TRIGGER shares_keep_owner BEFORE UPDATE OF owner ON chatkeep.shares FOR EACH ROW EXECUTE FUNCTION chatkeep.keep_owner();
  ${forced}
  CREATE POLICY sessions_read ON chatkeep.sessions FOR SELECT USING (owner = current_user OR (id, owner) IN ${sharedWithMe(false)});
  CREATE POLICY sessions_insert ON chatkeep.sessions FOR INSERT WITH CHECK (owner = current_user);
  CREATE POLICY sessions_update ON chatkeep.sessions FOR UPDATE USING (owner = current_user OR (id, owner) IN ${sharedWithMe(true)});
  CREATE POLICY sessions_delete ON chatkeep.sessions FOR DELETE USING (owner = current_user);
  CREATE POLICY ids_own ON chatkeep.ids FOR ALL USING (owner = current_user) WITH CHECK (owner = current_user);
  CREATE POLICY history_own ON chatkeep.history FOR ALL USING (owner = current_user) WITH CHECK (owner = current_user);
  CREATE POLICY projects_own ON chatkeep.projects FOR ALL USING (owner = current_user) WITH CHECK (owner = current_user);
  -- The project of a session shared with this role (its path is in the session's row anyway).
  CREATE POLICY projects_shared ON chatkeep.projects FOR SELECT
    USING (EXISTS (SELECT 1 FROM chatkeep.sessions s WHERE s.owner = projects.owner AND s.project_key = projects.key));
  CREATE POLICY quarantine_own ON chatkeep.quarantine FOR ALL USING (owner = current_user) WITH CHECK (owner = current_user);
  CREATE POLICY quarantine_read ON chatkeep.quarantine FOR SELECT USING (${readable('quarantine')});
  CREATE POLICY shares_own ON chatkeep.shares FOR ALL USING (owner = current_user)
    WITH CHECK (owner = current_user AND chatkeep.owns(session_id));
  CREATE POLICY shares_mine ON chatkeep.shares FOR SELECT USING (grantee IN (current_user, '${TEAM}'));
  ${following}
`;
