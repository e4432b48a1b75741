/**
 * Builds the scale bench's data with COPY, straight into chatkeep's schema as chatkeep writes it:
 * the session, ID and project rows of each owner, and each message's search row made by
 * chatkeep's own functions (its folded text by `fold`, its session's tail hash by `tailOf`,
 * its content as the JSON search-rows.ts stores). The server reads CSV files written here, a
 * batch of sessions at a time. Search indexes are dropped for the load and made again with
 * their own definitions after it (what they hold is the same; building once is far cheaper).
 *
 * Sessions carry no snapshot: the listing and search read only their rows and search rows (the
 * one session resumed is written by the store itself, see measure.ts).
 */
import { createWriteStream } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { fold } from '../../src/search/fold.js';
import { tailOf } from '../../src/store/postgres/search-rows.js';
import { runSql } from '../../test/helpers/postgres.js';
import { SCHEMA_VERSION } from '../../src/session/format/migrations.js';
import { PROJECTS, messageCount, messageText, random } from './shape.js';

/** Sessions per COPY batch: a batch's files stay near 100 MB at the full size's averages. */
const BATCH = 20_000;
/** Every session's time: the newest is this, each older by a minute (newest-first listings see the first ones). */
const NEWEST = Date.UTC(2026, 10, 1);

export interface Built {
  sessions: number;
  messages: number;
  /** Messages holding the rare and common words, counted as they were written. */
  phases: Record<string, number>;
}

export const projectKey = (p: number): string => `scale/project-${p}`;

/** A CSV field: quoted, quotes doubled (COPY's CSV format). */
const csv = (v: string | number | boolean | null): string => (v === null ? '' : typeof v === 'string' ? `"${v.replace(/"/g, '""')}"` : String(v));

class CsvFile {
  private readonly out;
  constructor(readonly path: string) {
    this.out = createWriteStream(path, { mode: 0o644 });
  }
  async row(values: (string | number | boolean | null)[]): Promise<void> {
    if (!this.out.write(`${values.map(csv).join(',')}\n`)) await once(this.out, 'drain');
  }
  async close(): Promise<void> {
    this.out.end();
    await once(this.out, 'finish');
  }
}

const SEARCH_INDEXES = ['search_messages_trgm', 'search_messages_grams', 'search_messages_ungrammed'];

/** Sessions `first` to `count` - 1 (a size grown from the last), owned round-robin by `members`, across PROJECTS project keys shared by all. */
export async function buildData(url: string, members: readonly string[], count: number, first = 0): Promise<Built> {
  const dir = await mkdtemp(join(tmpdir(), 'chatkeep-scale-'));
  // The server's own user reads the files.
  await chmod(dir, 0o755);
  const phases: Record<string, number> = {};
  const timed = async (phase: string, fn: () => Promise<void>): Promise<void> => {
    const at = performance.now();
    await fn();
    phases[phase] = (phases[phase] ?? 0) + (performance.now() - at);
  };
  let messages = 0;
  try {
    const indexes = await runSql<{ name: string; def: string }>(
      url,
      "SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = 'chatkeep' AND indexname = ANY($1)",
      [SEARCH_INDEXES],
    );
    for (const i of indexes) await runSql(url, `DROP INDEX chatkeep.${i.name}`);
    const projects = new CsvFile(join(dir, 'projects.csv'));
    for (const owner of members) for (let p = 0; p < PROJECTS; p++) await projects.row([projectKey(p), `/work/project-${p}`, 'scale', owner]);
    await projects.close();
    if (first === 0) await runSql(url, `COPY chatkeep.projects (key, path, host, owner) FROM '${projects.path}' WITH (FORMAT csv)`);
    const r = random(36 + first);
    for (let from = first; from < count; from += BATCH) {
      const files = ['ids', 'sessions', 'search_sessions', 'search_messages'].map((t) => new CsvFile(join(dir, `${t}.csv`)));
      const [ids, sessions, searchSessions, searchMessages] = files as [CsvFile, CsvFile, CsvFile, CsvFile];
      await timed('generate (ms)', async () => {
        for (let i = from; i < Math.min(count, from + BATCH); i++) {
          const id = `scale-${String(i).padStart(8, '0')}`;
          const owner = members[i % members.length]!;
          const p = Math.floor(i / members.length) % PROJECTS;
          const n = messageCount(r);
          const start = NEWEST - i * 60_000 - n * 1000;
          const created = new Date(start).toISOString();
          const updated = new Date(start + n * 1000).toISOString();
          const title = `Session ${i} about the ${p} project`;
          let last: { role: 'user' | 'assistant'; content: string; timestamp: Date; archived: boolean } | undefined;
          for (let k = 0; k < n; k++) {
            const content = messageText(r);
            last = { role: k % 2 ? 'assistant' : 'user', content, timestamp: new Date(start + k * 1000), archived: false };
            await searchMessages.row([id, k, last.role, start + k * 1000, false, JSON.stringify(content), fold(content)]);
          }
          messages += n;
          await ids.row([id, owner, created]);
          await sessions.row([id, owner, projectKey(p), `/work/project-${p}`, title, 'auto', 'closed', created, updated, n, 0, 1, SCHEMA_VERSION, 0]);
          await searchSessions.row([id, 1, 0, n, 0, tailOf(last), title, fold(title)]);
        }
        for (const f of files) await f.close();
      });
      await timed('COPY (ms)', async () => {
        await runSql(url, `COPY chatkeep.ids (id, owner, issued_at) FROM '${ids.path}' WITH (FORMAT csv)`);
        await runSql(
          url,
          `COPY chatkeep.sessions (id, owner, project_key, project_path, title, title_source, status, created_at, updated_at, message_count,
            journal_seq, snapshot_version, schema_version, archived_messages) FROM '${sessions.path}' WITH (FORMAT csv)`,
        );
        await runSql(url, `COPY chatkeep.search_sessions (session_id, snapshot_version, seq, messages, archived, tail, title, folded_title)
          FROM '${searchSessions.path}' WITH (FORMAT csv)`);
        await runSql(url, `COPY chatkeep.search_messages (session_id, n, role, at, archived, content, folded) FROM '${searchMessages.path}' WITH (FORMAT csv)`);
      });
      for (const f of files) await rm(f.path);
    }
    await timed('index (ms)', async () => {
      // Without pg_trgm, each message's sequences as search-rows.ts computes them.
      if (!indexes.some((i) => i.name === 'search_messages_trgm')) {
        await runSql(url, `UPDATE chatkeep.search_messages m SET grams = array_to_tsvector(ARRAY(
          SELECT DISTINCT substr(m.folded, i, 3) FROM generate_series(1, char_length(m.folded) - 2) AS i)) WHERE char_length(m.folded) <= 60000`);
      }
      for (const i of indexes) await runSql(url, i.def);
    });
    await timed('ANALYZE (ms)', () => runSql(url, 'VACUUM ANALYZE').then(() => undefined));
    return { sessions: count - first, messages, phases };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
