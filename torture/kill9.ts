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
import type { Message, SessionManager } from '../src/index.js';
import { Tally, type PartResult } from './part.js';
import { freshDir, runPiped, spawnPiped, type Piped } from './proc.js';
import { createRandom, type Random } from './random.js';

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
}

/** What was shown on screen for one session, in order. */
interface Shown {
  role: 'user' | 'assistant';
  text: string;
  /** The whole message was shown (else `text` is a prefix of a reply). */
  complete: boolean;
  /** Already counted as lost (each loss is reported once). */
  lost?: boolean;
}

type Moment = 'starting' | 'typing' | 'streaming' | 'autosave' | 'save' | 'reset' | 'load';
type Step = 'chat' | 'save' | 'reset' | 'load' | 'idle';

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
const REPLY_END = /\(read \d+ messages\)$/;

/** Runs `options.trials` kill -9 trials; figures: trials, messages acknowledged, messages lost, sessions unreadable, slowest restart. */
export async function run(options: Kill9Options): Promise<PartResult> {
  const tally = new Tally(
    'kill9',
    { trials: 0, messagesAcknowledged: 0, partialRepliesShown: 0 },
    ['messagesLost', 'sessionsUnreadable', 'partialsNotMarkedInterrupted', 'heldByDeadLock', 'falseDamage', 'unexpectedOutput'],
  );
  tally.figures.slowestRestartMs = 0;
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
  restarts.sort((a, b) => a - b);
  tally.figures.medianRestartMs = restarts.length ? Math.round(restarts[Math.floor(restarts.length / 2)]!) : 0;
  for (const [moment, count] of Object.entries(moments)) tally.figures[`killedDuring_${moment}`] = count;
  return tally.result();
}

