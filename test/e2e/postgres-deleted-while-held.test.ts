/**
 * A session deleted from the store (by hand, in SQL) while its owner chats in it: the next write
 * finds no row, and the chat says so plainly (never that its owner stopped sharing it, the owner
 * being the one chatting, nor that another process took it over). What was typed and shown goes
 * on in a fork of one's own, and the lines on quitting name that fork's command, one that runs.
 */
import { describe, expect, inject, it } from 'vitest';
import { phrase, spawnPty } from '../helpers/pty.js';
import { forkTold } from '../helpers/fork-told.js';
import { createDatabase, runSql } from '../helpers/postgres.js';
import { as, chat, ok, person } from '../helpers/team.js';

describe('a session deleted while its owner chats in it', () => {
  it('says the session was deleted, and keeps what was typed and seen in a fork of her own', async () => {
    const db = await createDatabase(inject('postgresAdminUrl'));
    const ann = await person(db, 'ann');
    await ok(['db', 'setup', '--member', ann.role], as(db));
    const id = await chat(ann, ['the plan']);

    const run = spawnPty(['--session-id', id], ann.options);
    await run.say('a second step', 'Echo: a second step (read 3 messages)');
    await runSql(ann.url, 'DELETE FROM chatkeep.sessions WHERE id = $1', [id]);
    const from = run.screen().length;
    await run.say('and one more', 'Echo: and one more (read 5 messages)');
    const told = run.screen().slice(from);
    expect(told).toMatch(phrase(`Session ${id} was deleted from the store while this process held it`));
    expect(told).not.toMatch(/stopped sharing/i);
    const fork = await forkTold(run, from, told, id);

    const kept = JSON.parse(await ok(['sessions', 'show', fork, '--json'], ann.options)) as { messages: { content: string }[] };
    expect(kept.messages.map((m) => m.content)).toEqual(['the plan', 'Echo: the plan (read 1 message)', 'a second step', 'Echo: a second step (read 3 messages)', 'and one more', 'Echo: and one more (read 5 messages)']);
    expect(await runSql(db, 'SELECT count(*)::int AS n FROM chatkeep.sessions WHERE id = $1', [id])).toEqual([{ n: 0 }]);
  });
});
