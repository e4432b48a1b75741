/**
 * Races: many processes creating sessions in the same second, two processes (library and
 * REPL) racing for one session, and autosave ticks racing /save, /load, /reset and /quit.
 */
import { openSessions } from '../src/index.js';
import type { Message } from '../src/index.js';
import { startChild, writeScript, type LineChild } from './children.js';
import { Tally, type PartResult } from './part.js';
import { freshDir, runPiped, spawnPiped, type Piped } from './proc.js';
import { createRandom, type Random } from './random.js';

/** Sizes of a races run. */
export interface RacesOptions {
  root: string;
  /** Processes creating a session in the same second (default 200). */
  creators?: number;
  /** Library `resume` races between two processes (default 200). */
  lockRounds?: number;
  /** REPL-against-REPL races for one session (default 20). */
  replRounds?: number;
  /** REPL runs with a 1 s autosave under a stream of commands (default 8). */
  autosaveRuns?: number;
  /** Lines per autosave run (default 150). */
  autosaveLines?: number;
  seed?: number;
}

/** Runs every race; figures must show one owner per ID and per lock, and no message lost or doubled. */
export async function run(options: RacesOptions): Promise<PartResult> {
  const tally = new Tally('races', { creators: 0, distinctIds: 0, idsInOneSecond: 0, lockRounds: 0, replRounds: 0, autosaveRuns: 0, messagesSent: 0 }, [
    'duplicateIds',
    'failedCreates',
    'roundsWithoutOneWinner',
    'losersMisreported',
    'messagesLost',
    'messagesDuplicated',
    'repliesWrong',
    'runsFailed',
  ]);
  const rng = createRandom(options.seed ?? 1);
  await createRace(options.root, options.creators ?? 200, tally);
  await lockRace(options.root, options.lockRounds ?? 200, rng, tally);
  await replRace(options.root, options.replRounds ?? 20, tally);
  for (let i = 0; i < (options.autosaveRuns ?? 8); i++) await autosaveRace(options.root, i, options.autosaveLines ?? 150, rng, tally);
  return tally.result();
}

const CREATE = `
const { openSessions } = await import(LIB);
const [home, cwd, at] = process.argv.slice(2);
// Every creator's clock reads the same second: the worst case for ID clashes.
const sessions = await openSessions({ home, cwd, now: () => new Date(Number(at)) });
process.stdin.setEncoding('utf8');
process.stdin.once('data', async () => {
  try {
    const session = await sessions.create();
    console.log('id ' + session.id);
    // A session exists once it holds a message: without one, closing keeps only its ID.
    await session.append({ role: 'user', content: 'created in a race' });
    await session.close();
  } catch (err) {
    console.log('error ' + JSON.stringify(String(err && err.stack || err)));
  }
  process.exit(0);
});
console.log('ready');
`;

async function createRace(root: string, creators: number, tally: Tally): Promise<void> {
  const home = freshDir(root, 'create-home-');
  const cwd = freshDir(root, 'create-project-');
  const script = writeScript(root, 'create', CREATE);
  const at = String(Date.now());
  const children: LineChild[] = Array.from({ length: creators }, () => startChild(script, [home, cwd, at]));
  const ready = await Promise.allSettled(children.map((c) => c.next(120_000)));
  // The barrier: every creator is waiting on stdin; one write each releases them together.
  for (const child of children) child.send('go');
  const ids: string[] = [];
  for (const [i, child] of children.entries()) {
    tally.add('creators');
    const line = ready[i]!.status === 'fulfilled' ? await child.next(120_000).catch((e: unknown) => `error ${String(e)}`) : 'error not ready';
    await child.exited;
    if (line.startsWith('id ')) ids.push(line.slice(3));
    else tally.fail('failedCreates', line);
  }
  const distinct = new Set(ids);
  tally.add('distinctIds', distinct.size);
  tally.add('duplicateIds', ids.length - distinct.size);
  const bases = new Map<string, number>();
  for (const id of ids) {
    const base = /^session-\d{8}-\d{6}/.exec(id)?.[0] ?? id;
    bases.set(base, (bases.get(base) ?? 0) + 1);
  }
  tally.max('idsInOneSecond', Math.max(0, ...bases.values()));
  // Each ID names a real, readable session of its own.
  const sessions = await openSessions({ home, cwd });
  for (const id of distinct) {
    const snapshot = await sessions.read(id).catch(() => undefined);
    if (snapshot?.id !== id) tally.fail('failedCreates', `${id} cannot be read back`);
  }
}

