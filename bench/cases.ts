/**
 * The operations of docs/design.md §22, each timed beside its floor, and the ways other tools store
 * sessions (rewrite the whole file per turn, list by reading every file) side by side.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile, open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { layout } from '../src/store/file/layout.js';
import type { SessionManager } from '../src/session/runtime/manager-api.js';
import type { BenchConfig } from './config.js';
import { makeMessages, TEN_MB_AVG_BYTES } from './data.js';
import { idAt, openProject, sessionRestorer, writeSession } from './fixtures.js';
import { plantedProject } from './planted.js';
import { measure, measurePair, row, type BenchRow } from './harness.js';
import { median } from '../measure/median.js';
import { BIN, timeNodeStart, timeToPrompt } from './startup.js';
import { startApiServer } from './api-server.js';
import { PEAK_RSS_LINE } from './peak-rss.js';

let counter = 0;
/** A fresh home and project directory under the scratch root. */
async function scratch(config: BenchConfig): Promise<{ home: string; cwd: string }> {
  const dir = join(config.root, `case-${++counter}`);
  await mkdir(dir, { recursive: true });
  return { home: join(dir, 'home'), cwd: join(dir, 'project') };
}

function fsyncWrite(path: string, data: string): void {
  const fd = openSync(path, 'w', 0o600);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export async function benchStartup(config: BenchConfig): Promise<BenchRow[]> {
  const { home, cwd } = await scratch(config);
  await mkdir(cwd, { recursive: true });
  // Process start-up is the noisiest figure on a shared machine: more runs for a steadier median.
  // Each probe returns its own elapsed time: chatkeep's stops at its prompt, not at its exit.
  const prompt: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < config.warmup + Math.max(config.runs, 15); i++) {
    const ms = await timeToPrompt(home, cwd);
    const floorMs = await timeNodeStart();
    if (i < config.warmup) continue;
    prompt.push(ms);
    bare.push(floorMs);
  }
  return [row('start to first prompt', 1, median(prompt), median(bare), 2, { note: 'floor: node -e 0' })];
}

/** `headline`: the size the index-missing target is for (smaller sizes show the growth curve). */
export async function benchList(config: BenchConfig, n: number, headline: boolean): Promise<BenchRow[]> {
  const { manager, dir } = await plantedProject(config, n);
  const rows = await manager.list(); // the first listing builds the index
  const rowsFile = join(dir, 'rows.json');
  await writeFile(rowsFile, JSON.stringify(rows));
  const { ms, floorMs } = await measurePair(
    () => manager.list(),
    async () => JSON.parse(await readFile(rowsFile, 'utf8')) as unknown,
    config,
  );
  const out = [row(`list sessions`, rows.length, ms, floorMs, 3, { limitMs: 50 })];
  out.push(await listNewest(config, manager, rows, dir));
  out.push(await listIndexMissing(config, manager, rows.length, headline));
  // What tools without an index do: read and parse every session file.
  const sessionsDir = layout.sessions(layout.project(manager.store.location, manager.project.key));
  const naive = await measure(async () => {
    const names = await readdir(sessionsDir);
    // In batches: at 100,000 sessions, opening every file at once runs out of file descriptors (EMFILE).
    for (let start = 0; start < names.length; start += 1_000) {
      await Promise.all(names.slice(start, start + 1_000).map(async (name) => JSON.parse(await readFile(join(sessionsDir, name, 'session.json'), 'utf8')) as unknown));
    }
  }, { runs: 3, warmup: 1 });
  out.push(row(`  other tools: list by reading every file`, rows.length, naive, floorMs, 3, { informational: true, note: 'for comparison' }));
  return out;
}

/**
 * The newest screenful (`list({ limit: 50 })`, docs/design.md §8) once the index has recorded a
 * settled sessions directory (a listing 2 s after the last creation, as a person's next one is).
 * Floor: reading and parsing a file of those 50 rows.
 */
async function listNewest(config: BenchConfig, manager: SessionManager, rows: readonly unknown[], dir: string): Promise<BenchRow> {
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  await manager.list();
  const headFile = join(dir, 'head.json');
  await writeFile(headFile, JSON.stringify(rows.slice(0, 50)));
  const { ms, floorMs } = await measurePair(
    () => manager.list({ limit: 50 }),
    async () => JSON.parse(await readFile(headFile, 'utf8')) as unknown,
    config,
  );
  return row('list the newest 50 sessions', rows.length, ms, floorMs, 3, { limitMs: 50, note: 'floor: read + parse those 50 rows' });
}

/**
 * The first listing after index.json is gone (an upgrade, a copied or restored data
 * directory): the rebuild reads each session's meta file (its row, ~320 bytes) instead of its
 * snapshot. Floor: listing the directory and reading and parsing those same files with
 * readFileSync, in the batches the rebuild reads them in.
 */
