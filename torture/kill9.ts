/**
 * kill -9 of the real binary at random moments of scripted sessions. After each kill: every
 * message that was on screen is in the session (a reply's shown prefix at least, kept as an
 * interrupted message), the session loads, and the next start takes the dead process's lock
 * at once.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSessions } from '../src/index.js';
import { check, tornSnapshots, type Chain, type Moment, type Step } from './kill9-model.js';
import { completeStep, killDuring, sync } from './kill9-steps.js';
import { Tally, type PartResult } from './part.js';
import { freshDir, runPiped, spawnPiped } from './proc.js';
import { createRandom } from './random.js';
import { median } from '../measure/median.js';
import { isLeftoverTemp } from '../src/store/file/load.js';
import { layout } from '../src/store/file/layout.js';

/** Size and place of a kill -9 run. */
export interface Kill9Options {
  trials: number;
  /** Directory under which the data homes are made. */
  root: string;
  /** Chains run side by side (default 2). */
  workers?: number;
  /** Trials per data home, each resuming the session the previous one killed (default 25). */
  chain?: number;
  seed?: number;
  /** Pause between streamed words (default 20 ms). */
  echoDelayMs?: number;
  /** A PostgreSQL URL: the sessions live there (`CHATKEEP_STORE`) instead of in the data homes. */
  store?: string;
  /** When the kills come (default: every moment, streaming weighted ×3). */
  moments?: Moment[];
  /** The part's name in the results (default `kill9`). */
  part?: string;
}

const ALL_MOMENTS: Moment[] = ['starting', 'typing', 'streaming', 'streaming', 'streaming', 'autosave', 'save', 'reset', 'load'];

/** Runs `options.trials` kill -9 trials; figures: trials, messages acknowledged, messages lost, sessions unreadable, slowest restart. */
export async function run(options: Kill9Options): Promise<PartResult> {
  const tally = new Tally(
    options.part ?? 'kill9',
    { trials: 0, messagesAcknowledged: 0, partialRepliesShown: 0 },
    ['messagesLost', 'sessionsUnreadable', 'partialsNotMarkedInterrupted', 'heldByDeadLock', 'falseDamage', 'unexpectedOutput', 'tempFilesLeftBehind'],
  );
  tally.figures.slowestRestartMs = 0;
  tally.figures.slowRestarts = 0;
  tally.figures.killedMidSnapshotWrite = 0;
  const moments: Record<string, number> = {};
  const restarts: number[] = [];
  let left = options.trials;
  let chainNo = 0;
  const worker = async (): Promise<void> => {
    while (left > 0) {
      const n = Math.min(left, options.chain ?? 25);
      left -= n;
      const seed = (options.seed ?? 1) * 1000 + chainNo++;
      await runChain(n, seed, options, tally, moments, restarts);
    }
  };
  await Promise.all(Array.from({ length: options.workers ?? 2 }, worker));
  tally.figures.medianRestartMs = restarts.length ? Math.round(median(restarts)) : 0;
  if (options.store !== undefined) delete tally.figures.killedMidSnapshotWrite; // no snapshot files there
  for (const moment of ['starting', 'typing', 'streaming', 'autosave', 'save', 'load', 'reset']) {
    if (!(options.moments ?? ALL_MOMENTS).includes(moment as Moment)) continue;
    tally.figures[`killedWhile${moment[0]!.toUpperCase()}${moment.slice(1)}`] = moments[moment] ?? 0;
  }
  return tally.result();
}


async function runChain(
  trials: number,
  seed: number,
  options: Kill9Options,
  tally: Tally,
  moments: Record<string, number>,
  restarts: number[],
): Promise<void> {
  const home = freshDir(options.root, 'k9-home-');
  const cwd = freshDir(options.root, 'k9-project-');
  const manager = await openSessions({ home, cwd, ...(options.store === undefined ? {} : { store: options.store }) });
  const b = await manager.create();
  // A session exists once it holds a message: this one is kept, and checked like the others.
  const seedText = 'kept: a session exists once it holds a message';
  await b.append({ role: 'user', content: seedText });
  await b.close();
  const chain: Chain = { home, cwd, rng: createRandom(seed), manager, shown: new Map([[b.id, [{ role: 'user', text: seedText, complete: true }]]]), current: undefined, other: b.id, counter: 0, tag: `c${seed}`, temps: new Set() };
  for (let t = 0; t < trials; t++) {
    const ok = await trial(chain, options, tally, moments, restarts, t > 0);
    tally.add('trials');
    if (!ok) return manager.close();
  }
  // The last kill too: the session must load in the binary and in `sessions show --json`.
  for (const id of [chain.current, chain.other]) {
    if (id === undefined) continue;
    // A session that never held a message was not kept (docs/design.md §3): there is nothing to resume.
    if ((chain.shown.get(id) ?? []).length === 0 && !(await chain.manager.resolve(id).then(() => true, () => false))) continue;
    // A whole run (start, /quit, save, exit): its exit code is checked; restart times are the
    // trials' own, taken at the prompt.
    const resumed = await runPiped(['--session-id', id, '--autosave', 'off'], '/quit\n', { home, cwd, env: storeEnv(options) });
    if (resumed.code === 3) tally.fail('heldByDeadLock', `${id}: ${resumed.stderr.trim()}`);
    else if (resumed.code !== 0) tally.fail('sessionsUnreadable', `${id} did not resume (exit ${resumed.code}): ${resumed.stderr.trim()}`);
    const show = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd, env: storeEnv(options) });
    try {
      const json = JSON.parse(show.stdout) as { messages: unknown[] };
      if (show.code !== 0 || !Array.isArray(json.messages)) throw new Error(`exit ${show.code}`);
    } catch (err) {
      tally.fail('sessionsUnreadable', `sessions show ${id} --json failed (${String(err)}): ${show.stderr.trim()}`);
    }
    await check(chain, id, tally);
    if (options.store !== undefined) continue;
    // Resumed and closed: nothing a killed writer left behind may stay.
    const dir = join(layout.sessions(layout.project(chain.manager.store.location, chain.manager.project.key)), id);
    const temps = readdirSync(dir).filter(isLeftoverTemp);
    if (temps.length > 0) tally.fail('tempFilesLeftBehind', `${id}: ${temps.join(', ')}`);
  }
  await manager.close();
}

