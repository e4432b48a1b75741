/**
 * `/rewind N` in the chat, as a person types it at 80 and 120 columns: a fork holding the first
 * N messages (the original kept as it was and released), after /load and after /compact; and in
 * the REPL component's readline host, where `/rewind` alone lists your messages (the chat's
 * list to pick from is in branches-rewind-pick.test.ts).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../torture/proc.js';
import { phrase, runPiped, spawnPty, startAtPrompt } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

interface Shown {
  parentId?: string;
  forkPoint?: number;
  summary: string | null;
  messages: { content: string }[];
}

async function show(options: { home: string; cwd: string }, id: string): Promise<Shown> {
  const run = await runPiped(['sessions', 'show', id, '--json'], '', options);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Shown;
}

describe('/rewind in the chat', () => {
  for (const columns of [80, 120]) {
    it(`continues in a fork of the first N, the original kept and released (${columns} columns)`, async () => {
      const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), columns };
      const { run, id } = await startAtPrompt([], options);
      await run.say('first', 'Echo: first');
      await run.say('second', 'Echo: second');
      await run.say('third', 'Echo: third');

      // Lines are broken between words at the terminal's width: phrases are matched across rows.
      await run.say('/rewind two', phrase('Bad number of messages to keep `two`: give 0 or more, or nothing to list your messages. For example: /rewind 4'));
      await run.say('/rewind 9', phrase(`Cannot fork ${id} at message 9: it has 6 messages (give 0 to 6).`));

      const at = run.screen().length;
      await run.say('/rewind 2', /New session\s+(\S+),\s+forked\s+from/);
      const screen = await run.prompt(); // the whole answer is there once the prompt is back
      const fork = /now\s+in\s+(\S+),\s+holding/.exec(screen.slice(at))![1]!;
      expect(screen.slice(at)).toMatch(phrase(`Rewound to message 2: now in ${fork}, holding 2 messages; ${id} is kept as it was.`));
      expect(screen.slice(at)).toMatch(phrase(`New session ${fork}, forked from ${id} at message 2`));
      await run.say('second, said otherwise', 'Echo: second, said otherwise (read 3 messages)');

      // The original is kept as it was, and released: another chat may resume it now.
      expect((await show(options, id)).messages.map((m) => m.content)).toEqual([
        'first', 'Echo: first (read 1 message)', 'second', 'Echo: second (read 3 messages)', 'third', 'Echo: third (read 5 messages)',
      ]);
      expect((await runPiped(['--session-id', id], '/quit\n', options)).code).toBe(0);

      // After /load, the session loaded is the one rewound.
      const from = run.screen().length;
      await run.say(`/load ${id}`, `Resumed session ${id}`);
      const again = await run.say('/rewind 4', /now\s+in\s+(\S+),\s+holding\s+4\s+messages/);
      const second = /now\s+in\s+(\S+),\s+holding\s+4\s+messages/.exec(again.slice(from))![1]!;
      expect(await run.quit()).toBe(0);
      expect(await show(options, fork)).toMatchObject({ parentId: id, forkPoint: 2, messages: [{ content: 'first' }, {}, { content: 'second, said otherwise' }, {}] });
      expect(await show(options, second)).toMatchObject({ parentId: id, forkPoint: 4, messages: [{}, {}, {}, {}] });
    });
  }

  it('after /compact: the fork keeps the summary the kept messages follow', async () => {
    const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), columns: 80 };
    const { run, id } = await startAtPrompt([], options);
    await run.say('hello', 'Echo: hello');
    await run.say('plans', 'Echo: plans');
    await run.say('/compact', 'Summarised 2 earlier messages');
    await run.say('more', 'Echo: more');
    const screen = await run.say('/rewind 2', /now\s+in\s+(\S+),\s+holding\s+2\s+messages/);
    const fork = /now\s+in\s+(\S+),\s+holding\s+2\s+messages/.exec(screen)![1]!;
    await run.say('instead', 'Echo: instead');
    expect(await run.quit()).toBe(0);
    const shown = await show(options, fork);
    expect(shown).toMatchObject({ parentId: id, forkPoint: 2, messages: [{ content: 'plans' }, {}, { content: 'instead' }, {}] });
    expect(shown.summary).toBe((await show(options, id)).summary);
    expect(shown.summary).not.toBeNull();
  });
});

describe('/rewind and /tree in the REPL component (the readline example)', () => {
  it('rewinds into a fork and draws the family, as in chatkeep', async () => {
    const home = tmpHome();
    const script = fileURLToPath(new URL('../../examples/embed-readline.mjs', import.meta.url));
    const chat = spawnPty([], { home, cwd: ROOT, script, columns: 80 });
    await chat.waitFor(/· 0 messages ·/);
    const id = /session (session-\S+) ·/.exec(chat.screen())![1]!;
    const say = async (text: string, until: string | RegExp): Promise<string> => {
      await chat.waitFor(/you> $/);
      const from = chat.screen().length;
      chat.line(text);
      await chat.waitFor(until, { from });
      await chat.waitFor(/you> $/); // the whole answer is there once the prompt is back
      return chat.screen().slice(from);
    };
    await say('hello', 'HELLO!');
    await say('again', 'AGAIN!');
    // Without a list to pick from, /rewind lists your messages with the /rewind N of each.
    const listed = await say('/rewind', '/rewind 0');
    expect(listed).toMatch(phrase('Your messages, newest first (/rewind N continues in a fork from just before it):'));
    expect(listed).toContain('  /rewind 2  › again\n  /rewind 0  › hello');
    // Without an input line to put it in, the message that came next is shown to say again.
    const rewound = await say('/rewind 2', phrase('to send again as it was or changed: again'));
    const fork = /now\s+in\s+(\S+),\s+holding/.exec(rewound)![1]!;
    expect(rewound).toMatch(phrase(`Rewound to message 2: now in ${fork}, holding 2 messages; ${id} is kept as it was.`));
    const tree = await say('/tree', '◀');
    expect(tree).toMatch(new RegExp(`${id}  4 messages · (now|\\d+m ago)  `));
    expect(tree).toMatch(new RegExp(`└─ ${fork}  at 2 · 2 messages · (now|\\d+m ago) ◀`));
    await chat.waitFor(/you> $/);
    chat.line('/quit');
    expect(await chat.exited).toBe(0);
  });
});
