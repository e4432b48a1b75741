/**
 * A team's database at the schema before search's match asked once per call whether its role sees
 * every session, with 10,000 sessions of two members and their search rows, upgraded by this build:
 * every row as it was, `chatkeep.search_match` this build's, and each member's and the admin's match
 * rows the same as before (stale, title-stale, pending and trashed sessions among them, a shared one
 * for a member). From before SEARCH_MATCH_ASKS_ONCE_MIGRATION, the match reads the roles' catalog
 * once per call where it read it in each branch of `vis`; from before SEARCH_MATCH_SEEN_ONCE_MIGRATION,
 * once where its body and its query each read it. (A build that knows only the schema before refuses
 * the result as any newer schema: postgres-only.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { SEARCH_MATCH_ASKS_ONCE_MIGRATION, SEARCH_MATCH_SEEN_ONCE_MIGRATION } from '../../src/store/postgres/search-match.js';
import { adminCatalogScans, upgradedFrom } from '../helpers/search-upgrade.js';

const SESSIONS = 10_000;

describe('PostgreSQL schema upgrade to the match that asks once whether its role sees every session', () => {
  it("keeps every row and every role's search rows, and asks once a call whether its role sees every session", async () => {
    const scans = await upgradedFrom(SEARCH_MATCH_ASKS_ONCE_MIGRATION, 'ao', SESSIONS, adminCatalogScans);
    // The match asks once (and its body once more), where it asked in `asked` and in each member branch too.
    expect(scans.after).toBeLessThanOrEqual(scans.before / 2);
  });

  it("keeps every row and every role's search rows, and asks the roles' catalog in its body only", async () => {
    const scans = await upgradedFrom(SEARCH_MATCH_SEEN_ONCE_MIGRATION, 'so', SESSIONS, adminCatalogScans);
    // Asked in the body, whose answer the query's `seer` reads, where the query asked again.
    expect(scans).toEqual({ before: 2, after: 1 });
  });
});
