/**
 * `/uncompact` in the chat, as a person types it at 80 and 120 columns, on the file store and
 * on PostgreSQL: refused in one line with nothing to undo; in place when nothing was said since
 * the compaction (its summary kept in the archive); in a fork when something was, the original
 * kept as it was and released. `/help` lists it.
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
  archived: { messages: unknown[]; summary: string | null; by?: string }[];
}

async function show(options: RunOptions, id: string): Promise<Shown> {
  const run = await runPiped(['sessions', 'show', id, '--json'], '', options);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Shown;
}

/**
 * Types `text` at the prompt; resolves with what the screen showed after it, once `until` is there
 * and the prompt is back (a line may arrive in pieces: `until` alone does not mean it is whole).
 */
async function after(run: PtyRun, text: string, until: string | RegExp): Promise<string> {
  await run.prompt();
  const from = run.screen().length;
  run.line(text);
  await run.waitFor(until, { from });
  await run.prompt();
  return run.screen().slice(from);
}

const TALK = ['a', 'Echo: a (read 1 message)', 'b', 'Echo: b (read 3 messages)'];

async function uncompactTwice(options: RunOptions & { columns: number }): Promise<void> {
  const { run, id } = await startAtPrompt([], options);
  await run.say('a', 'Echo: a');
  await run.say('b', 'Echo: b');
  expect(await after(run, '/uncompact', 'Nothing to uncompact')).toMatch(phrase(
    'Nothing to uncompact: this conversation has not been compacted since it began or was last reset.',
  ));
  await after(run, '/compact', 'Summarised 2 earlier messages');
  const summary = (await show(options, id)).summary;
  expect(summary).not.toBeNull();

  // Nothing said since: undone here, the summary kept in the archive as the part /uncompact set aside.
  expect(await after(run, '/uncompact', 'Uncompacted')).toMatch(phrase(
    'Uncompacted: the 2 messages /compact summarised are live again; its summary is kept in the archive.',
  ));
  let shown = await show(options, id);
  expect(shown.messages.map((m) => m.content)).toEqual(TALK);
  expect(shown.summary).toBeNull();
  expect(shown.archived).toEqual([expect.objectContaining({ messages: [], summary, by: 'uncompact' })]);
  expect(await after(run, '/uncompact', 'Nothing to uncompact')).toMatch(phrase('Nothing to uncompact'));
  // The next reply reads the four messages again, not a summary.
  await after(run, 'c', 'Echo: c (read 5 messages)');

  // Said something since: the conversation as it was before the compaction goes to a fork.
  await after(run, '/compact', 'Summarised 4 earlier messages');
  await after(run, 'd', 'Echo: d (read 4 messages)');
  const forked = await after(run, '/uncompact', /New session (\S+), forked from/);
  const fork = /now\s+in\s+(\S+),\s+holding/.exec(forked)![1]!;
  expect(forked).toMatch(phrase(
    `Uncompacted in a fork, as messages came after the last /compact: now in ${fork}, holding the 6 messages as they were before it; ${id} is kept as it was.`,
  ));
  await after(run, 'e', 'Echo: e (read 7 messages)');
  expect(await run.quit()).toBe(0);
  for (const line of await run.visible()) expect(line.length).toBeLessThanOrEqual(options.columns);

  shown = await show(options, fork);
  expect(shown).toMatchObject({ parentId: id, forkPoint: 6, summary: null });
  expect(shown.messages.map((m) => m.content)).toEqual([...TALK, 'c', 'Echo: c (read 5 messages)', 'e', 'Echo: e (read 7 messages)']);
  // The original is as it was: compacted, with what came after, and released (another chat may resume it).
  const original = await show(options, id);
  expect(original.messages.map((m) => m.content)).toEqual(['c', 'Echo: c (read 5 messages)', 'd', 'Echo: d (read 4 messages)']);
  expect(original.summary).not.toBeNull();
  expect((await runPiped(['--session-id', id], '/quit\n', options)).code).toBe(0);
}

describe('/uncompact in the chat', () => {
  for (const columns of [80, 120]) {
    it(`refuses with nothing to undo, undoes in place, then in a fork when messages came since (${columns} columns)`, async () => {
      await uncompactTwice({ home: tmpHome(), cwd: tmpHome('chatkeep-project-'), columns });
    });
  }

  it('does the same on PostgreSQL', async () => {
    const url = await createDatabase(inject('postgresAdminUrl'));
    await uncompactTwice({ home: tmpHome(), cwd: tmpHome('chatkeep-project-'), columns: 80, env: { CHATKEEP_STORE: url } });
  });

  it('is listed by /help', async () => {
    const run = await runPiped([], '/help\n/quit\n', { home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    expect(run.stdout).toMatch(/\/uncompact +undo the last \/compact/);
  });
});
