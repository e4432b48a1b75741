/**
 * `/rewind` without N in the chat, as a person uses it at 80 and 120 columns, on the file store
 * and on PostgreSQL: a list of your messages, newest first, cut to the screen; ↓ and Enter pick
 * one, which comes back at the prompt to edit, in a fork holding what came before it (the
 * original kept as it was, released); Esc cancels; after /compact the archived messages can be
 * picked too; after /load it rewinds the session loaded.
 */
import { describe, expect, inject, it } from 'vitest';
import { phrase, runPiped, startAtPrompt, type PtyRun, type RunOptions } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { createDatabase } from '../helpers/postgres.js';

interface Shown {
  parentId?: string;
  forkPoint?: number;
  summary: string | null;
  messages: { content: string }[];
}

async function show(options: RunOptions, id: string): Promise<Shown> {
  const run = await runPiped(['sessions', 'show', id, '--json'], '', options);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Shown;
}

const DOWN = '\x1b[B';
const HEADING = 'Rewind to which message of yours?';
const LONG = `third, ${'and a long one that goes on '.repeat(6).trim()}`;

/** Types /rewind at the prompt and waits for the list; resolves with the screen's lines from its heading. */
async function openList(run: PtyRun): Promise<string[]> {
  await run.prompt();
  const from = run.screen().length;
  run.line('/rewind');
  await run.waitFor('Esc cancels', { from });
  const lines = await run.visible();
  const top = lines.findLastIndex((line) => line.startsWith(HEADING));
  // The list's own lines are never wrapped (what was typed above it may be).
  expect((await run.wrapped()).filter((i) => i > top)).toEqual([]);
  return lines.slice(top);
}

async function rewindByPicking(options: RunOptions & { columns: number }): Promise<void> {
  const { run, id } = await startAtPrompt([], options);
  await run.say('first', 'Echo: first (read 1 message)');
  await run.say('second', 'Echo: second (read 3 messages)');
  await run.say(LONG, 'Echo: third');
  await run.prompt();

  // Esc leaves the list, and nothing changes.
  let list = await openList(run);
  expect(list[0]!.length).toBeLessThanOrEqual(options.columns - 1);
  expect(list.slice(1, 4).map((row) => row.slice(0, 10))).toEqual(['❯ third, a', '  second', '  first']);
  expect(list[1]).toMatch(/…$/);
  for (const line of list) expect(line.length).toBeLessThan(options.columns);
  let from = run.screen().length;
  run.write('\x1b');
  await run.waitFor(phrase(`Nothing rewound: still in ${id}.`), { from });

  // ↓ Enter picks "second": it is back at the prompt, in a fork holding the two messages before it.
  list = await openList(run);
  from = run.screen().length;
  run.write(DOWN);
  run.write('\r');
  await run.waitFor(phrase('is back at the prompt'), { from });
  const after = run.screen().slice(from);
  const fork = /now\s+in\s+(\S+),\s+holding/.exec(after)![1]!;
  expect(after).toMatch(phrase(`Rewound to before your message: now in ${fork}, holding 2 messages; ${id} is kept as it was.`));
  expect(after).toMatch(phrase('is back at the prompt'));
  await run.waitFor(/› second$/, { from });
  run.line(', said otherwise');
  await run.waitFor(phrase('Echo: second, said otherwise (read 3 messages)'));
  expect(await show(options, fork)).toMatchObject({
    parentId: id,
    forkPoint: 2,
    messages: [{ content: 'first' }, {}, { content: 'second, said otherwise' }, {}],
  });
  // The original is kept as it was, and released.
  expect((await show(options, id)).messages.map((m) => m.content)).toEqual([
    'first', 'Echo: first (read 1 message)', 'second', 'Echo: second (read 3 messages)', LONG, expect.stringMatching(/^Echo: third/),
  ]);
  expect((await runPiped(['--session-id', id], '/quit\n', options)).code).toBe(0);

  // After /load, the list is the loaded session's; Enter picks its newest message.
  await run.say(`/load ${id}`, `Resumed session ${id}`);
  await openList(run);
  from = run.screen().length;
  run.write('\r');
  await run.waitFor(/now\s+in\s+(\S+),\s+holding\s+4\s+messages/, { from });
  await run.waitFor(/› third, and a long one/, { from });
  run.write('\x03');
  expect(await run.quit()).toBe(0);
}

describe('/rewind without N: pick a message of yours to say again', () => {
  for (const columns of [80, 120]) {
    it(`lists, cancels, picks, and puts the message back at the prompt in a fork (${columns} columns)`, async () => {
      await rewindByPicking({ home: tmpHome(), cwd: tmpHome('chatkeep-project-'), columns });
    });
  }

  it('does the same on PostgreSQL', async () => {
    const url = await createDatabase(inject('postgresAdminUrl'));
    await rewindByPicking({ home: tmpHome(), cwd: tmpHome('chatkeep-project-'), columns: 80, env: { CHATKEEP_STORE: url } });
  });

  it('after /compact, a message it archived can be picked: the fork holds what came before it, without the summary', async () => {
    const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), columns: 80 };
    const { run, id } = await startAtPrompt([], options);
    await run.say('alpha', 'Echo: alpha');
    await run.say('beta', 'Echo: beta');
    await run.say('gamma', 'Echo: gamma');
    await run.say('/compact', 'Summarised 4 earlier messages');
    const list = await openList(run);
    expect(list.slice(1, 4)).toEqual(['❯ gamma', '  (compacted) beta', '  (compacted) alpha']);
    const from = run.screen().length;
    run.write(DOWN);
    run.write('\r');
    await run.waitFor(/now\s+in\s+(\S+),\s+holding\s+2\s+messages/, { from });
    const fork = /now\s+in\s+(\S+),\s+holding/.exec(run.screen().slice(from))![1]!;
    await run.waitFor(/› beta$/, { from });
    run.line(' again');
    await run.waitFor(phrase('Echo: beta again (read 3 messages)'));
    expect(await run.quit()).toBe(0);
    const shown = await show(options, fork);
    expect(shown).toMatchObject({ parentId: id, forkPoint: 2, summary: null });
    expect(shown.messages.map((m) => m.content)).toEqual(['alpha', 'Echo: alpha (read 1 message)', 'beta again', 'Echo: beta again (read 3 messages)']);
  });
});
