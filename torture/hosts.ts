/**
 * kill -9 of the embedding examples (docs/design.md §15): `examples/embed-node-repl.mjs` (node:repl,
 * `attach`), `examples/embed-readline.mjs` (`attachReadline`) and the readline host that streams
 * its answer through `beginReply().push()` (test/hosts/streaming-readline.mjs), each in a pty.
 * Lines are typed and the host is killed at a random moment: at the prompt, mid-typing, or while
 * the answer is being printed. Then the store is read with the library: every line and answer
 * that was on screen is there, in order (a streamed answer's shown part at least); and the next
 * start of the host resumes the session at once, the dead process's lock taken over.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { openSessions } from '../src/index.js';
import { Tally, type PartResult } from './part.js';
import { ROOT, freshDir } from './proc.js';
import { spawnTerm, type Term } from './pty.js';
import { createRandom, type Random } from './random.js';

/** How each host is typed at and how it answers. */
interface Host {
  name: string;
  script: string;
  prompt: RegExp;
  /** What to type for token `x` (unique to the line), and the answer it gives. */
  line(x: string): { typed: string; answer: string };
  /** The answer streams: a part of it on screen must be stored (at least that part). */
  streams: boolean;
}

export const HOSTS: Host[] = [
  { name: 'node-repl', script: 'examples/embed-node-repl.mjs', prompt: /embed> $/, streams: false, line: (x) => ({ typed: `v = "${x}".toUpperCase()`, answer: `'${x.toUpperCase()}'` }) },
  { name: 'readline', script: 'examples/embed-readline.mjs', prompt: /you> $/, streams: false, line: (x) => ({ typed: x, answer: `${x.toUpperCase()}!` }) },
  {
    name: 'streaming',
    script: 'test/hosts/streaming-readline.mjs',
    prompt: /you> $/,
    streams: true,
    line: (x) => ({ typed: x, answer: `${x.toUpperCase()}:${Array.from({ length: 30 }, (_, i) => ` w${i}`).join('')}` }),
  },
];

const MOMENTS = ['idle', 'typing', 'answering', 'answering'] as const;
type Moment = (typeof MOMENTS)[number];

export interface HostsOptions {
  root: string;
  /** Kills in all, shared out over the hosts. */
  trials: number;
  /** Kills per data home, each start resuming the session the last one killed (default 5). */
  chain?: number;
  workers?: number;
  seed?: number;
}

interface Stored {
  role: string;
  content: string;
  interrupted?: boolean;
}

export async function run(options: HostsOptions): Promise<PartResult> {
  const tally = new Tally('hosts', { trials: 0, linesShown: 0, answersOnScreenAtKill: 0, partialAnswersShown: 0, resumedAfterKill: 0 }, ['messagesLost', 'heldByDeadLock', 'notResumed', 'crashes', 'partialsNotMarkedInterrupted']);
  for (const moment of new Set(MOMENTS)) tally.figures[`killedWhile${moment[0]!.toUpperCase()}${moment.slice(1)}`] = 0;
  const chain = options.chain ?? 5;
  const chains: { host: Host; trials: number; seed: number }[] = [];
  for (let left = options.trials, n = 0; left > 0; n++) {
    const trials = Math.min(left, chain);
    left -= trials;
    chains.push({ host: HOSTS[n % HOSTS.length]!, trials, seed: (options.seed ?? 1) * 1000 + n });
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let c = chains[next++]; c; c = chains[next++]) {
      const { host, trials, seed } = c;
      await runChain(host, trials, createRandom(seed), options.root, tally).catch((err: unknown) => tally.fail('crashes', `${host.name} chain ${seed}: ${String(err)}`));
    }
  };
  await Promise.all(Array.from({ length: options.workers ?? 2 }, worker));
  return tally.result();
}

/** One data home: start, type, kill -9, check the store; `trials` times, then one start more to see the last kill resumed. */
async function runChain(host: Host, trials: number, rng: Random, root: string, tally: Tally): Promise<void> {
  const home = freshDir(root, `${host.name}-`);
  let id: string | undefined;
  let stored: Stored[] = [];
  for (let t = 0; t <= trials; t++) {
    const label = `${host.name} ${home} trial ${t}`;
    const term = spawnTerm(id ? [id] : [], { home, cwd: ROOT, script: host.script, env: host.streams ? { HOST_WORD_DELAY_MS: '10' } : {} });
    try {
      const opened = await opening(term, host, label, tally);
      if (!opened) return;
      if (id !== undefined && (opened.id !== id || opened.count !== stored.length)) {
        tally.fail('notResumed', `${label}: started as ${opened.id} with ${opened.count} messages, not ${id} with ${stored.length}`);
        return;
      }
      if (id !== undefined) tally.add('resumedAfterKill');
      id = opened.id;
      if (t === trials) return;
      const moment = MOMENTS[rng.int(0, MOMENTS.length - 1)]!;
      const token = `t${t}${rng.int(100, 999)}`;
      const shown = await typeAndKill(term, host, moment, token, rng);
      tally.add('trials');
      tally.add(`killedWhile${moment[0]!.toUpperCase()}${moment.slice(1)}`);
      tally.add('linesShown', shown.filter((s) => s.role === 'user').length);
      if (shown.at(-2)?.content === host.line(`${token}y`).typed) tally.add('answersOnScreenAtKill');
      if (shown.some((s) => s.prefix)) tally.add('partialAnswersShown');
      const sessions = await openSessions({ home, cwd: ROOT });
      const now = (await sessions.read(id).catch(() => undefined))?.messages.map((m): Stored => ({ role: m.role, content: m.content, ...(m.interrupted ? { interrupted: true } : {}) }));
      if (!now) {
        if (stored.length + shown.length > 0) tally.fail('messagesLost', `${label}: ${id} cannot be read after the kill`);
        return;
      }
      check(stored, shown, now, label, tally);
      stored = now;
    } finally {
      if (!term.ended()) term.kill('SIGKILL');
      await term.exited;
    }
  }
}

