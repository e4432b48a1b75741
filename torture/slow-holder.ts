/**
 * A slow holder: a REPL frozen (SIGSTOP) or sitting in a picker for longer than the lock's
 * stale time while another process, on this host or on another one (its own UTS namespace
 * renamed with `hostname`), tries to take the session. Afterwards: no session had two writers,
 * nothing typed by anyone is missing from the sessions on disk, and every `Saved <id> (<n>
 * messages).` line names a session that has exactly n messages on disk.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { openSessions } from '../src/index.js';
import type { SessionManager } from '../src/index.js';
import { runTrials, Tally, type PartResult } from './part.js';
import { freshDir, spawnPiped, type Piped } from './proc.js';
import { spawnTerm, type Term } from './pty.js';
import type { Random } from './random.js';

/** How the holder is slow, and who tries to take its session meanwhile. */
export const SLOW_KINDS = [
  'frozen, other host takes over and types',
  'frozen, other host takes over and quits',
  'frozen, same host tries',
  'picker, other host tries',
  'picker, same host tries',
] as const;
type Kind = (typeof SLOW_KINDS)[number];

export interface SlowHolderOptions {
  root: string;
  trials: number;
  /** The lock's stale time (default 2000 ms, the least proper-lockfile allows); each trial waits 2.5 of them. */
  staleMs?: number;
  /** Trials run side by side (default 2). */
  workers?: number;
  seed?: number;
}

export async function run(options: SlowHolderOptions): Promise<PartResult> {
  const tally = new Tally('slow-holder', { trials: 0, takeovers: 0, forks: 0, takenBack: 0, refused: 0 }, [
    'sessionsWithTwoWriters',
    'typedMessagesLost',
    'falseSavedLines',
    'crashes',
  ]);
  await runTrials(options.trials, options.workers ?? 2, options.seed ?? 1, async (t, rng) => {
    const kind = SLOW_KINDS[t % SLOW_KINDS.length]!;
    await trial(kind, t, rng, options, tally).catch((err: unknown) => tally.fail('crashes', `trial ${t} (${kind}): ${String(err)}`));
    tally.add('trials');
  });
  return tally.result();
}

/** One line typed and its echo seen; returns the line. */
async function say(term: Term, text: string): Promise<string> {
  const from = term.screen().length;
  term.write(`${text}\r`);
  await term.waitFor(`Echo: ${text}`, { from });
  await term.waitFor(/› $/, { from });
  return text;
}

