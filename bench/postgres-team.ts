/**
 * What row-level security costs a team's member (docs/design.md §9): listing 10,000 sessions of
 * one's own, among as many of another member's, beside the same listing by the admin (a
 * superuser, to whom no policy applies). Row of `npm run bench`'s table (`pg: …`).
 */
import { openPostgresStore } from '../src/store/postgres/store.js';
import { interpreter } from '../src/session/runtime/interpreter.js';
import { setupTeam } from '../src/store/postgres/team-setup.js';
import { withPool } from '../src/store/postgres/pool-scope.js';
import { runSql } from '../test/helpers/postgres.js';
import type { BenchRow, MeasureOptions } from './harness.js';
import { measurePair, row } from './harness.js';

/** `url`'s database made a team's, a member with `count` sessions and another with as many; the member's listing vs the admin's. */
export async function benchTeamList(url: string, cwd: string, count: number, options: MeasureOptions): Promise<BenchRow[]> {
  const tag = Date.now().toString(36);
  const [me, other] = [`ck_bench_me_${tag}`, `ck_bench_other_${tag}`];
  for (const role of [me, other]) await runSql(url, `CREATE ROLE ${role} LOGIN PASSWORD 'bench-${role}'`);
  await withPool(url, {}, (pool, target) => setupTeam(pool, target, [me, other], false), { migrate: false });
  // The member's and the other's sessions in one project (a repository both work in), and the
  // floor's: as many sessions, alone in a project of their own, listed by the admin.
  const sets = [[me, 'bench/team', 0], [other, 'bench/team', count], [other, 'bench/floor', 2 * count]] as const;
  for (const [role, key, offset] of sets) {
    await runSql(url, "INSERT INTO chatkeep.projects (key, path, host, owner) VALUES ($1, '/bench-team', 'bench', $2) ON CONFLICT DO NOTHING", [key, role]);
    await runSql(url, `INSERT INTO chatkeep.ids (id, owner) SELECT 'team-' || n, $3 FROM generate_series($1::int + 1, $1::int + $2::int) n`, [offset, count, role]);
    await runSql(
      url,
      `INSERT INTO chatkeep.sessions (id, owner, project_key, project_path, title, created_at, updated_at, status, message_count)
       SELECT 'team-' || n, $3, $4, '/bench-team', 'Session number ' || n, now() - (n % $2::int) * interval '1 minute', now() - (n % $2::int) * interval '1 minute', 'closed', n % 50
       FROM generate_series($1::int + 1, $1::int + $2::int) n`,
      [offset, count, role, key],
    );
  }
  await runSql(url, 'ANALYZE chatkeep.sessions');
  const member = new URL(url);
  member.username = me;
  member.password = `bench-${me}`;
  const mine = await openPostgresStore(member.toString(), { interpreter, cwd });
  const admin = await openPostgresStore(url, { interpreter, cwd });
  try {
    const project = { ...mine.project, key: 'bench/team' } as typeof mine.project;
    const listed = await mine.list([project]);
    if (listed.length !== count) throw new Error(`team bench: the member listed ${listed.length} sessions, not ${count}`);
    const pair = await measurePair(() => mine.list([project]), () => admin.list([{ ...project, key: 'bench/floor' } as typeof project]), options);
    return [
      row('pg: list sessions, a team member (row security)', count, pair.ms, pair.floorMs, 1.5, {
        note: `${count} of the member's among ${2 * count} in the project; floor: the admin's listing of ${count} alike (no policy applies to it)`,
      }),
    ];
  } finally {
    await mine.close();
    await admin.close();
  }
}