/** One start, a few steps, one kill, then the checks. False when the chain cannot go on. */
async function trial(
  chain: Chain,
  options: Kill9Options,
  tally: Tally,
  moments: Record<string, number>,
  restarts: number[],
  isRestart: boolean,
): Promise<boolean> {
  const { rng } = chain;
  const killStep = rng.pick<Moment>(options.moments ?? ALL_MOMENTS);
  const autosave = killStep === 'autosave' || rng.chance(0.4) ? '1s' : 'off';
  const args = ['--autosave', autosave, ...(chain.current ? ['--session-id', chain.current] : [])];
  const started = Date.now();
  const proc = spawnPiped(args, {
    home: chain.home,
    cwd: chain.cwd,
    env: { ...storeEnv(options), CHATKEEP_ECHO_DELAY_MS: String(options.echoDelayMs ?? 20) },
  });
  moments[killStep] = (moments[killStep] ?? 0) + 1;
  if (killStep === 'starting') {
    // Start-up: loading, taking (or taking over) the lock, recovering the journal.
    await sleep(rng.int(30, 500));
    proc.kill('SIGKILL');
    await proc.closed;
    const id = chain.current ?? /· session (\S+) ·/.exec(proc.stderr())?.[1];
    if (id && !chain.current) {
      chain.current = id;
      chain.shown.set(id, []);
    }
    if (options.store === undefined) tornSnapshots(chain, tally);
    for (const sid of [chain.current, chain.other]) await check(chain, sid, tally);
    chain.lastMoment = killStep;
    return true;
  }
  try {
    await proc.waitStderr('Type a message');
  } catch (err) {
    proc.kill();
    const code = await proc.closed;
    if (code === 3) tally.fail('heldByDeadLock', `${chain.current}: ${proc.stderr().trim()}`);
    else tally.fail('sessionsUnreadable', `${chain.current ?? 'new session'} did not start: ${String(err)}`);
    return false;
  }
  const startMs = Date.now() - started;
  if (isRestart) restarted(chain, startMs, restarts, tally);
  chain.lastMoment = killStep;
  if (!chain.current) {
    chain.current = /· session (\S+) ·/.exec(proc.stderr())?.[1] ?? '';
    chain.shown.set(chain.current, []);
  }
  try {
    let offset = await sync(proc);
    const before: Step[] = Array.from({ length: rng.int(0, 3) }, () => rng.pick<Step>(['chat', 'chat', 'chat', 'save', 'reset', 'load']));
    if (killStep === 'autosave' || killStep === 'streaming') before.push('chat');
    for (const step of before) offset = await completeStep(chain, proc, step, offset, tally);
    await killDuring(chain, proc, killStep, offset, tally);
  } catch (err) {
    tally.fail('unexpectedOutput', `${chain.tag}: ${String(err)}`);
    proc.kill();
    await proc.closed;
  }
  if (options.store === undefined) tornSnapshots(chain, tally);
  for (const id of [chain.current, chain.other]) await check(chain, id, tally);
  return true;
}

/** The environment that points chatkeep at the run's PostgreSQL store, if any. */
function storeEnv(options: Kill9Options): Record<string, string> {
  return options.store === undefined ? {} : { CHATKEEP_STORE: options.store };
}

/** Records a restart's time; a slow one (over 2 s) is counted and noted with the kill before it. */
function restarted(chain: Chain, ms: number, restarts: number[], tally: Tally): void {
  restarts.push(ms);
  tally.max('slowestRestartMs', ms);
  if (ms > 2000) {
    tally.add('slowRestarts');
    tally.notes.push(`restart took ${ms} ms after a kill while ${chain.lastMoment ?? 'starting'}`);
  }
}
