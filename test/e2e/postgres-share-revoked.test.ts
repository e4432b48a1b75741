/**
 * A share revoked mid-chat (docs/postgres.md, "Sharing"): a member chatting in another's session
 * shared with him for writing, when its owner stops sharing it (or makes it read-only), is told
 * that plainly, and what he typed and was shown goes on in a fork of his own, with the command
 * to resume that one: never "another process took it over" with a command he cannot run.
 */
import { describe, expect, inject, it } from 'vitest';
import { openSessions, ShareRevokedError } from '../../src/index.js';
import { phrase, spawnPty } from '../helpers/pty.js';
import { forkTold } from '../helpers/fork-told.js';
import { createDatabase } from '../helpers/postgres.js';
import { as, chat, ok, person } from '../helpers/team.js';

/** Ann's session with one exchange, shared with Bob for writing; Bob works in Ann's directory. */
async function sharedForWriting() {
  const db = await createDatabase(inject('postgresAdminUrl'));
  const ann = await person(db, 'ann');
  const bob = await person(db, 'bob');
  await ok(['db', 'setup', '--member', ann.role, '--member', bob.role], as(db));
  bob.options.cwd = ann.options.cwd;
  const id = await chat(ann, ['the shared plan']);
  await ok(['sessions', 'share', id, '--with', bob.role, '--write'], ann.options);
  return { ann, bob, id };
}

describe('a share revoked mid-chat', () => {
  it('tells the member in the chat, and keeps what he typed and saw in a fork of his own', async () => {
    const { ann, bob, id } = await sharedForWriting();

    const run = spawnPty(['--session-id', id], bob.options);
    await run.say('bob adds a step', 'Echo: bob adds a step (read 3 messages)');
    await ok(['sessions', 'unshare', id], ann.options);
    const from = run.screen().length;
    await run.say('and one more', 'Echo: and one more (read 5 messages)');
    const told = run.screen().slice(from);
    expect(told).toMatch(phrase(`The owner stopped sharing session ${id} with you for writing`));
    // Every command shown is one he can run: the fork's, never the revoked session's.
    const fork = await forkTold(run, from, told, id);

    const kept = JSON.parse(await ok(['sessions', 'show', fork, '--json'], bob.options)) as { messages: { content: string }[] };
    expect(kept.messages.map((m) => m.content)).toEqual(['the shared plan', 'Echo: the shared plan (read 1 message)', 'bob adds a step', 'Echo: bob adds a step (read 3 messages)', 'and one more', 'Echo: and one more (read 5 messages)']);
    // The owner's session has what bob wrote while he could, nothing after.
    const ann_s = JSON.parse(await ok(['sessions', 'show', id, '--json'], ann.options)) as { messages: { content: string }[] };
    expect(ann_s.messages.map((m) => m.content)).toHaveLength(4);
  });

  it('gives a library host a ShareRevokedError with its advice as data, when a share turns read-only', async () => {
    const { ann, bob, id } = await sharedForWriting();

    const sessions = await openSessions({ home: bob.options.home, cwd: bob.options.cwd, store: bob.url });
    try {
      const session = await sessions.resume(id);
      await session.append({ role: 'user', content: 'while shared' });
      await ok(['sessions', 'share', id, '--with', bob.role], ann.options);
      const refused = await session.append({ role: 'user', content: 'after' }).catch((err: unknown) => err);
      expect(refused).toMatchObject({ code: 'E_READ_ONLY' });
      const lost = await session.retake();
      expect(lost).toMatchObject({ retaken: false });
      const why = (lost as { revoked?: ShareRevokedError }).revoked;
      expect(why).toBeInstanceOf(ShareRevokedError);
      expect(why).toMatchObject({ code: 'E_SHARE_REVOKED', owner: ann.role, advice: { call: 'sessions.fork(session)' } });
      expect(why!.message).toBe(`${ann.role} stopped sharing session ${id} with you for writing: nothing more of yours is written to it.`);
      const fork = await sessions.fork(session);
      expect(fork.messages.map((m) => m.content)).toEqual(['the shared plan', 'Echo: the shared plan (read 1 message)', 'while shared']);
      await fork.close();
    } finally {
      await sessions.close();
    }
  });
});