const RESUME = `
const { openSessions } = await import(LIB);
const { createInterface } = await import('node:readline');
const [home, cwd] = process.argv.slice(2);
const sessions = await openSessions({ home, cwd });
let held;
console.log('ready');
for await (const line of createInterface({ input: process.stdin })) {
  const [command, id] = line.split(' ');
  if (command === 'go') {
    try {
      held = await sessions.resume(id);
      console.log('won');
    } catch (err) {
      console.log('lost ' + JSON.stringify({ name: err.name, code: err.code, exitCode: err.exitCode, message: err.message }));
    }
  } else if (command === 'release') {
    await held?.close();
    held = undefined;
    console.log('released');
  }
}
`;

interface Lost {
  name: string;
  code: string;
  exitCode: number;
  message: string;
}

async function lockRace(root: string, rounds: number, rng: Random, tally: Tally): Promise<void> {
  const home = freshDir(root, 'lock-home-');
  const cwd = freshDir(root, 'lock-project-');
  const manager = await openSessions({ home, cwd });
  const session = await manager.create();
  await session.append({ role: 'user', content: 'kept: a session exists once it holds a message' });
  await session.close();
  const script = writeScript(root, 'resume', RESUME);
  const pair = [startChild(script, [home, cwd]), startChild(script, [home, cwd])];
  for (const child of pair) await child.next();
  for (let round = 0; round < rounds; round++) {
    tally.add('lockRounds');
    const order = rng.chance(0.5) ? pair : [pair[1]!, pair[0]!];
    for (const child of order) child.send(`go ${session.id}`);
    const answers = await Promise.all(pair.map((c) => c.next()));
    const winners = pair.filter((_, i) => answers[i] === 'won');
    if (winners.length !== 1) {
      tally.fail('roundsWithoutOneWinner', `library round ${round}: ${answers.join(' | ')}`);
      for (const child of winners) {
        child.send('release');
        await child.next();
      }
      continue;
    }
    const winner = winners[0]!;
    const loser = answers.find((a) => a !== 'won')!;
    const lost = JSON.parse(loser.slice('lost '.length)) as Lost;
    if (lost.name !== 'SessionInUseError' || lost.exitCode !== 3 || !lost.message.includes(`in use by process ${winner.pid} on `)) {
      tally.fail('losersMisreported', `library round ${round}: ${loser}`);
    }
    winner.send('release');
    await winner.next();
  }
  for (const child of pair) child.proc.stdin.end();
  await Promise.all(pair.map((c) => c.exited));
}

async function replRace(root: string, rounds: number, tally: Tally): Promise<void> {
  const home = freshDir(root, 'repl-home-');
  const cwd = freshDir(root, 'repl-project-');
  const manager = await openSessions({ home, cwd });
  const session = await manager.create();
  await session.append({ role: 'user', content: 'kept: a session exists once it holds a message' });
  await session.close();
  for (let round = 0; round < rounds; round++) {
    tally.add('replRounds');
    const pair: Piped[] = [0, 1].map(() => spawnPiped(['--session-id', session.id, '--autosave', 'off'], { home, cwd }));
    // Each either reaches its prompt (won) or exits (lost).
    const outcome = await Promise.all(
      pair.map((p) =>
        Promise.race([p.waitStderr('Type a message', { timeout: 20_000 }).then(() => 'won'), p.closed.then((code) => `exit ${code}`)]).catch(
          (e: unknown) => `error ${String(e)}`,
        ),
      ),
    );
    const winners = pair.filter((_, i) => outcome[i] === 'won');
    if (winners.length === 1) {
      const loser = pair.find((p) => p !== winners[0])!;
      const code = await loser.closed;
      const lines = loser.stderr().trim().split('\n');
      if (code !== 3 || lines.length !== 1 || !lines[0]!.includes(`in use by process ${winners[0]!.pid} on `)) {
        tally.fail('losersMisreported', `REPL round ${round}: exit ${code}: ${loser.stderr().trim()}`);
      }
    } else {
      tally.fail('roundsWithoutOneWinner', `REPL round ${round}: ${outcome.join(' | ')}`);
    }
    for (const p of winners) {
      p.write('/quit\n');
      if ((await p.closed) !== 0) tally.fail('runsFailed', `REPL round ${round}: the winner did not quit cleanly: ${p.stderr()}`);
    }
    for (const p of pair) p.kill();
  }
}

