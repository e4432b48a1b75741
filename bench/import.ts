/**
 * `sessions import --from claude` (docs/design.md §19): importing 1,000 Claude Code sessions of 100
 * messages each, beside the floor of reading and JSON-parsing the same files line by line.
 * The files are made from the lines Claude Code itself wrote (test/fixtures/peers), with the
 * generated conversations of data.ts in them.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSessions } from '../src/store/open.js';
import { discover } from '../src/import/discover.js';
import { importPeers } from '../src/import/run-import.js';
import type { Message } from '../src/session/api/data.js';
import type { BenchConfig } from './config.js';
import { makeMessages } from './data.js';
import { measurePair, row, type BenchRow } from './harness.js';

// bench/ when run from source (a test writes the same files), dist/bench/ when built.
const FIXTURES = [new URL('../test/fixtures/peers/', import.meta.url), new URL('../../test/fixtures/peers/', import.meta.url)]
  .map((url) => fileURLToPath(url))
  .find((dir) => existsSync(dir))!;

type Line = Record<string, unknown>;

/** Claude Code's own lines of each kind, to dress the generated messages in. */
async function templates(): Promise<{ user: Line; text: Line; call: Line; result: Line }> {
  const dir = join(FIXTURES, (await readdir(FIXTURES)).find((d) => d.startsWith('claude-'))!, '.claude', 'projects');
  const project = (await readdir(dir))[0]!;
  const file = (await readdir(join(dir, project))).find((f) => f.endsWith('.jsonl'))!;
  const lines = (await readFile(join(dir, project, file), 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
  const content = (l: Line): unknown => (l.message as { content: unknown }).content;
  const first = (test: (l: Line) => boolean): Line => lines.find(test)!;
  return {
    user: first((l) => l.type === 'user' && typeof content(l) === 'string'),
    text: first((l) => l.type === 'assistant' && JSON.stringify(content(l)).includes('"text"')),
    call: first((l) => l.type === 'assistant' && JSON.stringify(content(l)).includes('"tool_use"')),
    result: first((l) => l.type === 'user' && JSON.stringify(content(l)).includes('"tool_result"')),
  };
}

/** One session file: `messages` as Claude Code lines, chained by parentUuid. */
function sessionFile(t: Awaited<ReturnType<typeof templates>>, sessionId: string, cwd: string, messages: Message[]): string {
  let parent: string | null = null;
  const out: string[] = [];
  for (const [i, m] of messages.entries()) {
    const uuid = randomUUID();
    const base = { parentUuid: parent, uuid, sessionId, cwd, timestamp: m.timestamp.toISOString() };
    let line: Line;
    if (m.role === 'user') line = { ...t.user, ...base, message: { role: 'user', content: m.content } };
    else if (m.role === 'tool') {
      const message = { role: 'user', content: [{ tool_use_id: m.toolCallId, type: 'tool_result', content: m.content }] };
      line = { ...t.result, ...base, message, toolUseResult: { type: 'text', file: { content: m.content } } };
    } else {
      const template = m.toolCalls ? t.call : t.text;
      const blocks = m.toolCalls
        ? m.toolCalls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.arguments) as unknown }))
        : [{ type: 'text', text: m.content }];
      line = { ...template, ...base, message: { ...(template.message as Line), id: `msg_${i}`, content: blocks } };
    }
    out.push(JSON.stringify(line));
    parent = uuid;
  }
  return `${out.join('\n')}\n`;
}

/** Writes `sessions` Claude Code session files of `perSession` messages into `projectDir`. */
export async function writeClaudeSessions(projectDir: string, cwd: string, sessions: number, perSession: number): Promise<void> {
  const t = await templates();
  for (let i = 0; i < sessions; i++) {
    const id = randomUUID();
    await writeFile(join(projectDir, `${id}.jsonl`), sessionFile(t, id, cwd, makeMessages(perSession, 300, i + 1)));
  }
}

export async function benchImport(config: BenchConfig, sessions: number, perSession: number): Promise<BenchRow[]> {
  const dir = join(config.root, 'import');
  const cwd = join(dir, 'project');
  const store = join(dir, 'claude');
  const projectDir = join(store, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
  await mkdir(projectDir, { recursive: true });
  await mkdir(cwd, { recursive: true });
  await writeClaudeSessions(projectDir, cwd, sessions, perSession);
  let run = 0;
  const home = (): string => join(dir, `home-${run}`);
  const { ms, floorMs } = await measurePair(
    async () => {
      const sessionsOf = await openSessions({ home: home(), cwd });
      const found = await discover({ tool: 'claude', paths: [], cwd, all: false, env: { CLAUDE_CONFIG_DIR: store }, userHome: dir });
      const outcomes = await importPeers(sessionsOf, { tool: 'claude', files: found.files, cwd, all: false, dryRun: false, toolVersion: 'bench' });
      await sessionsOf.close();
      if (outcomes.filter((o) => o.action === 'new').length !== sessions) throw new Error(`import bench: ${JSON.stringify(outcomes.find((o) => o.action !== 'new'))}`);
    },
    async () => {
      for (const name of await readdir(projectDir)) {
        const text = await readFile(join(projectDir, name), 'utf8');
        for (const line of text.split('\n')) if (line) JSON.parse(line);
      }
    },
    { runs: config.quick ? 2 : 3, warmup: 1 },
    // A fresh data home each run, all removed afterwards: removing one just before the next
    // import made that import pay for it, as ext4 skips the inodes freed in the last minute
    // (recently_deleted) when it allocates new ones, which tripled the time the kernel spent
    // creating its files (measured with perf). A person importing has not just deleted 4,000 files.
    () => {
      run += 1;
    },
  );
  for (let i = 0; i <= run; i++) await rm(join(dir, `home-${i}`), { recursive: true, force: true });
  return [row(`import Claude Code sessions (${perSession} messages each)`, sessions, ms, floorMs, 2, { note: 'floor: read and JSON.parse every line' })];
}
