/**
 * The scale bench's reads, each beside its floor (the same answer in plain SQL on the same data,
 * asked by the admin, to whom no policy applies): a member's listing of one project (its newest
 * 50, and all of it), search
 * across what a member may read (a rare word; a word in nearly every message; the first search
 * after a bulk write), and resuming a 2,000-message session. Each answer is also checked against
 * its floor's (`checks`): the counts the test asserts.
 */
import type pg from 'pg';
import type { PostgresStore } from '../../src/store/postgres/store.js';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { blankSnapshot } from '../../src/session/format/blank.js';
import { LIST_SQL } from '../../src/store/postgres/reading.js';
import { keyOf } from '../../src/store/postgres/project-key.js';
import { HELD_KEYS_SQL } from '../../src/store/postgres/lock.js';
import { makeMessages } from '../data.js';
import type { BenchRow, MeasureOptions } from '../harness.js';
import { measurePair, row } from '../harness.js';
import { median } from '../../measure/median.js';
import { COMMON, PROJECTS, RARE } from './shape.js';
import { projectKey } from './build.js';
import { bulkWrite } from './bulk.js';

export interface Checks {
  [name: string]: { chatkeep: number; floor: number };
}

/** Bulk writes of 100 sessions, each followed by one search. */
const BULK_ROUNDS = 4;

/** The listing's columns of session `s`, plainly, with `status` for its status. */
const columns = (status: string): string => `s.id, s.title, (extract(epoch FROM s.created_at) * 1000)::float8, (extract(epoch FROM s.updated_at) * 1000)::float8,
  s.message_count, ${status}, s.project_path, s.journal_seq::float8, s.input_tokens::float8, s.output_tokens::float8, s.branch, s.by_model, s.problem, s.schema_version`;
/** This owner's rows of project `$1`, the newest `$3` (NULL: all). */
const OWN_ROWS = 'SELECT * FROM chatkeep.sessions WHERE project_key = $1 AND owner = $2 AND trashed_at IS NULL ORDER BY updated_at DESC LIMIT $3';
/**
 * The listing plainly, with the status a listing shows (docs/design.md §5), which is part of its
 * answer: `open` while the session's advisory lock is held (pg_locks, by its key) or its lease
 * runs; `interrupted` with a holder row, a status saved other than closed, or events past the
 * snapshot; else closed. The floor of the listing rows (since 29 Nov 2026, 11:30 UTC).
 */
const LIST_FLOOR_SQL = `WITH held AS MATERIALIZED (${HELD_KEYS_SQL})
  SELECT ${columns(`CASE WHEN k.key::oid IN (SELECT objid FROM held) OR coalesce(h.expires_at > now(), false) THEN 'open'
    WHEN h.session_id IS NOT NULL OR s.status <> 'closed' THEN 'interrupted'
    WHEN (SELECT max(e.seq) FROM chatkeep.events e WHERE e.session_id = s.id) > s.journal_seq THEN 'interrupted' ELSE 'closed' END AS live`)}
  FROM (${OWN_ROWS}) s LEFT JOIN chatkeep.lock_keys k ON k.session_id = s.id LEFT JOIN chatkeep.holders h ON h.session_id = s.id
  ORDER BY s.updated_at DESC`;
/** The columns alone, the status as saved: the listing rows' floor before, beside it in their notes. */
const COLUMNS_FLOOR_SQL = `SELECT ${columns('s.status')} FROM (${OWN_ROWS}) s`;
/** The newest rows of the listing: what `sessions list` and the browser's first screen show. */
const NEWEST = 50;
/** chatkeep's own listing query with the owner named instead of left to the policy: the admin's. */
const ADMIN_LIST_SQL = LIST_SQL.replace('WHERE s.project_key = ANY($1)', 'WHERE s.project_key = ANY($1) AND s.owner = $2');
/** The same, the newest `$3`. */
const ADMIN_HEAD_SQL = `${ADMIN_LIST_SQL} LIMIT $3`;