/** Waits for the banner and the prompt; a refusal (the dead process's lock not taken over) is counted. */
async function opening(term: Term, host: Host, label: string, tally: Tally): Promise<{ id: string; count: number } | undefined> {
  try {
    await term.waitFor(/session (session-\S+) · (\d+) messages? · autosave/);
    await term.waitFor(host.prompt);
  } catch (err) {
    const screen = term.screen();
    if (/in use|held by/i.test(screen)) tally.fail('heldByDeadLock', `${label}: ${screen.trim().split('\n').at(-1)}`);
    else tally.fail('crashes', `${label}: ${String(err)}`);
    return undefined;
  }
  const [, id, count] = /session (session-\S+) · (\d+) messages? · autosave/.exec(term.screen())!;
  return { id: id!, count: Number(count) };
}

interface Shown extends Stored {
  /** Only this much of the answer was on screen. */
  prefix?: boolean;
}

/** Types 0–2 whole exchanges, then kills at `moment`; returns the messages that were on screen when it died. */
async function typeAndKill(term: Term, host: Host, moment: Moment, token: string, rng: Random): Promise<Shown[]> {
  const shown: Shown[] = [];
  for (let i = rng.int(moment === 'idle' ? 1 : 0, 2); i > 0; i--) {
    const { typed, answer } = host.line(`${token}x${i}`);
    const from = term.screen().length;
    term.write(`${typed}\r`);
    await term.waitFor(host.prompt, { from: from + typed.length + answer.length });
    shown.push({ role: 'user', content: typed }, { role: 'assistant', content: answer });
  }
  const from = term.screen().length;
  const { typed, answer } = host.line(`${token}y`);
  // The host's echo of what was typed comes first: the pty has the keys (node-pty writes
  // later, and a write to a killed pty fails), the kill comes while the host reads or answers.
  if (moment === 'typing') {
    term.write(typed.slice(0, -1));
    await term.waitFor(typed.slice(0, -1), { from });
    await sleep(rng.int(0, 30));
  } else if (moment === 'answering') {
    term.write(`${typed}\r`);
    await term.waitFor(typed, { from });
    await sleep(rng.int(0, host.streams ? 500 : 40));
  } else await sleep(rng.int(0, 50));
  term.kill('SIGKILL');
  await term.exited;
  if (moment !== 'answering') return shown;
  // What of the last answer reached the screen before the kill: all of it, a part, or none.
  const after = term.screen().slice(from + typed.length);
  if (!host.streams) return after.includes(answer) ? [...shown, { role: 'user', content: typed }, { role: 'assistant', content: answer }] : shown;
  const at = after.indexOf(answer.slice(0, answer.indexOf(':') + 1));
  if (at === -1) return shown;
  const visible = after.slice(at).split('\n')[0]!.trimEnd();
  const whole = visible === answer;
  return [...shown, { role: 'user', content: typed }, { role: 'assistant', content: visible, ...(whole ? {} : { prefix: true }) }];
}

/** `now` (read after the kill) holds `before`, then every shown message in order; a partial answer kept at least as shown and marked interrupted. */
function check(before: Stored[], shown: Shown[], now: Stored[], label: string, tally: Tally): void {
  const want = [...before, ...shown];
  const bad = want.findIndex((w, i) => {
    const got = now[i];
    if (!got || got.role !== w.role) return true;
    return 'prefix' in w && w.prefix ? !got.content.startsWith(w.content) : got.content !== w.content;
  });
  if (bad !== -1) {
    tally.fail('messagesLost', `${label}: message ${bad} shown as ${JSON.stringify(want[bad])}, stored ${JSON.stringify(now[bad] ?? null)}`);
    return;
  }
  // A streamed answer cut short by the kill (it never got to w29) is kept as an interrupted message.
  const kept = now[want.length - 1];
  if (shown.at(-1)?.prefix && kept && !kept.content.endsWith(' w29') && !kept.interrupted) {
    tally.fail('partialsNotMarkedInterrupted', `${label}: ${JSON.stringify(kept)}`);
  }
}
