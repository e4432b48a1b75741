/** The scripted steps of a kill -9 trial: run one to its end, or kill the process during one. */
import { setTimeout as sleep } from 'node:timers/promises';
import { acknowledge, type Chain, type Moment, type Step } from './kill9-model.js';
import type { Tally } from './part.js';
import type { Piped } from './proc.js';

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];

/** Asks for known output and waits for it: everything printed before (a resumed transcript) is behind the returned offset. */
export async function sync(proc: Piped): Promise<number> {
  const from = proc.stdout().length;
  proc.write('/help save\n');
  await proc.waitStdout('optionally setting the title\n', { from });
  return proc.stdout().length;
}

/** A new message with a unique token, so its reply can be told apart. */
function nextMessage(chain: Chain): string {
  chain.counter++;
  const words = Array.from({ length: chain.rng.int(2, 5) }, () => chain.rng.pick(WORDS));
  return `${chain.tag}m${chain.counter} ${words.join(' ')}`;
}

/** `text` as a literal inside a RegExp. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Runs a step to its end; returns the new stdout offset. */
export async function completeStep(chain: Chain, proc: Piped, step: Step, offset: number, tally: Tally): Promise<number> {
  const id = chain.current!;
  switch (step) {
    case 'chat': {
      const message = nextMessage(chain);
      proc.write(`${message}\n`);
      const reply = new RegExp(`^Echo: ${escape(message)} \\(read \\d+ messages?\\)\\n$`);
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
      const refused = proc.waitStderr(/in use by/, { from: errors }).then(() => 'held' as const);
      const switched = proc.waitStdout(`Switched to ${chain.other}.\n`, { from: offset }).then(() => 'switched' as const);
      // A session killed before its first message was never kept (docs/design.md §3): PostgreSQL
      // has no row of it and answers so; the file store still finds its own files and resumes it,
      // empty, until a listing discards it. Either answer loses nothing.
      const never = (chain.shown.get(chain.other) ?? []).length === 0;
      const unknown = never ? proc.waitStderr(`No session \`${chain.other}\``, { from: errors }).then(() => 'unknown' as const) : new Promise<never>(() => {});
      const answer = await Promise.race([refused, switched, unknown]);
      for (const waiting of [refused, switched, unknown]) waiting.catch(() => undefined);
      if (answer === 'held') {
        tally.fail('heldByDeadLock', `/load ${chain.other}: ${proc.stderr().slice(errors).trim()}`);
        throw new Error('cannot go on after a refused /load');
      }
      if (answer === 'switched') [chain.current, chain.other] = [chain.other, id];
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
export async function killDuring(chain: Chain, proc: Piped, moment: Moment, offset: number, tally: Tally): Promise<void> {
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