interface Chain {
  home: string;
  cwd: string;
  rng: Random;
  manager: SessionManager;
  shown: Map<string, Shown[]>;
  current: string | undefined;
  other: string;
  counter: number;
  tag: string;
  /** Snapshot temp files already seen, so each kill mid-write is counted once. */
  temps: Set<string>;
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
  const manager = await openSessions({ home, cwd });
  const b = await manager.create();
  await b.close();
  const chain: Chain = { home, cwd, rng: createRandom(seed), manager, shown: new Map([[b.id, []]]), current: undefined, other: b.id, counter: 0, tag: `c${seed}`, temps: new Set() };
  for (let t = 0; t < trials; t++) {
    const ok = await trial(chain, options, tally, moments, restarts, t > 0);
    tally.add('trials');
    if (!ok) return;
  }
  // The last kill too: the session must load in the binary and in `sessions show --json`.
  for (const id of [chain.current, chain.other]) {
    if (id === undefined) continue;
    const resumed = await runPiped(['--session-id', id, '--autosave', 'off'], '/quit\n', { home, cwd });
    restarts.push(resumed.ms);
    tally.max('slowestRestartMs', resumed.ms);
    if (resumed.code === 3) tally.fail('heldByDeadLock', `${id}: ${resumed.stderr.trim()}`);
    else if (resumed.code !== 0) tally.fail('sessionsUnreadable', `${id} did not resume (exit ${resumed.code}): ${resumed.stderr.trim()}`);
    const show = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
    try {
      const json = JSON.parse(show.stdout) as { messages: unknown[] };
      if (show.code !== 0 || !Array.isArray(json.messages)) throw new Error(`exit ${show.code}`);
    } catch (err) {
      tally.fail('sessionsUnreadable', `sessions show ${id} --json failed (${String(err)}): ${show.stderr.trim()}`);
    }
    await check(chain, id, tally);
  }
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
  const killStep = rng.pick<Moment>(['starting', 'typing', 'streaming', 'streaming', 'streaming', 'autosave', 'save', 'reset', 'load']);
  const autosave = killStep === 'autosave' || rng.chance(0.4) ? '1s' : 'off';
  const args = ['--autosave', autosave, ...(chain.current ? ['--session-id', chain.current] : [])];
  const started = Date.now();
  const proc = spawnPiped(args, {
    home: chain.home,
    cwd: chain.cwd,
    env: { CHATKEEP_ECHO_DELAY_MS: String(options.echoDelayMs ?? 20) },
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
    tornSnapshots(chain, tally);
    for (const sid of [chain.current, chain.other]) await check(chain, sid, tally);
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
  if (isRestart) {
    restarts.push(startMs);
    tally.max('slowestRestartMs', startMs);
  }
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
  tornSnapshots(chain, tally);
  for (const id of [chain.current, chain.other]) await check(chain, id, tally);
  return true;
}

/** Asks for known output and waits for it: everything printed before (a resumed transcript) is behind the returned offset. */
async function sync(proc: Piped): Promise<number> {
  const from = proc.stdout().length;
  proc.write('/help save\n');
  await proc.waitStdout('optionally setting the title\n', { from });
  return proc.stdout().length;
}

function nextMessage(chain: Chain): string {
  chain.counter++;
  const words = Array.from({ length: chain.rng.int(2, 5) }, () => chain.rng.pick(WORDS));
  return `${chain.tag}m${chain.counter} ${words.join(' ')}`;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Runs a step to its end; returns the new stdout offset. */
async function completeStep(chain: Chain, proc: Piped, step: Step, offset: number, tally: Tally): Promise<number> {
  const id = chain.current!;
  switch (step) {
    case 'chat': {
      const message = nextMessage(chain);
      proc.write(`${message}\n`);
      const reply = new RegExp(`^Echo: ${escape(message)} \\(read \\d+ messages\\)\\n$`);
      await proc.waitStdout(reply, { from: offset });
      const text = proc.stdout().slice(offset, -1);
      acknowledge(chain, id, tally, { role: 'user', text: message, complete: true }, { role: 'assistant', text, complete: true });
      return proc.stdout().length;
    }
    case 'save': {
      proc.write(`/save title ${chain.counter}\n`);
      await proc.waitStdout(/^Saved \S+ as "title \d+" \(\d+ messages?\) to .*\n$/, { from: offset });
      return proc.stdout().length;
    }
    case 'reset': {
      proc.write('/reset\n');
      await proc.waitStdout(/^(Archived \d+ messages? inside \S+; the conversation starts afresh\.|The conversation is already empty\.)\n$/, { from: offset });
      return proc.stdout().length;
    }
    case 'load': {
      const errors = proc.stderr().length;
      proc.write(`/load ${chain.other}\n`);
      const refused = proc.waitStderr(/in use by/, { from: errors }).then(() => true);
      const switched = proc.waitStdout(`Switched to ${chain.other}.\n`, { from: offset }).then(() => false);
      if (await Promise.race([refused, switched])) {
        refused.catch(() => undefined);
        tally.fail('heldByDeadLock', `/load ${chain.other}: ${proc.stderr().slice(errors).trim()}`);
        throw new Error('cannot go on after a refused /load');
      }
      refused.catch(() => undefined);
      [chain.current, chain.other] = [chain.other, id];
      return sync(proc);
    }
    case 'idle': {
      await sleep(chain.rng.int(100, 1200));
      if (proc.stdout().length !== offset) tally.fail('unexpectedOutput', `output while idle: ${proc.stdout().slice(offset)}`);
      return offset;
    }
  }
}

/** Starts the step of `moment` and kills the process at a random point of it. */
async function killDuring(chain: Chain, proc: Piped, moment: Moment, offset: number, tally: Tally): Promise<void> {
  const { rng } = chain;
  const id = chain.current!;
  let message: string | undefined;
  switch (moment) {
    case 'typing':
      proc.write(nextMessage(chain).slice(0, rng.int(1, 12)));
      await sleep(rng.int(0, 30));
      break;
    case 'streaming':
      message = nextMessage(chain);
      proc.write(`${message}\n`);
      // A reply of ~8 words at 20 ms each: from before the user's line is stored to after the reply ends.
      await sleep(rng.int(0, 220));
      break;
    case 'autosave':
      await sleep(rng.int(0, 2200));
      break;
    case 'save':
      proc.write(`/save title ${chain.counter}\n`);
      await sleep(rng.int(0, 25));
      break;
    case 'reset':
      proc.write('/reset\n');
      await sleep(rng.int(0, 25));
      break;
    case 'load':
      proc.write(`/load ${chain.other}\n`);
      await sleep(rng.int(0, 40));
      break;
  }
  proc.kill('SIGKILL');
  await proc.closed;
  const shown = proc.stdout().slice(offset);
  if (message !== undefined && shown !== '') {
    const expected = `Echo: ${message} (read `;
    const rest = shown.slice(expected.length);
    const plausible =
      shown.length <= expected.length ? expected.startsWith(shown) : shown.startsWith(expected) && /^\d+/.test(rest) && ' messages)\n'.startsWith(rest.replace(/^\d+/, ''));
    if (!plausible) tally.fail('unexpectedOutput', `reply to ${message} shown as ${JSON.stringify(shown)}`);
    const complete = shown.endsWith('\n');
    if (!complete) tally.add('partialRepliesShown');
    acknowledge(chain, id, tally, { role: 'user', text: message, complete: true }, { role: 'assistant', text: complete ? shown.slice(0, -1) : shown, complete });
  } else if (moment === 'load' && shown.includes(`Switched to ${chain.other}.`)) {
    [chain.current, chain.other] = [chain.other, id];
  } else if (moment !== 'streaming' && moment !== 'typing' && moment !== 'load' && /Echo:/.test(shown)) {
    tally.fail('unexpectedOutput', `reply without a message: ${shown}`);
  }
}

function acknowledge(chain: Chain, id: string, tally: Tally, ...messages: Shown[]): void {
  chain.shown.get(id)!.push(...messages);
  tally.add('messagesAcknowledged', messages.length);
}

/** A kill during a snapshot write leaves its temp file: counts how often a kill landed there. */
function tornSnapshots(chain: Chain, tally: Tally): void {
  for (const id of [chain.current, chain.other]) {
    if (!id) continue;
    const dir = join(chain.manager.project.dir, 'sessions', id);
    const names = readdirSync(dir);
    for (const name of names.filter((n) => n.startsWith('.session.json.tmp-'))) {
      if (chain.temps.has(name)) continue;
      chain.temps.add(name);
      tally.add('killedMidSnapshotWrite');
    }
    const damaged = names.filter((n) => n.includes('.corrupt-'));
    if (damaged.length > 0) tally.fail('falseDamage', `${id}: a crash was taken for damage: ${damaged.join(', ')}`);
  }
}

/** Reads the session without its lock and looks for everything shown, in order. */
async function check(chain: Chain, id: string | undefined, tally: Tally): Promise<void> {
  if (!id) return;
  let messages: Message[];
  try {
    const snapshot = await chain.manager.read(id);
    messages = [...snapshot.archived.flatMap((segment) => segment.messages), ...snapshot.messages];
  } catch (err) {
    tally.fail('sessionsUnreadable', `${id}: ${String(err)}`);
    return;
  }
  let at = 0;
  const shown = chain.shown.get(id) ?? [];
  for (const [i, want] of shown.entries()) {
    if (want.lost) continue;
    const found = messages.findIndex(
      (m, j) => j >= at && m.role === want.role && (want.complete ? m.content === want.text : m.content.startsWith(want.text)),
    );
    if (found === -1) {
      tally.fail('messagesLost', `${id}: shown message ${i} ${JSON.stringify(want)} is not in the session (${messages.length} messages)`);
      want.lost = true;
      continue;
    }
    const m = messages[found]!;
    if (!want.complete && !REPLY_END.test(m.content) && !m.interrupted) {
      tally.fail('partialsNotMarkedInterrupted', `${id}: ${JSON.stringify(m.content)}`);
    }
    at = found + 1;
  }
}