async function trial(kind: Kind, t: number, rng: Random, options: SlowHolderOptions, tally: Tally): Promise<void> {
  const staleMs = options.staleMs ?? 2000;
  const env = { CHATKEEP_LOCK_STALE_MS: String(staleMs) };
  const home = freshDir(options.root, 'slow-home-');
  const cwd = freshDir(options.root, 'slow-project-');
  const where = { home, cwd, env };
  const manager = await openSessions({ home, cwd });
  if (kind.startsWith('picker')) {
    const older = await manager.create();
    await older.append({ role: 'user', content: 'an older conversation' });
    await older.close();
  }
  const holder = spawnTerm([], where);
  await holder.waitFor(/› $/);
  const id = /· session (\S+) ·/.exec(holder.screen())![1]!;
  const typedByHolder: string[] = [];
  for (let i = rng.int(1, 2); i > 0; i--) typedByHolder.push(await say(holder, `t${t} before ${i}`));

  // Slow for 2.5 stale times: frozen, or a person who has not chosen yet.
  const picker = kind.startsWith('picker');
  if (picker) {
    const from = holder.screen().length;
    holder.write('/load\r');
    await holder.waitFor('Load which session?', { from });
  } else {
    process.kill(holder.pid, 'SIGSTOP');
  }
  await sleep(2.5 * staleMs);

  const typedElsewhere: string[] = [];
  let other: Piped | undefined;
  const otherHost = kind.includes('other host');
  const otherTypes = kind.endsWith('and types') || !kind.includes('takes over');
  const line = `t${t} elsewhere`;
  other = spawnPiped(['--session-id', id], { ...where, ...(otherHost ? { host: 'other-host' } : {}) });
  other.write(otherTypes ? `${line}\n` : '/quit\n');
  if (kind.includes('takes over')) {
    if (otherTypes) {
      await other.waitStdout(`Echo: ${line}`);
      typedElsewhere.push(line);
    } else {
      if ((await other.closed) !== 0) tally.fail('crashes', `trial ${t}: the other host could not take the session over: ${other.stderr()}`);
      await checkSaved(other.stderr(), manager, t, tally);
    }
    tally.add('takeovers');
  } else {
    // A live holder keeps its session: the other process must be refused (exit 3).
    const code = await other.closed;
    if (code === 3) tally.add('refused');
    else {
      tally.fail('sessionsWithTwoWriters', `trial ${t} (${kind}): a second process got ${id} from its live holder (exit ${code})`);
      if (other.stdout().includes(`Echo: ${line}`)) typedElsewhere.push(line);
    }
    other = undefined;
  }

  if (picker) {
    const from = holder.screen().length;
    holder.write('\x1b');
    await holder.waitFor('Cancelled', { from });
    await holder.waitFor(/› $/, { from });
  } else {
    process.kill(holder.pid, 'SIGCONT');
  }
  const typedAfter: string[] = [];
  for (let i = rng.int(1, 2); i > 0; i--) typedAfter.push(await say(holder, `t${t} after ${i}`));
  holder.write('/quit\r');
  const holderExit = await holder.exited;
  if (holderExit !== 0) tally.fail('crashes', `trial ${t}: the holder exited ${holderExit}: ${holder.screen().slice(-400)}`);
  const screen = holder.screen();
  await checkSaved(screen, manager, t, tally);
  if (other && otherTypes) {
    other.write('/quit\n');
    const code = await other.closed;
    if (code !== 0) tally.fail('crashes', `trial ${t}: the other process exited ${code}: ${other.stderr()}`);
    await checkSaved(other.stderr(), manager, t, tally);
  }

  const forkId = /new session (\S+), a fork of/.exec(screen)?.[1];
  if (forkId) tally.add('forks');
  if (screen.includes(`Session ${id} is held again`)) tally.add('takenBack');
  await check({ manager, id, forkId, typedByHolder, typedAfter, typedElsewhere, holderScreen: screen, t, tally });
}

/** What a trial left on disk against what was typed and claimed. */
async function check(c: {
  manager: SessionManager;
  id: string;
  forkId: string | undefined;
  typedByHolder: string[];
  typedAfter: string[];
  typedElsewhere: string[];
  holderScreen: string;
  t: number;
  tally: Tally;
}): Promise<void> {
  const contents = async (id: string): Promise<string[]> => (await c.manager.read(id)).messages.map((m) => m.content);
  const session = await contents(c.id);
  const fork = c.forkId ? await contents(c.forkId) : [];
  if (c.typedElsewhere.length > 0 && c.typedAfter.some((line) => session.includes(line))) {
    c.tally.fail('sessionsWithTwoWriters', `trial ${c.t}: ${c.id} holds lines of both its holders: ${JSON.stringify(session)}`);
  }
  // The holder lost the session to a process that wrote to it: it saved nothing there.
  if (c.typedElsewhere.length > 0 && c.holderScreen.includes(`Saved ${c.id} `)) {
    c.tally.fail('falseSavedLines', `trial ${c.t}: the holder that lost ${c.id} printed Saved for it`);
  }
  for (const line of [...c.typedByHolder, ...c.typedElsewhere]) {
    if (!session.includes(line)) c.tally.fail('typedMessagesLost', `trial ${c.t}: ${JSON.stringify(line)} is not in ${c.id}`);
  }
  for (const line of c.typedAfter) {
    if (!session.includes(line) && !fork.includes(line)) c.tally.fail('typedMessagesLost', `trial ${c.t}: ${JSON.stringify(line)} is in no session`);
  }
}

/** Right after a process exits: the last `Saved <id> (<n> messages).` it printed for each session matches the disk. */
async function checkSaved(text: string, manager: SessionManager, t: number, tally: Tally): Promise<void> {
  const claims = new Map<string, number>();
  for (const m of text.matchAll(/Saved (\S+) \((\d+) messages?\)/g)) claims.set(m[1]!, Number(m[2]));
  for (const [id, count] of claims) {
    const onDisk = (await manager.read(id)).messages.length;
    if (onDisk !== count) tally.fail('falseSavedLines', `trial ${t}: "Saved ${id} (${count} messages)" but it has ${onDisk}`);
  }
}
