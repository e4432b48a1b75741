/**
 * A listing that reads only the rows its reader may see, over an index (docs/design.md §9). Row
 * security's policy on `sessions` is one OR (own rows, shared rows, chatkeep itself), which no
 * index serves: on a team's project a member's listing read every member's rows of the project
 * and the policy dropped all but theirs. The listing reads `VISIBLE_SESSIONS_SQL` instead, the
 * same rows as disjoint branches, each over an index: the reader's own rows, the rows shared with
 * them, and, for a role that sees everything, everyone else's. The policy still applies to every
 * row each branch reads: a branch can only narrow what the policy lets through, never widen it.
 */

/**
 * The role asking, in the database's collation. `current_user` is a `name`, whose collation is
 * "C": compared with it as it is, `owner` (in the default collation) is matched by no index. Under
 * one collation the three comparisons below (=, <, >) split every owner exactly once.
 */
const ME = `current_user::text COLLATE "default"`;

/** Whether the role asking sees every row (the schema's owner by its policy; a superuser or BYPASSRLS role by PostgreSQL's rule), as an expression. */
export const SEES_ALL_CALL = 'chatkeep.is_chatkeep() OR chatkeep.is_admin()';

/** SEES_ALL_CALL once per statement (an init plan): each place it is written in a query asks again. */
export const SEES_ALL = `(SELECT ${SEES_ALL_CALL})`;

/**
 * `chatkeep.sessions` as the role asking sees it, for a FROM clause (the listing's own conditions,
 * project and trash, are pushed into each branch by the planner). A role that sees everything
 * reads no shares; any other role reads nobody else's rows but those shared with it.
 */
export const VISIBLE_SESSIONS_SQL = visibleSessions();

/**
 * VISIBLE_SESSIONS_SQL's branches, each narrowed by `where` (SQL over the table's columns) and,
 * with `newest` (SQL for a number; NULL: all), cut to its newest that many. Each branch then
 * reads its rows in order and stops at the limit (the reader's own rows come off
 * `sessions_by_project_owner` in order, for one project and one owner); the branches together
 * hold every one of the newest rows, which the caller sorts and cuts again. `seesAll`: SQL for
 * SEES_ALL's answer, where the caller has it already (a PL/pgSQL variable).
 */
export function visibleSessions(where?: string, newest?: string, seesAll = SEES_ALL): string {
  const and = where === undefined ? '' : ` AND ${where}`;
  const cut = newest === undefined ? '' : ` ORDER BY updated_at DESC LIMIT ${newest}`;
  const branch = (sql: string): string => (newest === undefined ? `${sql}${and}` : `(${sql}${and}${cut})`);
  return `(
    ${branch(`SELECT * FROM chatkeep.sessions WHERE owner = ${ME}`)}
    UNION ALL ${branch(`SELECT * FROM chatkeep.sessions WHERE owner <> ${ME} AND NOT ${seesAll}
      AND id IN (SELECT sh.session_id FROM chatkeep.shares sh WHERE sh.grantee IN (current_user, 'public'))`)}
    UNION ALL ${branch(`SELECT * FROM chatkeep.sessions WHERE owner < ${ME} AND ${seesAll}`)}
    UNION ALL ${branch(`SELECT * FROM chatkeep.sessions WHERE owner > ${ME} AND ${seesAll}`)}
  )`;
}

/**
 * The index the branches read: a project's rows by owner, newest first. It serves whatever
 * `sessions_by_project` (project, time) served, by its first column, so that one goes.
 */
export const LISTING_BY_OWNER_MIGRATION = `
  CREATE INDEX sessions_by_project_owner ON chatkeep.sessions (project_key, owner, updated_at DESC) WHERE trashed_at IS NULL;
  DROP INDEX chatkeep.sessions_by_project;
`;
