/**
 * The roles of a team's database (`chatkeep db setup`, docs/design.md §9). The schema and its
 * tables belong to a role nobody logs in as, so that no member can switch row-level security
 * off (a table's owner may); members get their privileges through the team role.
 */

/** Owns the schema, its tables and functions (NOLOGIN); migrations run as it. */
export const OWNER_ROLE = 'chatkeep_owner';

/** The group each person's login role joins (NOLOGIN): reads and writes rows, under row-level security. */
export const TEAM_ROLE = 'chatkeep_team';