async function listIndexMissing(config: BenchConfig, manager: SessionManager, n: number, headline: boolean): Promise<BenchRow> {
  const indexFile = layout.index(layout.project(manager.store.location, manager.project.key));
  const sessionsDir = layout.sessions(layout.project(manager.store.location, manager.project.key));
  const ids = await readdir(sessionsDir);
  const bytes = await Promise.all(ids.slice(0, 100).map(async (id) => (await stat(layout.meta(join(sessionsDir, id)))).size));
  const { ms, floorMs } = await measurePair(
    () => manager.list(),
    // Read the way the rebuild reads them: synchronously, yielding to the event loop between batches.
    async () => {
      const names = await readdir(sessionsDir);
      for (let start = 0; start < names.length; start += 200) {
        if (start > 0) await new Promise((resolve) => setImmediate(resolve));
        for (const name of names.slice(start, start + 200)) JSON.parse(readFileSync(layout.meta(join(sessionsDir, name)), 'utf8'));
      }
    },
    config,
    () => rm(indexFile, { force: true }),
  );
  const floor = `floor: read + parse ${n.toLocaleString('en-US')} files of ~${Math.round(median(bytes))} bytes (the meta files)`;
  return row('list sessions, index missing', n, ms, floorMs, 1.5, {
    informational: !headline,
    // Below 10,000 sessions, fixed costs (the index lock, writing index.json) weigh more.
    note: headline ? floor : `growth curve; ${floor}`,
  });
}

/** A session of `count` messages (~avgBytes each), closed, and its snapshot's bytes. */
async function bigSession(config: BenchConfig, count: number, avgBytes: number) {
  const { home, cwd } = await scratch(config);
  const { manager, template } = await openProject(home, cwd);
  const id = idAt(10_000_000);
  const dir = await writeSession(manager, template, id, makeMessages(count, avgBytes, 42));
  const bytes = await readFile(layout.snapshot(dir));
  return { manager, id, dir, bytes, text: bytes.toString('utf8'), home, cwd };
}

export async function benchResume(
  config: BenchConfig,
  count: number,
  avgBytes: number,
  options: { limitMs?: number; headline?: boolean } = {},
): Promise<BenchRow[]> {
  const { manager, id, bytes, text } = await bigSession(config, count, avgBytes);
  // docs/design.md §22's floor is JSON.parse of the same *bytes*: UTF-8 decoding included (it costs as
  // much as parsing for unicode text on Node 20), reading the file excluded.
  const opTimes: number[] = [];
  const floorTimes: number[] = [];
  const strictTimes: number[] = [];
  for (let i = 0; i < config.warmup + config.runs; i++) {
    let start = performance.now();
    const session = await manager.resume(id);
    const ms = performance.now() - start;
    await session.close(); // outside the timing: quitting writes the snapshot back
    start = performance.now();
    JSON.parse(bytes.toString('utf8'));
    const floorMs = performance.now() - start;
    start = performance.now();
    JSON.parse(text);
    const strictMs = performance.now() - start;
    if (i >= config.warmup) {
      opTimes.push(ms);
      floorTimes.push(floorMs);
      strictTimes.push(strictMs);
    }
  }
  const mb = (Buffer.byteLength(text) / 2 ** 20).toFixed(1);
  const name = options.headline ? `resume a ${mb} MB session` : `resume (${mb} MB)`;
  // docs/design.md §22 sets the target for the 10 MB session; smaller sizes show the growth curve.
  const strict = `${(median(opTimes) / median(strictTimes)).toFixed(1)}× a parse of the decoded string`;
  const extra = options.headline
    ? { limitMs: options.limitMs, note: strict }
    : { informational: true, note: `growth curve; ${strict}` };
  return [row(name, count, median(opTimes), median(floorTimes), 2, extra)];
}

export async function benchTurn(config: BenchConfig, count: number): Promise<BenchRow[]> {
  const { manager, id, dir, text } = await bigSession(config, count, 300);
  const session = await manager.resume(id);
  const message = { role: 'user' as const, content: makeMessages(1, 500, 7)[0].content };
  const line = `${JSON.stringify({ seq: 1, ts: new Date().toISOString(), type: 'message', payload: { ...message, timestamp: new Date() } })}\n`;
  const floorPath = join(dir, 'floor.jsonl');
  const fd = await open(floorPath, 'a', 0o600);
  const runs = Math.max(config.runs, 15);
  const { ms, floorMs } = await measurePair(
    () => session.append(message),
    async () => {
      await fd.write(line);
      await fd.datasync();
    },
    { runs, warmup: config.warmup + 2 },
  );
  await fd.close();
  // What tools that keep one file per session do on every turn: rewrite all of it.
  const whole = JSON.parse(text) as unknown;
  const rewritePath = join(dir, 'rewrite.json');
  const rewrite = await measure(() => fsyncWrite(rewritePath, JSON.stringify(whole)), { runs: 5, warmup: 1 });
  await session.close();
  return [
    row('one turn: durable write', count, ms, floorMs, 1.3, { note: 'floor: append + fdatasync' }),
    row('  other tools: rewrite the session per turn', count, rewrite, floorMs, 1.3, { informational: true, note: 'for comparison' }),
  ];
}