/** The messages a member may read that hold the word, and every session's ID, title and time (a search matches titles too). */
async function searchFloor(admin: pg.Client, owner: string, keys: string[], word: string): Promise<number> {
  const hits = await admin.query<{ session_id: string }>(
    `SELECT m.session_id, m.n FROM chatkeep.search_messages m JOIN chatkeep.sessions s ON s.id = m.session_id
     WHERE s.owner = $1 AND s.project_key = ANY($2) AND s.trashed_at IS NULL AND m.folded LIKE $3`,
    [owner, keys, `%${word}%`],
  );
  const titles = await admin.query<{ id: string; title: string | null }>(
    'SELECT id, title, updated_at FROM chatkeep.sessions WHERE owner = $1 AND project_key = ANY($2) AND trashed_at IS NULL',
    [owner, keys],
  );
  const found = new Set(hits.rows.map((h) => h.session_id));
  for (const t of titles.rows) if (t.title?.toLowerCase().includes(word)) found.add(t.id);
  return found.size;
}

export async function measureReads(
  member: PostgresStore,
  owner: string,
  admin: pg.Client,
  n: number,
  options: MeasureOptions,
  checks: Checks,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const listed = { ...member.project, key: projectKey(0) } as ProjectInfo;
  // What a listing shows (`sessions list`, the browser's first screen): the newest 50.
  const head = await member.list([listed], { newest: NEWEST });
  // The answer, status included, beside the floor's: its rows that the floor gives with the same
  // status (all of them only when it gives no other row), as the data is and with one held (`open`).
  const same = async (newest: number | null, open?: string): Promise<{ chatkeep: number; floor: number }> => {
    const got = await member.list([listed], newest === null ? {} : { newest });
    const floor = (await admin.query<{ id: string; live: string }>(LIST_FLOOR_SQL, [projectKey(0), owner, newest])).rows;
    const told = new Map(floor.map((r) => [r.id, r.live]));
    const matching = got.filter((r) => told.get(r.id) === r.status && (r.id !== open || r.status === 'open')).length;
    return { chatkeep: got.length === floor.length ? matching : got.length, floor: floor.length };
  };
  checks['list: newest 50, each with its status'] = await same(NEWEST);
  const held = await member.lock(head[0]!.id, () => undefined);
  try {
    checks['list: newest 50, one held, each with its status'] = await same(NEWEST, head[0]!.id);
  } finally {
    await held.release();
  }
  const timed = async (newest: number | null, limits: { limitMs?: number }, name: string, what: string): Promise<void> => {
    const args = [projectKey(0), owner, newest];
    const list = (): Promise<unknown> => member.list([listed], newest === null ? {} : { newest });
    const pair = await measurePair(list, () => admin.query(LIST_FLOOR_SQL, args), options);
    const bare = await measurePair(list, () => admin.query(COLUMNS_FLOOR_SQL, args), options);
    rows.push(row(name, n, pair.ms, pair.floorMs, 1.5, {
      ...limits,
      note: `${what}; floor: SELECT of the same rows with each one's status (pg_locks, holder, last event); the columns alone (the floor before 29 Nov 11:30 UTC): ${bare.floorMs.toFixed(2)} ms, ${(bare.ms / bare.floorMs).toFixed(2)}× (chatkeep ${bare.ms.toFixed(2)} ms)`,
    }));
  };
  await timed(NEWEST, { limitMs: 50 }, 'pg scale: a member lists one project, newest 50', `${head.length} sessions, the newest ${NEWEST}`);
  const rlsHead = await measurePair(() => member.list([listed], { newest: NEWEST }), () => admin.query(ADMIN_HEAD_SQL, [[projectKey(0)], owner, NEWEST]), options);
  rows.push(row('pg scale: the newest 50, row security vs the admin', n, rlsHead.ms, rlsHead.floorMs, 1.5, {
    note: "floor: chatkeep's listing query run by the admin with the owner named (no policy applies), newest 50",
  }));
  checks['list: sessions, each with its status'] = await same(null);
  await timed(null, {}, 'pg scale: a member lists one project, all of it', `${checks['list: sessions, each with its status'].floor} sessions (every one of the project's)`);
  const rls = await measurePair(() => member.list([listed]), () => admin.query(ADMIN_LIST_SQL, [[projectKey(0)], owner]), options);
  rows.push(row('pg scale: the same listing, row security vs the admin', n, rls.ms, rls.floorMs, 1.5, {
    note: "floor: chatkeep's listing query run by the admin with the owner named (no policy applies)",
  }));

  // The first search after a bulk write: 100 sessions stored as an import stores them, then one
  // search, in BULK_ROUNDS rounds. The first round's search is also the member's process's first
  // (its module, the narrowing probe, the connection's first plans: in the note); the figure is
  // the median of the others, which show what a bulk write itself leaves a search to do.
  const projects = [...Array.from({ length: PROJECTS }, (_, p) => ({ ...member.project, key: projectKey(p) }) as ProjectInfo), member.project];
  const keys = projects.map(keyOf);
  const base = Date.UTC(2026, 10, 2) + n;
  const afterBulk: number[] = [];
  let first = { total: 0 };
  for (let round = 0; round < BULK_ROUNDS; round++) {
    await bulkWrite(member, n, round);
    const at = performance.now();
    first = await member.searchSessions(RARE, projects, {});
    afterBulk.push(performance.now() - at);
  }
  const firstMs = median(afterBulk.slice(1));
  for (const word of [RARE, COMMON]) {
    const answer = await member.searchSessions(word, projects, {});
    checks[`search: ${word}`] = { chatkeep: answer.total, floor: await searchFloor(admin, owner, keys, word) };
  }
  checks['search: first after a bulk write'] = { chatkeep: first.total, floor: checks[`search: ${RARE}`]!.floor };
  const rare = await measurePair(() => member.searchSessions(RARE, projects, {}), () => searchFloor(admin, owner, keys, RARE), options);
  const common = await measurePair(() => member.searchSessions(COMMON, projects, {}), () => searchFloor(admin, owner, keys, COMMON), {
    runs: Math.min(3, options.runs),
    warmup: 1,
  });
  const floorNote = "floor: SELECT of the member's messages holding it + its sessions' IDs, titles, times";
  rows.push(row('pg scale: search, one word', n, rare.ms, rare.floorMs, 1.5, { limitMs: 100, note: `${first.total} sessions match; ${floorNote}` }));
  rows.push(row('pg scale: search, a word in nearly every message', n, common.ms, common.floorMs, 3, {
    limitMs: 300,
    note: `${checks[`search: ${COMMON}`]!.chatkeep} sessions match, every hit counted; ${floorNote}`,
  }));
  rows.push(row('pg scale: search, first after a bulk write', n, firstMs, rare.ms, 1.5, {
    note: `median of ${BULK_ROUNDS - 1} searches, each right after 100 sessions were stored as an import stores them; the process's first search ${afterBulk[0]!.toFixed(1)} ms; floor: the same search warm`,
  }));

  // Resuming a 2,000-message session: read and decoded by the store vs its rows selected.
  const big = blankSnapshot(`scale-big-${n}`, member.project.path, new Date(base + 1000), 'bench');
  big.messages = makeMessages(2000, 300, 7);
  big.stats.messageCount = 2000;
  await member.adopt(big);
  const loaded = await member.load(big.id, { now: new Date(), quarantine: false });
  checks['resume: messages'] = { chatkeep: loaded.snapshot?.messages.length ?? -1, floor: 2000 };
  const resume = await measurePair(
    () => member.load(big.id, { now: new Date(), quarantine: false }),
    async () => {
      await admin.query('SELECT snapshot FROM chatkeep.sessions WHERE id = $1', [big.id]);
      await admin.query('SELECT seq, ts, type, payload FROM chatkeep.events WHERE session_id = $1 ORDER BY seq', [big.id]);
    },
    options,
  );
  rows.push(row('pg scale: resume a 2,000-message session', n, resume.ms, resume.floorMs, 1.5, {
    note: 'floor: SELECT of its rows (the columns a resume reads, in two statements, nothing decoded)',
  }));
  return rows;
}