/** One REPL with a 1 s autosave fed a fast stream of chat lines, /save, /reset, /load and a final /quit. */
async function autosaveRace(root: string, runNo: number, lines: number, rng: Random, tally: Tally): Promise<void> {
  tally.add('autosaveRuns');
  const home = freshDir(root, 'autosave-home-');
  const cwd = freshDir(root, 'autosave-project-');
  const manager = await openSessions({ home, cwd });
  const a = await manager.create();
  await a.append({ role: 'user', content: 'kept: a session exists once it holds a message' });
  await a.close();
  const b = await manager.create();
  await b.append({ role: 'user', content: 'kept: a session exists once it holds a message' });
  await b.close();
  const sent: string[] = [];
  const input: string[] = [];
  let here = a.id;
  for (let i = 0; i < lines; i++) {
    const roll = rng.next();
    if (roll < 0.08) input.push(`/save run ${runNo} line ${i}`);
    else if (roll < 0.12) input.push('/reset');
    else if (roll < 0.16) {
      here = here === a.id ? b.id : a.id;
      input.push(`/load ${here}`);
    } else {
      const message = `r${runNo}n${i} ${rng.pick(['north', 'south', 'east', 'west'])} ${rng.pick(['wind', 'rain', 'sun'])}`;
      sent.push(message);
      input.push(message);
    }
  }
  // Half the runs leave by /quit, half by the end of input (Ctrl-D), each possibly mid-tick.
  if (rng.chance(0.5)) input.push('/quit');
  tally.add('messagesSent', sent.length);
  const result = await runPiped(['--session-id', a.id, '--autosave', '1s'], `${input.join('\n')}\n`, {
    home,
    cwd,
    env: { CHATKEEP_ECHO_DELAY_MS: '2' },
    timeout: 120_000,
  });
  if (result.code !== 0) tally.fail('runsFailed', `autosave run ${runNo}: exit ${result.code}: ${result.stderr.slice(-500)}`);
  const messages: Message[] = [];
  for (const id of [a.id, b.id]) {
    const snapshot = await manager.read(id);
    messages.push(...snapshot.archived.flatMap((s) => s.messages), ...snapshot.messages);
  }
  for (const message of sent) {
    const asked = messages.filter((m) => m.role === 'user' && m.content === message).length;
    const replies = messages.filter((m) => m.role === 'assistant' && m.content.startsWith(`Echo: ${message} (read `));
    if (asked === 0) tally.fail('messagesLost', `autosave run ${runNo}: ${message}`);
    if (asked > 1 || replies.length > 1) tally.fail('messagesDuplicated', `autosave run ${runNo}: ${message} ×${asked}, replies ×${replies.length}`);
    if (replies.length === 0 && asked > 0) tally.fail('messagesLost', `autosave run ${runNo}: the reply to ${message}`);
    if (replies.some((r) => r.interrupted || !/\(read \d+ messages?\)$/.test(r.content))) tally.fail('repliesWrong', `autosave run ${runNo}: ${message}`);
    if (!result.stdout.includes(`Echo: ${message} (read `)) tally.fail('repliesWrong', `autosave run ${runNo}: reply to ${message} not shown`);
  }
}
