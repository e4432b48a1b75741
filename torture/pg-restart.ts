/**
 * The PostgreSQL server stopped and started again under a chatting REPL (a real terminal):
 * while it is down the REPL says so in one line and does not hang; nothing is shown as sent
 * that is not stored; once it is back the chat goes on, and every message that was on screen
 * before is in the session the chat goes on in.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { openSessions, type Message } from '../src/index.js';
import { Tally, type PartResult } from './part.js';
import { freshDir } from './proc.js';
import { spawnTerm, type Term } from './pty.js';
import { createRandom, type Random } from './random.js';
import type { PartServer } from './postgres-server.js';

/** Size and place of a server-restart run. */
export interface PgRestartOptions {
  root: string;
  server: PartServer;
  /** Stops and restarts of the server, each under a fresh REPL (default 20). */
  trials?: number;
  seed?: number;
}

/** What the trial saw on screen, to be found in the store afterwards. */
interface Shown {
  role: 'user' | 'assistant';
  text: string;
  complete: boolean;
  /** For a partial reply: the message it answers (its text alone could prefix any reply). */
  answers?: string;
}

const PROMPT = /› $/;
/** Lines of the screen that are the prompt with what was typed, not something chatkeep said. */
const TYPED = /^› /;

export async function run(options: PgRestartOptions): Promise<PartResult> {
  const tally = new Tally('pg-restart', { trials: 0, haltedMidReply: 0, messagesAcknowledged: 0, outageNoticeLines: 0, slowestOutageNoticeMs: 0 }, [
    'outageNotSaid',
    'trialsWithMoreThanOneNotice',
    'hangs',
    'sentWhileDown',
    'chatNotResumed',
    'misleadingNotices',
    'messagesLost',
    'runsFailed',
  ]);
  const rng = createRandom(options.seed ?? 1);
  for (let t = 0; t < (options.trials ?? 20); t++) {
    tally.add('trials');
    await trial(options, t, rng, tally);
  }
  return tally.result();
}

async function trial(options: PgRestartOptions, t: number, rng: Random, tally: Tally): Promise<void> {
  const { server } = options;
  const home = freshDir(options.root, 'restart-home-');
  const cwd = freshDir(options.root, 'restart-project-');
  const term = spawnTerm(['--autosave', 'off'], { home, cwd, env: { CHATKEEP_STORE: server.url, CHATKEEP_ECHO_DELAY_MS: '40' } });
  const shown: Shown[] = [];
  let halted = false;
  try {
    await term.waitFor(PROMPT);
    const id = /· session (\S+) ·/.exec(term.screen())?.[1] ?? '';
    for (let i = 0; i < rng.int(1, 3); i++) await chat(term, `t${t} before ${i}`, shown);
    // Idle, or while a reply streams (8 words at 40 ms each).
    const midReply = rng.chance(0.5);
    let from = term.screen().length;
    const message = `t${t} streaming one two three`;
    if (midReply) {
      tally.add('haltedMidReply');
      term.write(`${message}\r`);
      await term.waitFor('Echo: ', { from });
      await sleep(rng.int(0, 150));
      shown.push({ role: 'user', text: message, complete: true });
    }
    await server.halt();
    halted = true;
    if (midReply) {
      await sleep(1000);
      const reply = /^Echo: .*$/m.exec(term.screen().slice(from))?.[0] ?? '';
      shown.push({ role: 'assistant', text: reply.replace(/chatkeep: .*$/, '').replace(/ \[interrupted\]$/, '').replace(/\(read \d+ messages?\)$/, ''), complete: false, answers: message });
    }
    // A line typed while the server is down: said in one line, within seconds, and not sent.
    const down = `t${t} typed while down`;
    const typedAt = term.screen().length;
    term.write(`${down}\r`);
    const typedMs = Date.now();
    try {
      await term.waitFor(/unreachable|Cannot reach/i, { from: typedAt, timeout: 10_000 });
      tally.max('slowestOutageNoticeMs', Date.now() - typedMs);
      await term.waitFor(PROMPT, { from: typedAt + down.length + 2, timeout: 10_000 });
    } catch {
      tally.fail(/unreachable|Cannot reach/i.test(term.screen().slice(typedAt)) ? 'hangs' : 'outageNotSaid', `trial ${t}: ${term.screen().slice(from).trim()}`);
    }
    if (term.screen().slice(typedAt).includes(`Echo: ${down}`)) tally.fail('sentWhileDown', `trial ${t}: a reply to a line typed while the server was down`);
    const notices = noticeLines(term.screen().slice(from), [down, message]);
    tally.add('outageNoticeLines', notices.length);
    // One line per thing that failed: the line typed while down; mid-reply also the reply cut off.
    if (notices.length !== (midReply ? 2 : 1)) tally.fail('trialsWithMoreThanOneNotice', `trial ${t}${midReply ? ' (mid-reply)' : ''}: ${JSON.stringify(notices)}`);

    await server.restart();
    halted = false;
    from = term.screen().length;
    const after = `t${t} after restart`;
    try {
      await chat(term, after, shown);
    } catch (err) {
      tally.fail('chatNotResumed', `trial ${t}: ${String(err)}`);
    }
    for (const line of noticeLines(term.screen().slice(from), [after])) {
      // No other chatkeep ever touches this session: a notice about one is false.
      if (/another process|process that had taken/.test(line)) tally.fail('misleadingNotices', `trial ${t}: ${line}`);
    }
    const goesOn = /goes on in new session (\S+),/.exec(term.screen().slice(from))?.[1] ?? id;
    term.write('/quit\r');
    const code = await Promise.race([term.exited, sleep(15_000).then(() => 'hung')]);
    if (code !== 0) tally.fail(code === 'hung' ? 'hangs' : 'runsFailed', `trial ${t}: /quit ended with ${code}`);
    tally.add('messagesAcknowledged', shown.length);
    await checkKept(options, goesOn, id, shown, t, tally);
  } catch (err) {
    tally.fail('runsFailed', `trial ${t}: ${String(err)}`);
  } finally {
    term.kill('SIGKILL');
    if (halted) await server.restart();
  }
}

