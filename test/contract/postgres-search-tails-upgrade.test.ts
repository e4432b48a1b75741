/**
 * A team's database at the schema before search's match read the events table once (schema 35),
 * with 10,000 sessions of two members and their search rows, two of them with events past their
 * rows, upgraded by this build: every row as it was, `chatkeep.search_match` this build's, the
 * admin's match rows the same as before (stale, title-stale, pending and trashed sessions among
 * them), each member's the admin's rows she may read (search-upgrade.ts, upgradedFrom). Before, the
 * admin's match looked up each session's last event by key, 10,000 lookups; after, it reads the
 * table once (two rows, fewer than the sessions searched) and looks up the two sessions it names.
 * (A build that knows only the schema before refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { SEARCH_MATCH_TAILS_MIGRATION } from '../../src/store/postgres/search-match.js';
import { adminScans, upgradedFrom } from '../helpers/search-upgrade.js';

const SESSIONS = 10_000;

describe('PostgreSQL schema upgrade to the match that reads the events table once', () => {
  it("keeps every row and every role's search rows, and reads the events once where it read them once a session", async () => {
    const scans = await upgradedFrom(SEARCH_MATCH_TAILS_MIGRATION, 'tl', SESSIONS, (url) => adminScans(url, 'events'));
    // Each of the 9,998 sessions searched (two are trashed) looked up by key before.
    expect(scans.before).toBeGreaterThanOrEqual(SESSIONS - 2);
    // The table read once, and the two sessions it names (tl-11, tl-12) looked up.
    expect(scans.after).toBe(3);
  });
});
