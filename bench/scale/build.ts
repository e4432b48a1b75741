/**
 * Builds the scale bench's data with COPY, straight into chatkeep's schema as chatkeep writes it:
 * the session, ID and project rows of each owner, and each message's search row made by
 * chatkeep's own functions (its folded text by `fold`, its session's tail hash by `tailOf`,
 * its content as the JSON search-rows.ts stores; its blocks by chatkeep's own rule, load.ts).
 * The server reads CSV files written here, a batch of sessions at a time, loaded as load.ts says
 * (triggers off, their rows made set-based, indexes built once after the data: what they hold is
 * the same; building once is far cheaper).
 *
 * Sessions carry no snapshot: the listing and search read only their rows and search rows (the
 * one session resumed is written by the store itself, see reads.ts; sample.ts checks that the
 * store writes the same rows for a session built here).
 */
import { createWriteStream } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { fold } from '../../src/search/fold.js';
import { tailOf } from '../../src/store/postgres/search-rows.js';
import { endLoad, finishLoad, giveLockKeys, makeBlocks, startLoad } from './load.js';
import { SCHEMA_VERSION } from '../../src/session/format/migrations.js';
import { PROJECTS, messageCount, messagePool, nextMessage, random } from './shape.js';

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
/** Session `i`'s ID: in the order of `i`, as the IDs' collation ("C") sorts them. */
const sessionId = (i: number): string => `scale-${String(i).padStart(8, '0')}`;

/** A CSV field: quoted, quotes doubled (COPY's CSV format). */
const csv = (v: string | number | boolean | null): string => (v === null ? '' : typeof v === 'string' ? `"${v.replace(/"/g, '""')}"` : String(v));

/** A CSV file written in chunks of about 1 MB: one write per row was most of writing the rows. */
class CsvFile {
  private readonly out;
  private chunk: string[] = [];
  private size = 0;
  constructor(readonly path: string) {
    this.out = createWriteStream(path, { mode: 0o644 });
  }
  row(values: (string | number | boolean | null)[]): Promise<void> | undefined {
    return this.line(`${values.map(csv).join(',')}\n`);
  }
  /** A line already in CSV; a promise only when the file wants waiting for. */
  line(text: string): Promise<void> | undefined {
    this.chunk.push(text);
    this.size += text.length;
    return this.size < 1 << 20 ? undefined : this.flush();
  }
  private async flush(): Promise<void> {
    const text = this.chunk.join('');
    this.chunk = [];
    this.size = 0;
    if (!this.out.write(text)) await once(this.out, 'drain');
  }
  async close(): Promise<void> {
    await this.flush();
    this.out.end();
    await once(this.out, 'finish');
  }
}

/** One batch's CSV files of the sessions' tables, in the order they are copied; the messages go in two halves beside them. */
const TABLES = ['ids', 'sessions', 'search_sessions'] as const;
const COLUMNS: Record<(typeof TABLES)[number] | 'search_messages', string> = {
  ids: 'id, owner, issued_at',
  sessions: `id, owner, project_key, project_path, title, title_source, status, created_at, updated_at, message_count,
    journal_seq, snapshot_version, schema_version, archived_messages, search_version, search_seq, search_messages`,
  search_sessions: 'session_id, owner, snapshot_version, seq, messages, archived, tail, title, folded_title',
  search_messages: 'session_id, owner, n, role, at, archived, content, folded',
};

/** A session as built, kept for the check that chatkeep's own store writes the same rows (sample.ts). */
export interface Sample {
  id: string;
  title: string;
  createdAt: Date;
  updatedAt: Date;
  messages: { role: 'user' | 'assistant'; content: string; timestamp: Date }[];
}

/**
 * Sessions `first` to `count` - 1 (a size grown from the last), owned round-robin by `members`, across PROJECTS
 * project keys shared by all. A batch is copied (three streams: the sessions' tables on one connection, each half
 * of the messages on another) while the next is generated: the server copies on both cores.
 */