export async function benchSnapshot(config: BenchConfig, count: number): Promise<BenchRow[]> {
  const { manager, id, dir, text } = await bigSession(config, count, TEN_MB_AVG_BYTES);
  const session = await manager.resume(id);
  const data = JSON.parse(text) as unknown;
  const floorPath = join(dir, 'floor.json');
  const stalls: number[] = [];
  const idleStalls: number[] = [];
  const floorStalls: number[] = [];
  /**
   * The longest event-loop stall while `fn` runs: the longest gap between the turns of a 1 ms
   * interval timer, less its 1 ms (node's histogram misses a block that starts right after it is
   * reset, so the gaps are measured here directly).
   */
  const stallOf = async (fn: () => Promise<unknown>, into: number[]): Promise<void> => {
    let last = performance.now();
    let longest = 0;
    const gap = (): void => {
      const now = performance.now();
      longest = Math.max(longest, now - last - 1);
      last = now;
    };
    const timer = setInterval(gap, 1);
    await new Promise((resolve) => setTimeout(resolve, 3));
    longest = 0;
    await fn();
    await new Promise((resolve) => setTimeout(resolve, 3));
    clearInterval(timer);
    into.push(Math.max(0, longest));
  };
  const save = (): Promise<unknown> => session.save();
  const floor = async (): Promise<void> => fsyncWrite(floorPath, JSON.stringify(data));
  const { ms, floorMs } = await measurePair(save, floor, config);
  // Stalls in runs of their own (the timed runs above carry no monitoring), each beside the
  // machine's own: the longest delay of an event loop that does nothing for as long.
  for (let i = 0; i < config.runs; i++) {
    await stallOf(save, stalls);
    await stallOf(floor, floorStalls);
    await stallOf(() => new Promise((resolve) => setTimeout(resolve, ms)), idleStalls);
  }
  await session.close();
  const mb = (Buffer.byteLength(text) / 2 ** 20).toFixed(1);
  const size = (await stat(layout.snapshot(dir))).size;
  const stall = median(stalls);
  return [
    row(`snapshot a ${mb} MB session`, count, ms, floorMs, 2, { note: `${(size / 2 ** 20).toFixed(1)} MB written` }),
    row(`  longest event-loop stall during it`, count, stall, median(idleStalls), Number.POSITIVE_INFINITY, {
      limitMs: 20,
      note: `floor: an idle event loop as long (the machine's own delays); worst run ${Math.max(...stalls).toFixed(0)} ms; JSON.stringify + write at once: ${median(floorStalls).toFixed(0)} ms`,
    }),
  ];
}

const RSS_SCRIPT = fileURLToPath(new URL('./rss-child.js', import.meta.url));

/** Peak RSS of a child that resumes the session, beside one that only parses its bytes. */
export async function benchMemory(config: BenchConfig, count: number): Promise<BenchRow[]> {
  const { home, cwd, id, dir } = await bigSession(config, count, TEN_MB_AVG_BYTES);
  const peak = (mode: string): number => {
    const out = spawnSync(process.execPath, [RSS_SCRIPT, mode, home, cwd, id, layout.snapshot(dir)], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`rss child failed: ${out.stderr}`);
    return Number(out.stdout.trim());
  };
  const rss = median([peak('resume'), peak('resume'), peak('resume')]);
  const floor = median([peak('parse'), peak('parse'), peak('parse')]);
  const cli = median([await cliPeak(home, cwd, id, dir), await cliPeak(home, cwd, id, dir), await cliPeak(home, cwd, id, dir)]);
  return [
    row('peak RSS resuming it (MB, not ms)', count, rss, floor, 1.5, { note: 'floor: a node process that reads + JSON.parses the file' }),
    row('  peak RSS, chatkeep resuming it + one turn (openai)', count, cli, floor, 1.5, {
      informational: true,
      note: 'the whole CLI: SDK, the request body, the closing snapshot',
    }),
  ];
}

const RSS_PRELOAD = fileURLToPath(new URL('./rss-preload.js', import.meta.url));

/** Peak RSS of `chatkeep --session-id ID` sending one line to the openai provider (a local server) and quitting. */
async function cliPeak(home: string, cwd: string, id: string, dir: string): Promise<number> {
  const restore = await sessionRestorer(dir);
  const server = await startApiServer();
  try {
    const child = spawn(process.execPath, ['--import', RSS_PRELOAD, BIN, '--session-id', id, '--provider', 'openai'], {
      cwd,
      env: { ...process.env, CHATKEEP_HOME: home, OPENAI_BASE_URL: `${server.origin}/v1`, OPENAI_API_KEY: 'bench' },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin.end('hi\n');
    const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve));
    const mb = new RegExp(`^${PEAK_RSS_LINE} (\\S+)$`, 'm').exec(stderr)?.[1];
    if (code !== 0 || mb === undefined) throw new Error(`chatkeep exited ${code}: ${stderr.trim()}`);
    return Number(mb);
  } finally {
    await server.close();
    await restore(); // the same session for the next run, without this run's turn
  }
}


