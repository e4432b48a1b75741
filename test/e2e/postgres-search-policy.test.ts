/**
 * A member's search under row security (docs/design.md §18): the restrictive policy that lets
 * the trigram index serve it (src/store/postgres/search-narrowing.ts) narrows and never widens.
 * The member's search finds only what the member may read; plain SQL on the member's own login,
 * with the search's setting set to anything, reads no row of another's; and the search's own
 * query, run as the member, is served by the trigram index (before the policy, `LIKE` waited
 * for the row-security check and scanned every message of the database).
 */
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createDatabase, runSql } from '../helpers/postgres.js';
import { as, chat, ok, person } from '../helpers/team.js';
import { matchStatement } from '../../src/store/postgres/search-match.js';
import { SEARCH_LIKE_SETTING } from '../../src/store/postgres/search-narrowing.js';

const WORD = 'quokkaplan';

describe("a member's search through row security", () => {
  it('finds only what the member may read, reads no other row whatever the setting, and uses the trigram index', async () => {
    const db = await createDatabase(inject('postgresAdminUrl'));
    const [ann, bob] = await Promise.all(['ann', 'bob'].map((n) => person(db, n)));
    // Migrated by the server's admin first (as the scale bench's server is): it may create pg_trgm.
    await ok(['sessions', 'list'], as(db));
    await ok(['db', 'setup', '--member', ann!.role, '--member', bob!.role], as(db));
    bob!.options.cwd = ann!.options.cwd;
    const annId = await chat(ann!, [`ann's ${WORD} for the week`]);
    const bobId = await chat(bob!, [`bob's secret ${WORD} notes`]);
    expect(await runSql(db, 'SELECT 1 FROM pg_indexes WHERE indexname = $1', ['search_messages_trgm'])).toHaveLength(1);

    for (const [member, id] of [[ann!, annId], [bob!, bobId]] as const) {
      const found = JSON.parse(await ok(['sessions', 'search', WORD, '--all', '--json'], member.options)) as { results: { id: string }[] };
      expect(found.results.map((r) => r.id)).toEqual([id]);
    }

    const client = new pg.Client({ connectionString: ann!.url });
    await client.connect();
    try {
      // Set to the word, to everything, to nothing: only ann's own rows, never bob's.
      for (const pattern of [`%${WORD}%`, '%', '', '%secret%']) {
        await client.query('SELECT set_config($1, $2, false)', [SEARCH_LIKE_SETTING, pattern]);
        const rows = (await client.query<{ session_id: string }>('SELECT DISTINCT session_id FROM chatkeep.search_messages')).rows;
        expect(rows.every((r) => r.session_id === annId)).toBe(true);
        expect(rows.some((r) => r.session_id === bobId)).toBe(false);
      }
      // The search's own query, as it runs it: the index serves it even though ann's policies apply.
      await client.query('BEGIN; SET LOCAL enable_seqscan = off');
      const pattern = `%${WORD}%`;
      await client.query('SELECT set_config($1, $2, true)', [SEARCH_LIKE_SETTING, pattern]);
      const key = (await client.query<{ key: string }>('SELECT project_key AS key FROM chatkeep.sessions WHERE id = $1', [annId])).rows[0]!.key;
      const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${matchStatement('trgm')}`, [[key], WORD, pattern])).rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Bitmap Index Scan on search_messages_trgm/);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });
});
