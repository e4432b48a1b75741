/**
 * Hang-ups: the terminal of a REPL is closed (the pty goes away, then SIGHUP, as when its
 * window is closed) at a random moment: idle at the prompt, mid-typing, mid-reply, inside the
 * /load picker. Afterwards: the process exited 0, the snapshot it wrote holds everything shown
 * (a reply's shown part at least, marked interrupted), and nothing of the lock is left.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSessions } from '../src/index.js';
import { layout } from '../src/store/file/layout.js';
import { runTrials, Tally, type PartResult } from './part.js';
import { freshDir } from './proc.js';
import { spawnTerm, type Term } from './pty.js';
import type { Random } from './random.js';

export const HANGUP_MOMENTS = ['idle', 'typing', 'reply', 'picker'] as const;
type Moment = (typeof HANGUP_MOMENTS)[number];

export interface HangupOptions {
  root: string;
  trials: number;
  /** Trials run side by side (default 2). */
  workers?: number;
  seed?: number;
}

export async function run(options: HangupOptions): Promise<PartResult> {
  const tally = new Tally('hangup', { trials: 0, idle: 0, typing: 0, reply: 0, picker: 0, messagesShown: 0 }, [
    'crashes',
    'sessionsWithoutLastShownMessage',
    'ownerFilesLeftBehind',
  ]);
  await runTrials(options.trials, options.workers ?? 2, options.seed ?? 1, async (t, rng) => {
    const moment = HANGUP_MOMENTS[t % HANGUP_MOMENTS.length]!;
    await trial(moment, t, rng, options.root, tally).catch((err: unknown) => tally.fail('crashes', `trial ${t} (${moment}): ${String(err)}`));
    tally.add('trials');
    tally.add(moment);
  });
  return tally.result();
}

interface Shown {
  role: string;
  content: string;
  /** Only this much of the content was on screen (a reply cut short). */
  prefix?: boolean;
}

async function trial(moment: Moment, t: number, rng: Random, root: string, tally: Tally): Promise<void> {
  const home = freshDir(root, 'hup-home-');
  const cwd = freshDir(root, 'hup-project-');
  const manager = await openSessions({ home, cwd });
  if (moment === 'picker') {
    const older = await manager.create();
    await older.append({ role: 'user', content: 'an older conversation' });
    await older.close();
  }
  const term = spawnTerm([], { home, cwd, env: { CHATKEEP_ECHO_DELAY_MS: moment === 'reply' ? '40' : '0' } });
  await term.waitFor(/› $/);
  const id = /· session (\S+) ·/.exec(term.screen())![1]!;
  const shown: Shown[] = [];
  for (let i = rng.int(moment === 'idle' ? 0 : 1, 2); i > 0; i--) {
    const text = `t${t} line ${i}`;
    const reply = await exchange(term, text);
    shown.push({ role: 'user', content: text }, { role: 'assistant', content: reply });
  }
  if (moment === 'typing') {
    term.write(`t${t} half a line`);
    await term.waitFor(`t${t} half a line`);
  } else if (moment === 'reply') {
    const text = `t${t} ${Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ')}`;
    const from = term.screen().length;
    term.write(`${text}\r`);
    await term.waitFor('Echo: ', { from });
    await sleep(rng.int(0, 400));
    const visible = /Echo: [^\n]*/.exec(term.screen().slice(from))![0].trimEnd();
    shown.push({ role: 'user', content: text }, { role: 'assistant', content: visible, prefix: true });
  } else if (moment === 'picker') {
    const from = term.screen().length;
    term.write('/load\r');
    await term.waitFor('Load which session?', { from });
  }
  await sleep(rng.int(0, 150));
  term.destroy();
  const code = await Promise.race([term.exited, sleep(20_000).then(() => -1)]);
  if (code !== 0) {
    tally.fail('crashes', `trial ${t} (${moment}): exit ${code === -1 ? 'never came' : code}`);
    if (code === -1) term.kill('SIGKILL');
  }
  tally.add('messagesShown', shown.length);
  checkSaved(layout.project(manager.store.location, manager.project.key), id, shown, `trial ${t} (${moment})`, tally);
}

/** Types a line and waits for its whole reply and the next prompt; returns the reply. */
async function exchange(term: Term, text: string): Promise<string> {
  const from = term.screen().length;
  term.write(`${text}\r`);
  await term.waitFor(/› $/, { from: from + text.length + 1 });
  return /Echo: [^\n]*/.exec(term.screen().slice(from))![0].trimEnd();
}

/** The snapshot the hang-up wrote (not the journal, which a crash would leave) holds what was shown; no lock file is left. */
function checkSaved(projectDir: string, id: string, shown: Shown[], label: string, tally: Tally): void {
  const dir = join(layout.sessions(projectDir), id);
  if (!existsSync(dir)) {
    // A session that never held a message is not kept (docs/design.md §3); one that showed messages must be.
    if (shown.length > 0) tally.fail('messagesLost', `${label}: ${shown.length} shown, but ${id} was not kept`);
    return;
  }
  const left = readdirSync(dir).filter((name) => name.startsWith('lock'));
  if (left.length > 0) tally.fail('ownerFilesLeftBehind', `${label}: ${left.join(', ')} left in ${dir}`);
  if (shown.length === 0) return;
  const file = layout.snapshot(dir);
  const saved = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { json: { status: string; messages: { role: string; content: string }[] } }).json : undefined;
  const messages = saved?.messages ?? [];
  const missing = shown.findIndex((want, i) => {
    const got = messages[i];
    return !got || got.role !== want.role || (want.prefix ? !got.content.startsWith(want.content) : got.content !== want.content);
  });
  if (!saved || saved.status !== 'closed' || missing !== -1) {
    tally.fail('sessionsWithoutLastShownMessage', `${label}: ${id} saved ${saved ? `${saved.status}, ${messages.length} messages` : 'no snapshot'}; shown ${JSON.stringify(shown)}`);
  }
}