export async function buildData(url: string, members: readonly string[], count: number, first = 0): Promise<Built & { sample: Sample }> {
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
  let sample: Sample | undefined;
  const loader = await startLoad(url);
  const [a, ...messageClients] = loader.clients;
  try {
    if (first === 0) {
      const projects = new CsvFile(join(dir, 'projects.csv'));
      for (const owner of members) for (let p = 0; p < PROJECTS; p++) await projects.row([projectKey(p), `/work/project-${p}`, 'scale', owner]);
      await projects.close();
      await a.query(`COPY chatkeep.projects (key, path, host, owner) FROM '${projects.path}' WITH (FORMAT csv)`);
    }
    const r = random(36 + first);
    const pool = messagePool(43 + first);
    // Each pooled text's content and folded fields, as the CSV holds them, made once.
    const pooled = pool.map((t) => `${csv(JSON.stringify(t))},${csv(fold(t))}\n`);
    let copying: Promise<void> = Promise.resolve();
    for (let from = first; from < count; from += BATCH) {
      const to = Math.min(count, from + BATCH);
      const tables = TABLES.map((t) => new CsvFile(join(dir, `${t}-${from}.csv`)));
      const [ids, sessions, searchSessions] = tables as [CsvFile, CsvFile, CsvFile];
      const halves = messageClients.map((_, h) => new CsvFile(join(dir, `search_messages-${from}-${h}.csv`)));
      const files = [...tables, ...halves];
      await timed('generate (ms)', async () => {
        for (let i = from; i < to; i++) {
          // The first half's sessions in one file, the rest in the other: each COPY stream adds to its own range of keys.
          const searchMessages = halves[Math.floor(((i - from) * halves.length) / (to - from))]!;
          const id = sessionId(i);
          const owner = members[i % members.length]!;
          const p = Math.floor(i / members.length) % PROJECTS;
          const n = messageCount(r);
          const start = NEWEST - i * 60_000 - n * 1000;
          const created = new Date(start).toISOString();
          const updated = new Date(start + n * 1000).toISOString();
          const title = `Session ${i} about the ${p} project`;
          const kept: Sample['messages'] = [];
          let last: { role: 'user' | 'assistant'; content: string; timestamp: Date; archived: boolean } | undefined;
          for (let k = 0; k < n; k++) {
            const { text: content, pooled: drawn } = nextMessage(r, pool);
            const role = k % 2 ? 'assistant' : 'user';
            if (k === n - 1 || !sample) {
              last = { role, content, timestamp: new Date(start + k * 1000), archived: false };
              if (!sample) kept.push(last);
            }
            const fields = drawn >= 0 ? pooled[drawn]! : `${csv(JSON.stringify(content))},${csv(fold(content))}\n`;
            const waiting = searchMessages.line(`"${id}","${owner}",${k},${role},${start + k * 1000},false,${fields}`);
            if (waiting) await waiting;
          }
          if (!sample && n >= 3) sample = { id, title, createdAt: new Date(created), updatedAt: new Date(updated), messages: kept };
          messages += n;
          await ids.row([id, owner, created]);
          // Its search rows (below) of its snapshot, as the snapshot's own statement says (src/store/postgres/search-coverage.ts).
          await sessions.row([id, owner, projectKey(p), `/work/project-${p}`, title, 'auto', 'closed', created, updated, n, 0, 1, SCHEMA_VERSION, 0, 1, 0, n]);
          await searchSessions.row([id, owner, 1, 0, n, 0, tailOf(last), title, fold(title)]);
        }
        for (const f of files) await f.close();
      });
      await timed('COPY not overlapped (ms)', () => copying);
      const copy = (c: typeof a, t: keyof typeof COLUMNS, file: CsvFile): Promise<unknown> =>
        c.query(`COPY chatkeep.${t} (${COLUMNS[t]}) FROM '${file.path}' WITH (FORMAT csv)`);
      copying = timed('COPY, overlapping generate (ms)', async () => {
        await Promise.all([
          (async () => {
            for (const [k, t] of TABLES.entries()) await copy(a, t, tables[k]!);
            await giveLockKeys(loader, sessionId(from), sessionId(to - 1));
          })(),
          ...messageClients.map((c, h) => copy(c, 'search_messages', halves[h]!)),
        ]);
        await makeBlocks(loader, sessionId(from), sessionId(to - 1));
        for (const f of files) await rm(f.path);
      });
      // Awaited before the next batch's COPY or after the last; until then a failure must not end the process unheard.
      copying.catch(() => undefined);
    }
    await timed('COPY not overlapped (ms)', () => copying);
    await timed('indexes, VACUUM ANALYZE (ms)', () => finishLoad(loader));
    if (!sample) throw new Error('bench:scale: no session of 3 messages or more was built; build a larger size');
    return { sessions: count - first, messages, phases, sample };
  } finally {
    await endLoad(loader);
    await rm(dir, { recursive: true, force: true });
  }
}
