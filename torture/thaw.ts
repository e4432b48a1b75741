/**
 * A frozen holder thawed after another host took over (docs/design.md §12): the holder, on another
 * machine (`unshare -u` + `hostname`), appends messages as fast as it can, each acknowledged on
 * stdout once `append` resolved; it is frozen (SIGSTOP) at a random moment, long enough for its
 * lock to go stale (files) or its lease to run out (PostgreSQL behind PgBouncer); this host takes
 * the session over, notes what it found, appends and closes; then the holder is thawed and goes on
 * appending. The fence must refuse everything it writes from then on.
 *
 * Figures: writes of the old epoch that landed (in the stored session, but not in what the taker
 * found when it took over), acknowledged messages lost, and thawed holders that were not told.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { openSessions } from '../src/index.js';
import { startChild, writeScript, type LineChild } from './children.js';
import { runTrials, Tally, type PartResult } from './part.js';
import { freshDir } from './proc.js';
import type { Random } from './random.js';

export interface ThawOptions {
  root: string;
  part: 'thaw' | 'pg-thaw';
  trials: number;
  /** PostgreSQL (through a transaction-pooling PgBouncer, where the lock is a lease); files otherwise. */
  store?: string;
  /** The stale time / lease (default 2000 ms, proper-lockfile's least). */
  staleMs?: number;
  workers?: number;
  seed?: number;
}

/** The holder's host name. */
export const FROZEN_HOST = 'chatkeep-frozen-host';

const HOLDER = `
const { openSessions } = await import(LIB);
const [home, cwd, store, id, stale] = process.argv.slice(2);
const sessions = await openSessions({ home, cwd, lockStaleMs: Number(stale), ...(store ? { store } : {}) });
const session = await sessions.resume(id);
console.log('held');
for (let i = 0; ; i++) {
  try {
    await session.append({ role: 'user', content: 'old ' + i });
  } catch (err) {
    console.log('refused ' + (err && err.code));
    process.exit(0);
  }
  console.log('ack old ' + i);
}
`;

export async function run(options: ThawOptions): Promise<PartResult> {
  const tally = new Tally(options.part, { trials: 0, takeovers: 0, acknowledgedBeforeFreeze: 0, refusedAfterThaw: 0, slowestTakeoverMs: 0 }, [
    'oldEpochWritesLanded',
    'acknowledgedLost',
    'holdersNotTold',
    'crashes',
  ]);
  const script = writeScript(options.root, `${options.part}-holder`, HOLDER);
  await runTrials(options.trials, options.workers ?? 2, options.seed ?? 1, async (t, rng) => {
    await trial(t, rng, script, options, tally).catch((err: unknown) => tally.fail('crashes', `trial ${t}: ${String(err)}`));
    tally.add('trials');
  });
  return tally.result();
}

async function trial(t: number, rng: Random, script: string, options: ThawOptions, tally: Tally): Promise<void> {
  const staleMs = options.staleMs ?? 2_000;
  const home = freshDir(options.root, 'home-');
  const cwd = freshDir(options.root, 'project-');
  const open = (): ReturnType<typeof openSessions> => openSessions({ home, cwd, lockStaleMs: staleMs, ...(options.store ? { store: options.store } : {}) });
  const manager = await open();
  const created = await manager.create();
  await created.append({ role: 'user', content: `trial ${t}` });
  await created.close();

  const holder = startChild(script, [home, cwd, options.store ?? '', created.id, String(staleMs)], {}, FROZEN_HOST);
  const acked: string[] = [];
  try {
    if ((await holder.next(30_000)) !== 'held') throw new Error('the holder did not take the session');
    // Let it write for a random while, then freeze it wherever it is (mid-append included).
    await sleep(rng.int(5, 60));
    holder.proc.kill('SIGSTOP');
    await sleep(50); // what it printed before the freeze, still in the pipe
    acked.push(...drain(holder));
    tally.add('acknowledgedBeforeFreeze', acked.length);

    const started = Date.now();
    let taker;
    for (;;) {
      taker = await manager.resume(created.id).catch(() => undefined);
      if (taker || Date.now() - started > staleMs * 10) break;
      await sleep(100);
    }
    if (!taker) throw new Error(`no takeover within ${staleMs * 10} ms`);
    tally.add('takeovers');
    tally.max('slowestTakeoverMs', Date.now() - started);
    const found = new Set(taker.messages.map((m) => m.content));
    await taker.append({ role: 'user', content: `taker ${t}` });
    await taker.close();

    holder.proc.kill('SIGCONT');
    const after = await untilExit(holder);
    acked.push(...after.acked);
    if (after.refused) tally.add('refusedAfterThaw');
    else tally.fail('holdersNotTold', `trial ${t}: the thawed holder went on without a refusal`);

    const stored = (await manager.read(created.id)).messages.map((m) => m.content);
    const landed = stored.filter((text) => text.startsWith('old ') && !found.has(text));
    if (landed.length > 0) tally.fail('oldEpochWritesLanded', `trial ${t}: ${JSON.stringify(landed)}`);
    // An acknowledgement printed after the thaw may be of a write made before the freeze: only what is missing counts.
    const lost = [...acked, `taker ${t}`].filter((text) => !stored.includes(text));
    if (lost.length > 0) tally.fail('acknowledgedLost', `trial ${t}: ${JSON.stringify(lost)}`);
  } finally {
    holder.proc.kill('SIGCONT');
    holder.proc.kill('SIGKILL');
    await holder.exited;
    await manager.close();
  }
}

/** The acknowledgements the holder printed so far (without waiting). */
function drain(child: LineChild): string[] {
  const lines: string[] = [];
  for (;;) {
    const line = child.pending();
    if (line === undefined) return lines;
    if (line.startsWith('ack ')) lines.push(line.slice(4));
  }
}

/** Reads the thawed holder's lines until it exits (or 30 s pass). */
async function untilExit(child: LineChild): Promise<{ acked: string[]; refused: boolean }> {
  const acked: string[] = [];
  for (;;) {
    const line = await child.next(30_000).catch(() => undefined);
    if (line === undefined) return { acked, refused: false };
    if (line.startsWith('ack ')) acked.push(line.slice(4));
    else if (line.startsWith('refused ')) return { acked, refused: true };
  }
}