/** Sends `message` and waits for its whole reply. */
async function chat(term: Term, message: string, shown: Shown[]): Promise<void> {
  const from = term.screen().length;
  term.write(`${message}\r`);
  await term.waitFor(new RegExp(`Echo: ${message} \\(read \\d+ messages?\\)\\n› $`), { from });
  const reply = new RegExp(`Echo: ${message} \\(read \\d+ messages?\\)`).exec(term.screen().slice(from))![0];
  shown.push({ role: 'user', text: message, complete: true }, { role: 'assistant', text: reply, complete: true });
}

/** What chatkeep said on the screen `text`: not prompts with typed lines, not the replies (a notice glued to a partial reply counts). */
function noticeLines(text: string, typed: string[]): string[] {
  return text
    .split('\n')
    .map((line) => (line.startsWith('Echo: ') ? (/chatkeep: .*$/.exec(line)?.[0] ?? '') : line).trim())
    .filter((line) => line !== '' && !TYPED.test(line) && line !== '›' && !typed.includes(line));
}

/** Every message shown is in session `id`, in order (a partial reply as a prefix); a miss says whether the session it began in (`first`) has it. */
async function checkKept(options: PgRestartOptions, id: string, first: string, shown: Shown[], t: number, tally: Tally): Promise<void> {
  const manager = await openSessions({ home: freshDir(options.root, 'restart-reader-'), cwd: options.root, store: options.server.url });
  try {
    const messages = (await manager.read(id)).messages;
    const before = id === first ? [] : (await manager.read(first)).messages;
    const same = (m: Message, want: Shown): boolean => m.role === want.role && (want.complete ? m.content === want.text : isPartOf(m.content, want));
    let at = 0;
    for (const want of shown) {
      const found = messages.findIndex((m, j) => j >= at && same(m, want));
      if (found === -1) {
        const kept = before.some((m) => same(m, want)) ? `; ${first}, where the chat began, has it` : '';
        tally.fail('messagesLost', `trial ${t}: ${JSON.stringify(want)} is not in ${id}, where the chat goes on${kept} (${JSON.stringify(messages.map((m) => m.content))})`);
        continue;
      }
      at = found + 1;
    }
  } catch (err) {
    tally.fail('messagesLost', `trial ${t}: ${id} cannot be read: ${String(err)}`);
  } finally {
    await manager.close();
  }
}

/** `content` is the stored form of the partial reply `want`: it starts with what was shown, and answers the same message. */
function isPartOf(content: string, want: Shown): boolean {
  const start = `Echo: ${want.answers ?? ''}`;
  return content.startsWith(want.text) && (content.startsWith(start) || start.startsWith(content));
}
