/**
 * How a member's search reaches the trigram index through row security (docs/design.md §18).
 *
 * Under row-level security PostgreSQL evaluates a query's own conditions only after the policies'
 * (a condition could otherwise leak rows through an error), unless its operator is LEAKPROOF; and a
 * condition that waits for the policies cannot drive an index scan. `LIKE` is not leakproof (only
 * a superuser may mark a function so), so a member's `folded LIKE '%word%'` was checked on every
 * message of the database, each after the policy's session lookup: seconds at 20,000 sessions.
 *
 * A policy's own conditions have no such wait. This restrictive policy narrows what a search reads
 * to the messages holding the pattern the search sets for its transaction (`chatkeep.search_like`,
 * by `set_config(…, true)`), and so the trigram index serves it; unset, the pattern is `%`, which
 * every message matches. Restrictive: it only ever takes rows away from what the other policies
 * let through, whatever a member sets, so it cannot show anyone a row they could not read before.
 */

/** The setting a search sets, local to its transaction, to the `LIKE` pattern it looks for. */
export const SEARCH_LIKE_SETTING = 'chatkeep.search_like';

export const SEARCH_NARROWING_MIGRATION = `
  CREATE POLICY search_messages_narrowed ON chatkeep.search_messages AS RESTRICTIVE FOR SELECT
    USING (folded LIKE coalesce(nullif(current_setting('${SEARCH_LIKE_SETTING}', true), ''), '%'));
`;
