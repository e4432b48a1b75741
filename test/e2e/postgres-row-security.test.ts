/**
 * Row security by operation on a team's database: a writable grantee only appends events after
 * the last, and nobody but a session's owner changes or removes its events, snapshot, listing or
 * search rows. Proven with plain SQL on each member's own login (the writable grantee, a
 * read-only grantee, a member it is not shared with) against every table, then read back as the
 * owner through chatkeep.
 */
import { describe, expect, inject, it } from 'vitest';
import { createDatabase, runSql } from '../helpers/postgres.js';
import { FORGED, attempt, fingerprint, forgedRows, forgeries } from '../helpers/forgeries.js';
import { as, chat, ok, person } from '../helpers/team.js';

const contents = (json: string): string[] => (JSON.parse(json) as { messages: { content: string }[] }).messages.map((m) => m.content);

describe('row security by operation', () => {
  it('no member but the owner changes, removes or forges a row of a session, by plain SQL against every table; a writable grantee appends', async () => {
    const db = await createDatabase(inject('postgresAdminUrl'));
    const [ann, bob, cat, dan] = await Promise.all(['ann', 'bob', 'cat', 'dan'].map((n) => person(db, n)));
    await ok(['db', 'setup', ...[ann, bob, cat, dan].flatMap((p) => ['--member', p!.role])], as(db));
    bob!.options.cwd = cat!.options.cwd = dan!.options.cwd = ann!.options.cwd;
    const id = await chat(ann!, ['the plan']);
    await ok(['sessions', 'share', id, '--with', bob!.role, '--write'], ann!.options);
    await ok(['sessions', 'share', id, '--with', cat!.role], ann!.options);
    // bob adds through chatkeep: his events are appended and kept, the snapshot stays ann's.
    await chat(bob!, ['bob adds a step'], ['--session-id', id]);
    const before = contents(await ok(['sessions', 'show', id, '--json'], ann!.options));
    expect(before.filter((c) => c === 'the plan' || c === 'bob adds a step')).toEqual(['the plan', 'bob adds a step']);
    const listed = JSON.parse(await ok(['sessions', 'list', '--json'], ann!.options)) as { id: string; messageCount: number }[];
    expect(listed.find((r) => r.id === id)?.messageCount).toBe(before.length);
    expect(await runSql(db, "SELECT count(*)::int AS n FROM chatkeep.events WHERE session_id = $1 AND type = 'message'", [id])).toEqual([{ n: 2 }]);

    const print = await fingerprint(db, ann!.role);
    const took: string[] = [];
    for (const member of [bob!, cat!, dan!]) {
      for (const f of forgeries(id, ann!.role)) {
        const r = await attempt(member.url, f.sql, f.params);
        if (r.rows > 0) took.push(`${member.role}: ${f.sql}`);
      }
    }
    expect(took).toEqual([]);
    expect(await fingerprint(db, ann!.role)).toEqual(print);
    expect(await forgedRows(db, ann!.role)).toBe(0);

    // A read-only grantee or a stranger cannot even learn the session's lock key; the writer can.
    for (const [member, n] of [[bob!, 1], [cat!, 0], [dan!, 0]] as const) {
      expect(await runSql(member.url, 'SELECT count(*)::int AS n FROM chatkeep.lock_keys WHERE session_id = $1', [id])).toEqual([{ n }]);
    }
    // bob may append after the last event, and only there.
    const [{ last }] = (await runSql<{ last: string }>(db, 'SELECT max(seq)::text AS last FROM chatkeep.events WHERE session_id = $1', [id])) as [{ last: string }];
    const appended = await attempt(bob!.url, "INSERT INTO chatkeep.events (session_id, seq, ts, type, payload) VALUES ($1, $2, now(), 'system', '{}')", [id, Number(last)]);
    expect(appended.error).toMatch(/row-level security/);

    // Unshared, nothing of it is left behind either: ann's search finds only her own words.
    await ok(['sessions', 'unshare', id], ann!.options);
    const found = JSON.parse(await ok(['sessions', 'search', 'evil.example', '--all', '--json'], ann!.options)) as { results: unknown[] };
    expect(found.results).toEqual([]);
    expect(contents(await ok(['sessions', 'show', id, '--json'], ann!.options))).toEqual(before);
    expect(contents(await ok(['sessions', 'show', id, '--json'], ann!.options)).join('\n')).not.toContain(FORGED);
  });

  it("a member's listing asks once per statement, not once per row, whether it is chatkeep itself", async () => {
    const db = await createDatabase(inject('postgresAdminUrl'));
    const [ann, bob] = await Promise.all(['ann', 'bob'].map((n) => person(db, n)));
    await ok(['db', 'setup', '--member', ann!.role, '--member', bob!.role], as(db));
    const id = await chat(ann!, ['mine']);
    // 60 of bob's sessions in ann's project: rows her policies refuse, one by one.
    const [{ key }] = (await runSql<{ key: string }>(db, 'SELECT project_key AS key FROM chatkeep.sessions WHERE id = $1', [id])) as [{ key: string }];
    await runSql(db, "INSERT INTO chatkeep.projects (key, path, host, owner) VALUES ($1, '/bob', 'bob', $2)", [key, bob!.role]);
    await runSql(db, "INSERT INTO chatkeep.ids (id, owner) SELECT 'bob-' || n, $1 FROM generate_series(1, 60) n", [bob!.role]);
    await runSql(
      db,
      `INSERT INTO chatkeep.sessions (id, owner, project_key, project_path, title, created_at, updated_at, status, message_count)
       SELECT 'bob-' || n, $1, $2, '/bob', 'bob ' || n, now(), now(), 'closed', 1 FROM generate_series(1, 60) n`,
      [bob!.role, key],
    );
    const database = new URL(db).pathname.slice(1);
    await runSql(db, `ALTER DATABASE ${database} SET track_functions = 'all'`);
    await runSql(db, 'SELECT pg_stat_reset()');
    const listed = JSON.parse(await ok(['sessions', 'list', '--json'], ann!.options)) as { id: string }[];
    expect(listed.map((r) => r.id)).toEqual([id]);
    // The listing's connections are closed (the process is gone): their counts reach the statistics.
    const calls = async (): Promise<number> =>
      (await runSql<{ n: number }>(db, "SELECT coalesce(sum(calls), 0)::int AS n FROM pg_stat_user_functions WHERE funcname = 'is_chatkeep'"))[0]!.n;
    for (let i = 0; i < 100 && (await calls()) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    const n = await calls();
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(30);
  });

  it('db status for a role that may not use the schema says so, and what the admin should run', async () => {
    const db = await createDatabase(inject('postgresAdminUrl'));
    await ok(['sessions', 'list'], as(db));
    const second = await person(db, 'second');
    const text = await ok(['db', 'status'], second.options);
    expect(text).toMatch(new RegExp(`^Store {4}\\S+: schema chatkeep owned by postgres, which ${second.role} may not use \\(not a member of chatkeep_team\\): the admin should run chatkeep db setup --member ${second.role}$`, 'm'));
    expect(text).not.toContain('no chatkeep schema yet');
  });
});
